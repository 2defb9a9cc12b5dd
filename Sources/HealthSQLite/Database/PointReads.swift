import Foundation
import GRDB
import HealthCore

/// Read-only connections to a database file for the point reads every HTTP request makes
/// (its token, its user, the consent, a range of days), each run on the calling thread.
///
/// GRDB's `async` read hands its closure to a reader's queue and resumes the task
/// afterwards: two thread switches that cost more than a point read (a third of the
/// server's CPU under load, docs/benchmarks.md). Its synchronous read cannot stand in: a
/// pool reader taken by an `async` read is given back only once that task runs again, so
/// tasks blocked waiting for a reader could hold every thread those tasks need. These
/// connections belong to no pool: each is taken for one statement on a thread that runs
/// it to the end and gives it back, never across a suspension, so a wait for one is never
/// a wait for a suspended task — there is no wait at all: when every connection is busy,
/// ``read(_:)`` answers `nil` and the caller reads through its pool.
///
/// One statement a read: there is no transaction around it (a statement is its own
/// snapshot in SQLite).
public final class PointReads: Sendable {
    private let path: String
    private let limit: Int
    private let state = Locked(State())

    private enum Taken {
        case idle(DatabaseQueue)
        case open
        case none
    }

    private struct State {
        var idle: [DatabaseQueue] = []
        var open = 0
        var closed = false
    }

    /// Connections to the database at `path`, opened as they are first needed, at most `limit`.
    public init(path: String, limit: Int = 8) {
        self.path = path
        self.limit = limit
    }

    /// `body` run with an idle connection on this thread; `nil` when all `limit` connections
    /// are busy, none can be opened, or the connections are closed.
    public func read<T>(_ body: (Database) throws -> T) throws -> T? {
        let taken = state.withLock { state -> Taken in
            if state.closed { return .none }
            if let connection = state.idle.popLast() { return .idle(connection) }
            guard state.open < limit else { return .none }
            state.open += 1
            return .open
        }
        let connection: DatabaseQueue
        switch taken {
        case .none: return nil
        case .idle(let idle): connection = idle
        case .open:
            do {
                var configuration = Configuration()
                configuration.readonly = true
                configuration.busyMode = .timeout(10)
                connection = try DatabaseQueue(path: path, configuration: configuration)
            } catch {
                // No connection (the file just removed by a deletion, no descriptor left):
                // the pool's connections, open already, answer.
                state.withLock { $0.open -= 1 }
                return nil
            }
        }
        defer {
            let keep = state.withLock { state -> Bool in
                guard !state.closed else { return false }
                state.idle.append(connection)
                return true
            }
            if !keep { try? connection.close() }
        }
        return try connection.unsafeRead(body)
    }

    /// Closes the idle connections; the busy ones close when their read ends.
    public func close() {
        let idle = state.withLock { state -> [DatabaseQueue] in
            state.closed = true
            defer { state.idle = [] }
            return state.idle
        }
        for connection in idle { try? connection.close() }
    }
}

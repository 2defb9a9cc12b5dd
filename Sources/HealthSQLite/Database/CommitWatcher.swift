import Foundation
import GRDB
import HealthCore

/// Notices commits that another process (or another ``HealthDatabase`` on the same file)
/// makes: while anyone observes, it compares the store's last anchor with the last one
/// notified, every `interval`, and tells the observers which types changed in between.
/// Commits made through this ``HealthDatabase`` are notified at once by the writer itself
/// (``committedHere(upTo:)``); the watcher's check runs on the writer's queue, serialised
/// with them, so no commit is notified twice.
final class CommitWatcher: Sendable {
    private struct State {
        var running = false
        /// The last anchor observers were told of; `nil` until the watcher first looks.
        var notifiedAnchor: QueryAnchor?
        /// Bumped at every start, so a stopped loop's pending tick ends it.
        var generation = 0
    }

    private let pool: DatabasePool
    private let observers: ChangeObservers
    private let interval: TimeInterval
    private let readOnly: Bool
    private let state = Locked(State())
    private let queue = DispatchQueue(label: "healthpipe.commit-watcher")

    init(pool: DatabasePool, observers: ChangeObservers, interval: TimeInterval, readOnly: Bool) {
        self.pool = pool
        self.observers = observers
        self.interval = interval
        self.readOnly = readOnly
    }

    /// Starts polling when the first observer arrives; stops when the last one leaves.
    func observersChanged(count: Int) {
        let generation = state.withLock { state -> Int? in
            if count == 0 {
                state.running = false
                state.notifiedAnchor = nil
                state.generation += 1
                return nil
            }
            guard !state.running else { return nil }
            state.running = true
            state.generation += 1
            return state.generation
        }
        guard let generation else { return }
        // Learn where the store stands now, before `observe` returns, so that the first tick
        // reports every commit after it: learnt by the first tick instead, a commit made before
        // that tick ran (a busy machine delays it) became the starting point and was never told.
        if let baseline = try? pool.read({ db in try HealthDatabase.lastAnchor(db) }) {
            state.withLock { state in
                if state.generation == generation, state.notifiedAnchor == nil { state.notifiedAnchor = baseline }
            }
        }
        queue.async { self.tick(generation) }
    }

    /// A commit through this database notified its observers itself, up to `anchor`.
    func committedHere(upTo anchor: QueryAnchor) {
        state.withLock { state in
            if let known = state.notifiedAnchor { state.notifiedAnchor = max(known, anchor) }
        }
    }

    private func tick(_ generation: Int) {
        guard state.withLock({ $0.running && $0.generation == generation }) else { return }
        do {
            if readOnly {
                try pool.read { db in try check(db) }
            } else {
                try pool.writeWithoutTransaction { db in try check(db) }
            }
        } catch {
            // A busy or vanished file: look again next time.
        }
        queue.asyncAfter(deadline: .now() + interval) { self.tick(generation) }
    }

    private func check(_ db: Database) throws {
        let last = try HealthDatabase.lastAnchor(db)
        let known = state.withLock { state -> QueryAnchor? in
            guard let known = state.notifiedAnchor else {
                state.notifiedAnchor = last
                return nil
            }
            return known
        }
        guard let known, last > known else { return }
        let types = try String.fetchAll(
            db,
            sql: """
                SELECT identifier FROM sample_type WHERE id IN (
                    SELECT type_id FROM sample WHERE anchor > ?1 UNION SELECT type_id FROM tombstone WHERE anchor > ?1)
                """, arguments: [known.rawValue])
        state.withLock { $0.notifiedAnchor = last }
        observers.notify(ChangeNotice(types: Set(types.map(SampleType.init)), lastAnchor: last))
    }
}

import Foundation
import PostgresNIO

/// A write that PostgreSQL ended for contention — a deadlock (SQLSTATE `40P01`) or a
/// serialization failure (`40001`) — every time it was tried
/// (``PostgresHealthStore/write(attempts:_:)``). Nothing was written; the same request a
/// moment later will most likely succeed. The server answers it with 503 and `Retry-After`.
public struct StoreBusyError: Error, CustomStringConvertible, Sendable {
    /// Seconds to wait before sending the request again.
    public let retryAfter: Int

    public init(retryAfter: Int = 1) { self.retryAfter = retryAfter }

    public var description: String {
        "the store is busy with other writes and wrote nothing; send the request again in \(retryAfter) s"
    }

    /// Whether `error` ended a transaction for contention, so that the transaction may be
    /// tried again as a whole: a deadlock, a serialization failure, or a name deleted under
    /// a writer more often than it interns one again (``NameRaceError``).
    static func isContention(_ error: any Error) -> Bool {
        if error is NameRaceError { return true }
        guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] else { return false }
        return state == "40P01" || state == "40001"
    }

    /// A short random wait before try `attempt + 1`: 10–50 ms, doubled per try, so that two
    /// writers that deadlocked do not meet again in step.
    static func backoff(after attempt: Int) -> Duration {
        .milliseconds(Int.random(in: 10...50) << min(max(attempt - 1, 0), 4))
    }
}

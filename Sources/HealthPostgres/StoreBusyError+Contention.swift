import Foundation
import HealthCore
import PostgresNIO

extension StoreBusyError {
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

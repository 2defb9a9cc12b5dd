import Foundation
import HealthCore
import PostgresNIO

extension PostgresRecordWriter {
    /// Marks `intervals` dirty in this write's transaction (merged first), in one statement.
    public func markDirty(_ intervals: [DateInterval], zone: String?) async throws {
        let spans = DirtySpan.merged(intervals)
        guard !spans.isEmpty else { return }
        let starts = spans.map(\.start.timeIntervalSince1970)
        let ends = spans.map(\.end.timeIntervalSince1970)
        try await connection.query(
            """
            INSERT INTO health_dirty_span (user_id, start, "end", zone)
            SELECT \(userID), s.start, s."end", \(zone) FROM unnest(\(starts)::float8[], \(ends)::float8[]) WITH ORDINALITY
                AS s(start, "end", position) ORDER BY s.position
            """, logger: logger)
    }
}

extension PostgresHealthStore: DirtySpanTracking {
    /// Marks `intervals` dirty in a transaction of their own (before an import).
    public func markDirty(_ intervals: [DateInterval], zone: String?) async throws {
        try await write { writer in try await writer.markDirty(intervals, zone: zone) }
    }

    /// One computation of this user's days at a time across every server on the database:
    /// a transaction-level advisory lock, held on a connection of a small pool of its own
    /// (the work runs on the main pool, so the lock never waits for it) and released with
    /// the transaction however `body` ends, or with the connection if the process dies; in
    /// this process a mutex of the pool's first (so that its connections do not queue at
    /// the lock; two pools, as two servers in one process, meet at the advisory lock).
    public func withDaysLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        let (database, userID) = (database, userID)
        let pool = ObjectIdentifier(database.pool)
        return try await KeyedMutex.shared.withLock("postgres days \(pool) \(userID)") {
            do {
                return try await database.pool.locks.withTransaction(logger: database.logger) { connection in
                    let key = "healthpipe days " + userID
                    // Read to the end: the lock is held once its row has come back, not before.
                    _ = try await connection.query(
                        "SELECT pg_advisory_xact_lock(hashtextextended(\(key), 0))", logger: database.logger
                    ).collect()
                    return try await body()
                }
            } catch let error as PostgresTransactionError {
                throw error.closureError ?? error.beginError ?? error.commitError ?? error
            }
        }
    }

    /// The spans marked and not cleared, oldest first (a statement prepared once per
    /// connection: every read of days asks it first).
    public func dirtySpans() async throws -> [DirtySpan] {
        var spans: [DirtySpan] = []
        for (id, start, end, zone) in try await database.client.rows(DirtySpansStatement(userID: userID), logger: database.logger)
        {
            spans.append(
                DirtySpan(
                    id: id,
                    interval: DateInterval(
                        start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: max(start, end))),
                    zone: zone))
        }
        return spans
    }

    /// Clears the spans `ids` (those whose days were just stored; later ones stay).
    public func clearDirty(ids: [Int64]) async throws {
        guard !ids.isEmpty else { return }
        try await database.client.query(
            "DELETE FROM health_dirty_span WHERE user_id = \(userID) AND id = ANY(\(ids))", logger: database.logger)
    }

    /// The users with spans to compute again (after a crash, at a server's start).
    public static func usersWithDirtySpans(in database: PostgresHealthDatabase) async throws -> [String] {
        var users: [String] = []
        for try await user in try await database.client.query(
            "SELECT DISTINCT user_id FROM health_dirty_span", logger: database.logger
        ).decode(String.self) {
            users.append(user)
        }
        return users
    }
}

/// `SELECT` of a person's dirty spans, prepared (``PostgresHealthStore/dirtySpans()``).
struct DirtySpansStatement: PostgresPreparedStatement {
    static let sql = "SELECT id, start, \"end\", zone FROM health_dirty_span WHERE user_id = $1 ORDER BY id"
    typealias Row = (Int64, Double, Double, String?)
    let userID: String

    func makeBindings() throws -> PostgresBindings { PostgresBindings(texts: userID) }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

extension PostgresHealthDatabase {
    /// A condition, for a statement of another module over the same database, that is true
    /// when the user whose id is `parameter` (a placeholder such as `$1`) has spans marked and
    /// not cleared: a read of their computed days can then see, in its own snapshot, whether
    /// those days are current.
    public static func dirtySpansExist(userID parameter: String) -> String {
        "EXISTS (SELECT 1 FROM health_dirty_span WHERE user_id = \(parameter))"
    }

    /// Whether this database's tables are reached through `pool` (the server's records are
    /// then in the same database, and one statement can read both).
    public func isReached(through pool: PostgresPool) -> Bool { self.pool === pool }
}

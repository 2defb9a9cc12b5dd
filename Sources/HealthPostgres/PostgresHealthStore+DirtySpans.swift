import Foundation
import HealthCore
import PostgresNIO

extension PostgresRecordWriter {
    /// Marks `intervals` dirty in this write's transaction (merged first).
    public func markDirty(_ intervals: [DateInterval]) async throws {
        for span in DirtySpan.merged(intervals) {
            try await connection.query(
                """
                INSERT INTO health_dirty_span (user_id, start, "end")
                VALUES (\(userID), \(span.start.timeIntervalSince1970), \(span.end.timeIntervalSince1970))
                """, logger: logger)
        }
    }
}

extension PostgresHealthStore {
    /// Marks `intervals` dirty in a transaction of their own (before an import).
    public func markDirty(_ intervals: [DateInterval]) async throws {
        try await write { writer in try await writer.markDirty(intervals) }
    }

    /// The spans marked and not cleared, oldest first.
    public func dirtySpans() async throws -> [DirtySpan] {
        var spans: [DirtySpan] = []
        for try await (id, start, end) in try await database.client.query(
            "SELECT id, start, \"end\" FROM health_dirty_span WHERE user_id = \(userID) ORDER BY id",
            logger: database.logger
        ).decode((Int64, Double, Double).self) {
            spans.append(
                DirtySpan(
                    id: id,
                    interval: DateInterval(
                        start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: max(start, end)))))
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

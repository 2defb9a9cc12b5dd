import Foundation
import GRDB
import HealthCore

extension RecordWriter {
    /// Marks `intervals` dirty in this write's transaction (merged first).
    public func markDirty(_ intervals: [DateInterval], zone: String?) throws {
        for span in DirtySpan.merged(intervals) {
            try db.execute(
                sql: "INSERT INTO dirty_span (start, end, zone) VALUES (?, ?, ?)",
                arguments: [span.start.timeIntervalSince1970, span.end.timeIntervalSince1970, zone])
        }
    }
}

extension HealthDatabase: DirtySpanTracking {
    /// Marks `intervals` dirty in a transaction of their own (before an import, whose
    /// samples are not known until it commits: ``DirtySpan/everything``).
    public func markDirty(_ intervals: [DateInterval], zone: String?) async throws {
        try await writeAsync { writer in try writer.markDirty(intervals, zone: zone) }
    }

    /// One computation of this store's days at a time in this process (a SQLite data
    /// folder has one server: `serve` holds its lock).
    public func withDaysLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await KeyedMutex.shared.withLock(path, body)
    }

    /// The spans marked and not cleared, oldest first.
    public func dirtySpans() async throws -> [DirtySpan] {
        // Asked before every read of days (never a stale day): a point read, then the pool.
        let read: @Sendable (Database) throws -> [DirtySpan] = { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT id, start, end, zone FROM dirty_span ORDER BY id")).map { row in
                DirtySpan(
                    id: row[0],
                    interval: DateInterval(
                        start: Date(timeIntervalSince1970: row[1]),
                        end: Date(timeIntervalSince1970: max(row[1] as Double, row[2] as Double))),
                    zone: row[3])
            }
        }
        if let spans = try pointReads.read(read) { return spans }
        return try await pool.unsafeRead(read)
    }

    /// Whether any span waits (blocking: for a caller on a thread of its own).
    public func hasDirtySpans() throws -> Bool {
        try pool.read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM dirty_span)") ?? false }
    }

    /// Clears the spans `ids` (those whose days were just stored; later ones stay).
    public func clearDirty(ids: [Int64]) async throws {
        guard !ids.isEmpty else { return }
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM dirty_span WHERE id IN (\(ids.map { _ in "?" }.joined(separator: ",")))",
                arguments: StatementArguments(ids))
        }
    }
}

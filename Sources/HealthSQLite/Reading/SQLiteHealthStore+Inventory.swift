import Foundation
import GRDB
import HealthCore

extension SQLiteHealthStore {
    /// One pass over the samples, grouped by type and source.
    public func sampleInventory() async throws -> [SampleTypeInventory] {
        try await database.pool.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT t.identifier, src.name, n, first, last FROM (
                        SELECT type_id, source_id, count(*) AS n, min(start) AS first, max(start) AS last
                        FROM sample GROUP BY type_id, source_id
                    ) g JOIN sample_type t ON t.id = g.type_id JOIN source src ON src.id = g.source_id
                    ORDER BY t.identifier, n DESC, src.name
                    """)
            return SampleTypeInventory.merging(
                rows.map { row in (type: row[0], source: row[1], count: row[2], first: row[3], last: row[4]) })
        }
    }
}

extension SQLiteHealthStore {
    /// Each stored type's first start and latest end (``typeSpans(_:)``), by type.
    public func sampleSpans() async throws -> [SampleTypeSpan] {
        try await database.pool.read { db in try Self.typeSpans(db) }
    }

    /// Per type from the `(type_id, start)` index: the first start, and the latest end among
    /// the samples that start within the type's longest duration of its last start — never
    /// a scan of the whole table.
    static func typeSpans(_ db: Database) throws -> [SampleTypeSpan] {
        var spans: [SampleTypeSpan] = []
        for type in try Row.fetchAll(db, sql: "SELECT id, identifier, max_duration FROM sample_type") {
            let id: Int64 = type[0]
            let identifier: String = type[1]
            let maxDuration: Double = type[2]
            guard
                let first = try Double.fetchOne(db, sql: "SELECT MIN(start) FROM sample WHERE type_id = ?", arguments: [id]),
                let last = try Double.fetchOne(db, sql: "SELECT MAX(start) FROM sample WHERE type_id = ?", arguments: [id]),
                let end = try Double.fetchOne(
                    db, sql: "SELECT MAX(end) FROM sample WHERE type_id = ? AND start >= ?",
                    arguments: [id, last - maxDuration])
            else { continue }
            spans.append(
                SampleTypeSpan(
                    type: SampleType(identifier), first: Date(timeIntervalSince1970: first),
                    last: Date(timeIntervalSince1970: end)))
        }
        return spans.sorted { $0.type < $1.type }
    }
}

extension HealthDatabase {
    /// ``SQLiteHealthStore/sampleSpans()``, for a caller that may block (`healthpipe stats`).
    public func sampleSpans() throws -> [SampleTypeSpan] {
        try pool.read { db in try SQLiteHealthStore.typeSpans(db) }
    }
}

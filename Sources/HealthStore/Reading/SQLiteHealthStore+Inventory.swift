import Foundation
import GRDB
import HealthCore

extension SQLiteHealthStore: SampleInventoryReading {
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

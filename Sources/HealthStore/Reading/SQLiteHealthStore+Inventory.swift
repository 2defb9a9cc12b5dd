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
            var inventory: [SampleTypeInventory] = []
            for row in rows {
                let type = SampleType(row[0])
                let (source, count, first, last): (String, Int, Double, Double) = (row[1], row[2], row[3], row[4])
                if var entry = inventory.last, entry.type == type {
                    entry.count += count
                    entry.first = min(entry.first, Date(timeIntervalSince1970: first))
                    entry.last = max(entry.last, Date(timeIntervalSince1970: last))
                    entry.sources.append(source)
                    inventory[inventory.count - 1] = entry
                } else {
                    inventory.append(
                        SampleTypeInventory(
                            type: type, count: count, first: Date(timeIntervalSince1970: first),
                            last: Date(timeIntervalSince1970: last), sources: [source]))
                }
            }
            return inventory
        }
    }
}

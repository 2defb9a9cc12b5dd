import Foundation
import GRDB
import HealthSQLite
import Testing

/// Issue 37 §1: `healthpipe bench import`'s second floor writes the import's own rows again
/// with SQLite alone. It is a floor only if it writes every row the import stored, as
/// stored, into the store's own tables and indexes.
@Suite struct I37InsertFloorReplayTests {
    @Test func i37_theReplayWritesEveryStoredRowIntoTheStoresSchema() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        try await Fixtures.importExport(Fixtures.path("rinoshiyo-apple-health-mcp-server/sample_export.xml"), into: database)
        let generated = try await Fixtures.overlappingExport(
            in: folder, "generated.xml", start: "2024-02-01", days: 30, heartRatePerHour: 5)
        try await Fixtures.importExport(generated, into: database)
        let store = folder.appendingPathComponent("health.sqlite").path
        let copy = folder.appendingPathComponent("replay.sqlite").path

        let timing = try InsertFloor.replay(storeAt: store, path: copy, keepingFile: true)

        #expect(timing.inserts > 0 && timing.commit > 0)
        let original = try DatabaseQueue(path: store)
        let replayed = try DatabaseQueue(path: copy)
        defer {
            try? original.close()
            try? replayed.close()
        }
        func contents(_ queue: DatabaseQueue, _ table: String) throws -> [Row] {
            try queue.read { try Row.fetchAll($0, sql: "SELECT * FROM \(table)") }
        }
        func schema(_ queue: DatabaseQueue) throws -> [String] {
            try queue.read {
                try String.fetchAll(
                    $0,
                    sql: """
                        SELECT sql FROM sqlite_master WHERE tbl_name IN ('sample', 'metadata', 'hrv_beat', 'route_point',
                            'correlation_member', 'workout_event', 'workout_statistic', 'audiogram_point')
                        AND sql IS NOT NULL ORDER BY name
                        """)
            }
        }
        #expect(try schema(replayed) == schema(original))
        #expect(try schema(replayed).count == 13)  // the tables and their indexes (v6: three on `sample`)
        var rows = 0
        for table in [
            "sample", "metadata", "hrv_beat", "route_point", "correlation_member", "workout_event",
            "workout_statistic", "audiogram_point",
        ] {
            let stored = try contents(original, table)
            #expect(try contents(replayed, table) == stored, "\(table)")
            rows += stored.count
        }
        // Enough rows for more than one chunk of 4,096, full statements and a single-row tail.
        let samples = try contents(original, "sample").count
        #expect(samples > 4_096 && samples % 32 != 0)
        #expect(rows > samples)
    }
}

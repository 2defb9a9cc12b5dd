import Foundation
import HealthCore
import HealthExport
import HealthSQLite
import Testing

/// Found by `scripts/fuzz` (FuzzJSONEndpoints, issue 32): `GET /v1/export.csv` trapped —
/// the whole server went down — on a stored quantity whose unit does not parse. The
/// exporter's unit cache stored `nil` through the dictionary's subscript, which removes
/// the key, then force-unwrapped the lookup. Units are stored as given (a Health Auto
/// Export payload or a client may send one we do not know), so the exporter must cope.
@Suite struct UnparsableUnitTests {
    @Test func fuzz_aStoredUnitThatDoesNotParseIsKeptAsStoredNotATrap() async throws {
        let (database, folder) = try await ExportFixtures.store(ExportFixtures.own)
        defer { try? FileManager.default.removeItem(at: folder) }
        let start = LocalDate("2024-03-10")!.instant(hour: 9, in: TimeZone(identifier: "UTC")!)
        for (offset, unit) in ["stone?!", "stone?!"].enumerated() {
            _ = try database.write { writer in
                try writer.write(
                    .sample(
                        Sample(
                            type: .bodyMass, start: start + Double(offset) * 60, end: start + Double(offset) * 60,
                            value: .quantity(80 + Double(offset), unit: unit), source: Source(name: "Scale"))))
            }
        }
        let (text, report) = try await ExportFixtures.csv(database, ["weight"]) {
            $0.interval = ExportFixtures.days("2024-03-10", "2024-03-10", in: TimeZone(identifier: "UTC")!)
        }
        #expect(
            text == """
                Date,Metric,Value,Unit
                2024-03-10T09:00:00+00:00,Weight,80.00,stone?!
                2024-03-10T09:01:00+00:00,Weight,81.00,stone?!
                2024-03-10T14:15:00+00:00,Weight,80.06,kg

                """)
        #expect(report.rows.map(\.count) == [3])
    }
}

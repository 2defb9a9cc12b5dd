import Foundation
import HealthCore
import HealthImport
import HealthImportReader
import HealthSQLite
import Testing

/// Finding C1 (issue 32): an export with `value="1e300"` reached the daily rules and trapped
/// in an integer conversion. The importer now refuses it like any invalid record: the file,
/// the place and the record named, the store unchanged.
@Suite struct C1AbsurdValueImportTests {
    @Test func c1_anExportWithAnAbsurdStepCountIsAnInvalidRecordAndChangesNothing() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await BadInputTests.populatedStore(in: folder)
        let xml = folder.appendingPathComponent("absurd.xml")
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" startDate="2024-06-01 08:00:00 +0000" endDate="2024-06-01 08:10:00 +0000" value="800"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" startDate="2024-06-01 09:00:00 +0000" endDate="2024-06-01 09:10:00 +0000" value="1e300"/>
            </HealthData>
            """.utf8
        ).write(to: xml)
        try await BadInputTests.expectFailure(
            xml.path, into: database, .invalidRecord,
            mentioning: ["absurd.xml", "line 4", "record 2", "between 0 and 200000 count for HKQuantityTypeIdentifierStepCount"])
    }

    /// The message never carries the value itself (health data stays out of errors).
    @Test func c1_theMessageNamesTheBoundsNotTheValue() {
        let sample = Sample(
            type: .heartRate, start: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 0),
            value: .quantity(123_456.5, unit: "count/min"), source: Source(name: "Watch"))
        let problem = PlausibleRange.violation(of: sample)
        #expect(problem == "value must be between 0 and 400 count/min for HKQuantityTypeIdentifierHeartRate")
        #expect(problem?.contains("123") == false)
        // Units convert: 150 lb is a body mass, 1,500 kg is not; 97 % of oxygen is a fraction over 1.
        #expect(PlausibleRange.violation(value: 150, unit: "lb", type: .bodyMass) == nil)
        #expect(PlausibleRange.violation(value: 1500, unit: "kg", type: .bodyMass) != nil)
        #expect(
            PlausibleRange.violation(value: 0.97, unit: "%", type: SampleType("HKQuantityTypeIdentifierOxygenSaturation")) == nil)
        // A type without a row: finite and within ±1e12 in its own unit.
        #expect(PlausibleRange.violation(value: 1e11, unit: "count", type: SampleType("HKQuantityTypeIdentifierNew")) == nil)
        #expect(PlausibleRange.violation(value: 1e13, unit: "count", type: SampleType("HKQuantityTypeIdentifierNew")) != nil)
        #expect(PlausibleRange.violation(value: -.infinity, unit: "count", type: .stepCount) == "value must be a finite number")
    }

    /// docs/plausible-ranges.md lists exactly the table's rows.
    @Test func c1_theDocumentedTableIsTheCodesTable() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/plausible-ranges.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        let documented = text.split(separator: "\n").filter { $0.hasPrefix("| `HKQuantityTypeIdentifier") }.map {
            line in
            line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                .joined(separator: " ")
        }
        let table = PlausibleRange.rows.map { row in
            "`\(row.type.identifier)` \(PlausibleRange.describe(row.range.bounds.lowerBound)) "
                + "\(PlausibleRange.describe(row.range.bounds.upperBound)) \(row.range.unit)"
        }
        #expect(documented == table)
    }
}

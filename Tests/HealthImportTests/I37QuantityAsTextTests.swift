import Foundation
import HealthCore
import HealthImport
import HealthSQLite
import Testing

@testable import HealthImportReader

/// A quantity record whose value is no number (`value="187.3x" unit="lb"` for a body mass)
/// was stored as text: the import said "1 added", the CSV export left it out silently and
/// MCP counted it without a value. It is refused as `value="NaN"` is — the file, the line
/// and the record named, never the value, the store unchanged. A record of a type that is
/// no quantity type keeps a text value, unit or not (nothing is dropped because it is new).
@Suite struct I37QuantityAsTextTests {
    @Test func aQuantityWrittenAsTextIsRefused() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await BadInputTests.populatedStore(in: folder)
        let xml = folder.appendingPathComponent("text.xml")
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="lb" startDate="2024-06-01 08:00:00 +0000" endDate="2024-06-01 08:00:00 +0000" value="187.3"/>
             <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="lb" startDate="2024-06-02 08:00:00 +0000" endDate="2024-06-02 08:00:00 +0000" value="187.3x"/>
            </HealthData>
            """.utf8
        ).write(to: xml)
        try await BadInputTests.expectFailure(
            xml.path, into: database, .invalidRecord, mentioning: ["text.xml", "line 4", "record 2", "finite number"])
    }

    /// Found reviewing: without a unit, the same text was still stored.
    @Test func aQuantityWrittenAsTextWithoutAUnitIsRefused() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await BadInputTests.populatedStore(in: folder)
        let xml = folder.appendingPathComponent("nounit.xml")
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" startDate="2024-06-02 08:00:00 +0000" endDate="2024-06-02 08:00:00 +0000" value="heavy"/>
            </HealthData>
            """.utf8
        ).write(to: xml)
        try await BadInputTests.expectFailure(
            xml.path, into: database, .invalidRecord, mentioning: ["nounit.xml", "line 3", "record 1", "finite number"])
    }

    @Test func aNewTypesTextIsKept() throws {
        let xml = """
            <HealthData locale="en_US">
             <Record type="HKDataTypeSomethingNew" sourceName="App" unit="s" startDate="2024-06-01 08:00:00 +0000" endDate="2024-06-01 08:00:00 +0000" value="eight hours"/>
            </HealthData>
            """
        let (_, records) = try XMLScannerTests.records(Data(xml.utf8), chunk: 1 << 16)
        let samples = records.compactMap { if case .sample(let sample) = $0 { sample } else { nil } }
        #expect(samples.map(\.value) == [.category("eight hours")])
    }
}

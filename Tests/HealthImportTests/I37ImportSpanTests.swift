import Foundation
import HealthCore
import HealthImport
import HealthSQLite
import Testing

/// An import took samples every other way in refuses — an end before the start, a span of
/// two years — and the change feed then served them (`POST /v1/samples` answers 422 for the
/// same sample; docs/api.md: "refused on every way in; an import fails with invalid_record").
@Suite struct I37ImportSpanTests {
    @Test(arguments: [
        (
            #"<Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2018-05-01 23:00:00 +0000" endDate="2018-05-01 22:10:00 +0000" value="10"/>"#,
            "end must not be before start"
        ),
        (
            #"<Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Phone" startDate="2018-01-01 23:00:00 +0000" endDate="2019-12-31 07:00:00 +0000" value="HKCategoryValueSleepAnalysisInBed"/>"#,
            "a sample may span at most 31 days"
        ),
    ])
    func aSpanNoOtherWayInTakesIsRefused(_ record: String, _ reason: String) async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await BadInputTests.populatedStore(in: folder)
        let xml = folder.appendingPathComponent("span.xml")
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2018-05-01 08:00:00 +0000" endDate="2018-05-01 08:10:00 +0000" value="800"/>
             \(record)
            </HealthData>
            """.utf8
        ).write(to: xml)
        try await BadInputTests.expectFailure(
            xml.path, into: database, .invalidRecord, mentioning: ["span.xml", "line 4", "record 2", reason])
    }
}

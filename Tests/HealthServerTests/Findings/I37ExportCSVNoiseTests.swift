import Foundation
import Testing

/// `export csv --all-metrics` said "a1c: unavailable, no lab result …" on every store without
/// Health Records, though every metric means the metrics the store holds, and "Wrote 1 rows".
@Suite struct I37ExportCSVNoiseTests {
    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="kg" startDate="2021-06-14 07:00:00 -0700" endDate="2021-06-14 07:00:00 -0700" value="71.5"/>
        </HealthData>
        """

    @Test func everyMetricIsTheStoresAndOneRowIsOne() throws {
        let (folder, store) = try CommandLine33.store(importing: Self.export, "csv-noise")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let all = try CommandLine33.run(["export", "csv", "--all-metrics", "--all-dates", "--db", store])
        #expect(all.status == 0 && !all.err.contains("unavailable"), "\(all.err)")
        #expect(all.err.contains("Wrote 1 row (weight 1)"), "\(all.err)")
        let asked = try CommandLine33.run(["export", "csv", "--metrics", "weight,a1c", "--all-dates", "--db", store])
        #expect(asked.err.contains("a1c: unavailable, no lab result"), "\(asked.err)")
    }
}

import Foundation
import Testing

/// `healthpipe sleep` on an iPhone-only night (its bedtime schedule: time in bed alone)
/// printed 0 minutes of deep, REM, core and awake and 0 wakings (a probe): figures the
/// source never measured are —, and null in JSON.
@Suite struct I37SleepUnknownCommandTests {
    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="iPhone" device="&lt;&lt;HKDevice: 0x1&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2&gt;" startDate="2024-03-04 23:00:00 -0800" endDate="2024-03-05 07:00:00 -0800" value="HKCategoryValueSleepAnalysisInBed">
          <MetadataEntry key="HKTimeZone" value="America/Los_Angeles"/>
         </Record>
        </HealthData>
        """

    @Test func anIPhoneOnlyNightShowsItsUnknownFiguresAsUnknown() throws {
        let (folder, store) = try CommandLine33.store(importing: Self.export, "sleep-unknown")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let range = ["--db", store, "--from", "2024-03-05", "--to", "2024-03-05", "--home-tz", "America/Los_Angeles"]

        let table = try CommandLine33.run(["sleep"] + range)
        #expect(table.status == 0, "\(table.err)")
        let row = try #require(table.out.split(separator: "\n").first { $0.hasPrefix("2024-03-05") })
        let cells = row.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        // date zone source from bed wake "in bed h" "asleep h" "eff %" deep REM core awake wakings naps
        #expect(cells.count == 15, "\(row)")
        #expect(cells[3] == "in_bed_only" && cells[6] == "8.00", "\(row)")
        #expect(Array(cells[7...]) == Array(repeating: "—", count: 8), "\(row)")

        let json = try CommandLine33.run(["sleep", "--format", "json"] + range)
        let nights = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]]
        let main = try #require(nights?.first?["main"] as? [String: Any], "\(json.out)")
        #expect(main["awakenings"] is NSNull, "\(json.out)")
        #expect(main["asleep_seconds"] is NSNull)
    }
}

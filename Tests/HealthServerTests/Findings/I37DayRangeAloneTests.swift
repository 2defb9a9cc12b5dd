import Foundation
import Testing

/// `days`, `sleep`, `readiness`, `workouts` and `export gpx` refused `--from` without `--to`
/// ("--from and --to go together") while `export csv` took either alone. Now all of them
/// take either alone: `--from` runs through today, or through the last day with data when
/// nothing is newer (said on standard error); `--to` ends the command's default days there.
@Suite struct I37DayRangeAloneTests {
    /// Steps in Los Angeles on 20, 24 and 26 February 2020, nothing since.
    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" startDate="2020-02-20 09:00:00 -0800" endDate="2020-02-20 09:10:00 -0800" value="1000"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" startDate="2020-02-24 09:00:00 -0800" endDate="2020-02-24 09:10:00 -0800" value="2400"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" startDate="2020-02-26 09:00:00 -0800" endDate="2020-02-26 09:10:00 -0800" value="2600"/>
        </HealthData>
        """

    /// The dates of a table's rows.
    static func dates(_ out: String) -> [String] {
        out.split(separator: "\n").dropFirst().map { String($0.prefix(10)) }.filter { $0.hasPrefix("2020-") }
    }

    @Test func eitherEndAlone() throws {
        let (folder, store) = try CommandLine33.store(importing: Self.export, "range-alone")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let zone = ["--db", store, "--home-tz", "America/Los_Angeles"]

        let from = try CommandLine33.run(["days", "--from", "2020-02-24"] + zone)
        #expect(from.status == 0, "\(from.err)")
        #expect(Self.dates(from.out) == ["2020-02-24", "2020-02-25", "2020-02-26"], "\(from.out)")
        #expect(from.err.contains("latest data 2020-02-26; showing the 3 days to it"), "\(from.err)")

        let to = try CommandLine33.run(["days", "--to", "2020-02-22"] + zone)
        #expect(to.status == 0, "\(to.err)")
        #expect(Self.dates(to.out) == (16...22).map { "2020-02-\($0)" }, "\(to.out)")

        let readiness = try CommandLine33.run(["readiness", "--to", "2020-02-24"] + zone)
        #expect(readiness.status == 0 && Self.dates(readiness.out) == ["2020-02-24"], "\(readiness.out)\(readiness.err)")
        for command in ["sleep", "workouts"] {
            let run = try CommandLine33.run([command, "--from", "2020-02-24"] + zone)
            #expect(run.status == 0, "\(command): \(run.err)")
        }

        // --today ends --last's days; with a range it is refused rather than ignored.
        let both = try CommandLine33.run(["days", "--from", "2020-02-24", "--today", "2020-02-25"] + zone)
        #expect(both.status == 64 && both.err.contains("use --to with --from"), "\(both.err)")
        let dated = try CommandLine33.run(["readiness", "--date", "2020-02-24", "--to", "2020-02-25"] + zone)
        #expect(dated.status == 64, "\(dated.err)")
    }
}

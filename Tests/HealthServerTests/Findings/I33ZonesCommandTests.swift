import Foundation
import Testing

/// Issue 33 §5, one zone rule: on a machine in UTC (a server), dates and local times mean
/// the data's zone for that day — `export csv` (its days, its stamps, its file name),
/// `samples` and `delete` ranges, `snapshot --at` — as `days` always did; `--tz` overrides;
/// every command's help says it in the same words.
@Suite struct I33ZonesCommandTests {
    /// A night in Los Angeles (HKTimeZone) and two step samples of 2024-12-30 there: 01:00
    /// (09:00 UTC) and 20:30 (04:30 UTC on the 31st).
    static let records = """
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Apple Watch" value="HKCategoryValueSleepAnalysisAsleepCore" startDate="2024-12-29 23:00:00 -0800" endDate="2024-12-30 07:00:00 -0800">
          <MetadataEntry key="HKTimeZone" value="America/Los_Angeles"/>
         </Record>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" value="111" startDate="2024-12-30 01:00:00 -0800" endDate="2024-12-30 01:05:00 -0800"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" value="222" startDate="2024-12-30 20:30:00 -0800" endDate="2024-12-30 20:35:00 -0800"/>
        """

    static func sampleCount(_ json: String) throws -> Int {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Any]).count
    }

    @Test(.timeLimit(.minutes(3))) func i33_zones_datesAndLocalTimesMeanTheDataZone() throws {
        let folder = try CommandLine33.temporaryFolder("zones")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let db = try CommandLine33.store(importing: try CommandLine33.export(Self.records, in: folder), in: folder)
        func run(_ arguments: [String]) throws -> CommandLine33.Run {
            let run = try CommandLine33.run(arguments + ["--db", db])
            #expect(run.status == 0, "\(arguments): \(run.err)")
            return run
        }
        let day = ["--from", "2024-12-30", "--to", "2024-12-30"]

        // The day of 2024-12-30 in Los Angeles, each row stamped there.
        let csv = try run(["export", "csv", "--metrics", "steps"] + day)
        #expect(
            csv.out == """
                Date,Metric,Value,Unit
                2024-12-30T01:00:00-08:00,Steps,111,steps
                2024-12-30T20:30:00-08:00,Steps,222,steps

                """)
        // --tz overrides: the UTC day, stamped in UTC.
        let utc = try run(["export", "csv", "--metrics", "steps", "--tz", "UTC"] + day)
        #expect(utc.out == "Date,Metric,Value,Unit\n2024-12-30T09:00:00+00:00,Steps,111,steps\n")
        // The days of `days` are the same days.
        let days = try run(["days", "--format", "jsonl"] + day)
        #expect(days.out.contains(#""steps_normalized":333"#) && days.out.contains(#""timezone":"America/Los_Angeles""#))

        // samples and delete: the same day.
        #expect(try Self.sampleCount(try run(["samples", "--type", "steps"] + day).out) == 2)
        #expect(try Self.sampleCount(try run(["samples", "--type", "steps", "--tz", "UTC"] + day).out) == 1)

        // A local --at is 20:00 in Los Angeles that day.
        let snapshot = try run(["snapshot", "--at", "2024-12-30T20:00", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(snapshot.out.utf8)) as? [String: Any])
        #expect(object["timestamp"] as? String == "2024-12-30T20:00:00-08:00")
        // Outside the years every query serves: refused, as GET /v1/snapshot refuses it (a probe
        // of 2026-11-28: year 1 was a snapshot).
        for at in ["0001-01-01T00:00:00Z", "9999-12-31T23:59"] {
            let refused = try CommandLine33.run(["snapshot", "--at", at, "--db", db])
            #expect(refused.status == 64 && refused.err.contains("must be within the years 1900–2199"), "\(refused.err)")
        }

        let deleted = try run(["delete", "--type", "steps", "--yes"] + day)
        #expect(deleted.out.hasPrefix("Deleted 2 samples."), "\(deleted.out)")
    }

    /// The file name's stamp is the time now in the data's zone (evidence of last night in
    /// Kiritimati, UTC+14), not the system's.
    @Test(.timeLimit(.minutes(3))) func i33_zones_theFileIsStampedInTheDataZone() throws {
        let folder = try CommandLine33.temporaryFolder("stamp")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let zone = TimeZone(identifier: "Pacific/Kiritimati")!
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        let now = Date()
        let night = """
             <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Apple Watch" value="HKCategoryValueSleepAnalysisAsleepCore" startDate="\(formatter.string(from: now.addingTimeInterval(-10 * 3600)))" endDate="\(formatter.string(from: now.addingTimeInterval(-2 * 3600)))">
              <MetadataEntry key="HKTimeZone" value="Pacific/Kiritimati"/>
             </Record>
            """
        let db = try CommandLine33.store(importing: try CommandLine33.export(night, in: folder), in: folder)
        let out = folder + "/csv/"
        let run = try CommandLine33.run(["export", "csv", "--metrics", "sleep", "--db", db, "--out", out])
        #expect(run.status == 0, "\(run.err)")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: out).first)
        formatter.dateFormat = "'HealthPipeline_'yyyy-MM-dd_HHmmss'.csv'"
        let stamped = try #require(formatter.date(from: name), "\(name)")
        #expect(abs(stamped.timeIntervalSince(now)) < 600, "\(name)")
    }

    /// Every command that reads dates or local times says the rule in the same words.
    @Test(.timeLimit(.minutes(3))) func i33_zones_everyHelpSaysTheSameWords() throws {
        let words =
            "--tz <tz> Read every date and local time in this IANA zone (default: the data's zone for that day: its HKTimeZone evidence, else --home-tz)."
        for command in [
            ["days"], ["sleep"], ["readiness"], ["export", "csv"], ["samples"], ["delete"], ["snapshot"], ["log"],
            ["plan", "add"], ["plan", "list"], ["plan", "start"], ["coach"], ["dashboard"], ["mcp"],
        ] {
            let help = try CommandLine33.run(command + ["--help"])
            let flat = help.out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(flat.contains(words), "\(command): \(flat)")
        }
    }
}

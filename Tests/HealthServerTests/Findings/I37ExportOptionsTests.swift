import Foundation
import Testing

/// `export csv --workouts --date-format healthexporter` still wrote ISO times, and unit
/// options that change nothing for the rows asked for (`--weight-unit` with `--workouts`,
/// `--distance-unit` with `--daily`) were taken and ignored. The date style is the workouts'
/// too now; an option that would change nothing is refused, saying what it is for.
@Suite struct I37ExportOptionsTests {
    @Test func theDateStyleAppliesAndUselessOptionsAreRefused() throws {
        let folder = try CommandLine33.temporaryFolder("export-options")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = folder + "/health.sqlite"
        #expect(try CommandLine33.run(["import", I35WorkoutRouteTests.export, "--db", store, "--quiet"]).status == 0)
        let range = ["--db", store, "--from", "2020-02-24", "--to", "2020-02-24"]

        let styled = try CommandLine33.run(["export", "csv", "--workouts", "--date-format", "healthexporter"] + range)
        #expect(styled.status == 0, "\(styled.err)")
        #expect(styled.out.contains(#","2/24/20, 9:44 AM","2/24/20, 10:18 AM",Walking,"#), "\(styled.out)")

        for (flags, words) in [
            (["--workouts", "--weight-unit", "lb"], "--weight-unit is for samples"),
            (["--workouts", "--source-column"], "--source-column is for samples"),
            (["--daily", "--distance-unit", "mi"], "--distance-unit is for samples"),
            (["--daily", "--date-format", "healthexporter"], "--date-format is for samples"),
        ] {
            let refused = try CommandLine33.run(["export", "csv"] + flags + range)
            #expect(refused.status == 64 && refused.err.contains(words), "\(flags): \(refused.err)")
        }
        // --today (or --to) beside --workout was taken and ignored.
        for flags in [["--today", "2019-01-01"], ["--to", "2020-02-24"]] {
            let gpx = try CommandLine33.run(["export", "gpx", "--db", store, "--workout", UUID().uuidString] + flags)
            #expect(gpx.status == 64 && gpx.err.contains("not both"), "\(flags): \(gpx.err)")
        }
        let miles = try CommandLine33.run(["export", "csv", "--workouts", "--distance-unit", "mi"] + range)
        #expect(miles.status == 0 && miles.out.contains(",1.402,mi,"), "\(miles.out)")
    }
}

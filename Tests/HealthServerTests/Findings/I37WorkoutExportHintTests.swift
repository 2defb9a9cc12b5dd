import Foundation
import Testing

/// On an old export whose last sample of any kind is years after its last workout,
/// `export csv --workouts` and `export gpx` wrote nothing and said only "Wrote 0 workouts" /
/// "Wrote 0 GPX files to ." (a folder never made), where `healthpipe workouts` says where the
/// workouts are. They say it too now, and a range whose workouts recorded no route says so.
@Suite struct I37WorkoutExportHintTests {
    static let export = I37WorkoutHintTests.export.replacingOccurrences(
        of: "</HealthData>",
        with: """
             <Record type="HKQuantityTypeIdentifierWalkingSpeed" sourceName="iPhone" unit="km/hr" startDate="2022-12-16 09:00:00 -0800" endDate="2022-12-16 09:10:00 -0800" value="4.5"/>
            </HealthData>
            """)

    @Test func theWorkoutExportsSayWhereTheWorkoutsAre() throws {
        let (folder, store) = try CommandLine33.store(importing: Self.export, "workout-export-hint")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let zone = ["--db", store, "--home-tz", "America/Los_Angeles"]
        let hint = "The store's workouts run from 2020-02-24 to 2020-02-25; ask with --from and --to."

        let csv = try CommandLine33.run(["export", "csv", "--workouts"] + zone)
        #expect(csv.status == 0 && csv.err.contains("No workouts from 2022-11-17 through 2022-12-16. " + hint), "\(csv.err)")
        let routes = folder + "/routes"
        let gpx = try CommandLine33.run(["export", "gpx", "--out", routes] + zone)
        #expect(gpx.status == 0 && gpx.err.contains("Wrote no GPX file. No workouts from 2022-12-10 through 2022-12-16. " + hint))
        let none = try CommandLine33.run(["export", "gpx", "--from", "2020-02-24", "--to", "2020-02-25", "--out", routes] + zone)
        #expect(
            none.err.contains("Wrote no GPX file. None of the 2 workouts from 2020-02-24 through 2020-02-25 recorded a route."),
            "\(none.err)")
        #expect(!FileManager.default.fileExists(atPath: routes))
    }
}

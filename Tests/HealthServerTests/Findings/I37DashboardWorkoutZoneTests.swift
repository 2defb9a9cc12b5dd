import Foundation
import Testing

/// The dashboard's list of workouts showed a workout's start in the zone of the page's day:
/// a ride at 09:00 in Paris (`HKTimeZone` Europe/Paris) said "00:00" on a page about a Los
/// Angeles day, while `healthpipe workouts` and the workout's own page said 09:00.
@Suite struct I37DashboardWorkoutZoneTests {
    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" startDate="2021-06-16 09:00:00 -0700" endDate="2021-06-16 09:10:00 -0700" value="900"/>
         <Workout workoutActivityType="HKWorkoutActivityTypeCycling" duration="45" durationUnit="min" sourceName="Watch" startDate="2021-06-12 09:00:00 +0200" endDate="2021-06-12 09:45:00 +0200">
          <MetadataEntry key="HKTimeZone" value="Europe/Paris"/>
         </Workout>
        </HealthData>
        """

    @Test func aWorkoutsClockIsTheOneItWasRecordedIn() throws {
        let (folder, store) = try CommandLine33.store(importing: Self.export, "dashboard-zone")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let page = try CommandLine33.run([
            "dashboard", "--db", store, "--home-tz", "America/Los_Angeles", "--today", "2021-06-16", "--print",
        ])
        #expect(page.status == 0, "\(page.err)")
        let when = page.out.components(separatedBy: "<p class=\"when\">").dropFirst().map { $0.prefix { $0 != "<" } }
        #expect(when == ["Sat 12 Jun 2021, 09:00"], "\(when)")
    }
}

import Foundation
import Testing

/// An old export's day with an Activity summary (355 Cal of 690, 20 of 30 minutes of
/// exercise, 8 of 12 hours standing) and none of the samples the rings are counted from:
/// the dashboard took the goals from the summary but showed every ring empty (—) and
/// "Nothing recorded today yet." It shows what the summary says was achieved.
@Suite struct I37DashboardRingsSummaryTests {
    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="kg" startDate="2020-01-03 07:00:00 -0800" endDate="2020-01-03 07:00:00 -0800" value="71.5"/>
         <ActivitySummary dateComponents="2020-01-01" activeEnergyBurned="355" activeEnergyBurnedGoal="690" activeEnergyBurnedUnit="Cal" appleMoveTime="0" appleMoveTimeGoal="0" appleExerciseTime="20" appleExerciseTimeGoal="30" appleStandHours="8" appleStandHoursGoal="12"/>
        </HealthData>
        """

    @Test func theDaysSummaryFillsItsRings() throws {
        let (folder, store) = try CommandLine33.store(importing: Self.export, "rings-summary")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let page = try CommandLine33.run([
            "dashboard", "--db", store, "--home-tz", "America/Los_Angeles", "--today", "2020-01-01", "--print",
        ])
        #expect(page.status == 0, "\(page.err)")
        #expect(page.out.contains("Activity rings: Move 355 of 690 kcal, Exercise 20 of 30 min, Stand 8 of 12 h"), "\(page.out)")
        #expect(page.out.contains("its rings only") && !page.out.contains("Nothing recorded today yet."))
    }
}

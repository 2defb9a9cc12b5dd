import Foundation
import Testing

/// A trip east found by a probe with a hand-made export: home in Los Angeles, a Watch night
/// there ending 10 June 2021, then a 7-hour night in Tokyo (23:00–06:00 +09:00, 11–12 June)
/// and steps and a run there on the 13th.
///
/// - `days` counted the Tokyo night twice: on 12 June, and on 11 June, whose sleep window
///   `[10 June 18:00, 11 June 12:00)` in Los Angeles reached past the start of 12 June's in
///   Tokyo (5.00 h + 7.00 h for one 7-hour night); readiness scored the 11th on it.
/// - `export csv --all-dates` ended on the last day in the home zone (12 June), so the Tokyo
///   13th — its steps, its run — was left out (`Wrote 0 workouts`).
@Suite struct I37TripEastTests {
    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" device="&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch5,4, software:7.0&gt;" startDate="2021-06-10 09:00:00 -0700" endDate="2021-06-10 09:10:00 -0700" value="500"/>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" device="&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch5,4, software:7.0&gt;" startDate="2021-06-09 23:00:00 -0700" endDate="2021-06-10 06:00:00 -0700" value="HKCategoryValueSleepAnalysisAsleepCore"><MetadataEntry key="HKTimeZone" value="America/Los_Angeles"/></Record>
         <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" device="&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch5,4, software:7.0&gt;" startDate="2021-06-11 23:00:00 +0900" endDate="2021-06-12 06:00:00 +0900" value="HKCategoryValueSleepAnalysisAsleepCore"><MetadataEntry key="HKTimeZone" value="Asia/Tokyo"/></Record>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" device="&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch5,4, software:7.0&gt;" startDate="2021-06-13 07:00:00 +0900" endDate="2021-06-13 07:30:00 +0900" value="3000"/>
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" totalDistance="5" totalDistanceUnit="km" totalEnergyBurned="300" totalEnergyBurnedUnit="kcal" sourceName="Watch" startDate="2021-06-13 06:00:00 +0900" endDate="2021-06-13 06:30:00 +0900">
          <MetadataEntry key="HKTimeZone" value="Asia/Tokyo"/>
         </Workout>
        </HealthData>
        """

    @Test func aNightInTheNewZoneCountsOnceAndTheLastDayIsExported() throws {
        let (folder, store) = try CommandLine33.store(importing: Self.export, "trip-east")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let home = ["--db", store, "--home-tz", "America/Los_Angeles"]

        let days = try CommandLine33.run(["days", "--from", "2021-06-10", "--to", "2021-06-13", "--format", "json"] + home)
        #expect(days.status == 0, "\(days.err)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(days.out.utf8)) as? [[String: Any]])
        let sleep = Dictionary(uniqueKeysWithValues: rows.map { ($0["local_date"] as! String, $0["sleep_hours"] as? Double) })
        #expect(sleep["2021-06-10"] == 7 && sleep["2021-06-11"] == .some(nil) && sleep["2021-06-12"] == 7, "\(sleep)")
        #expect(sleep["2021-06-13"] == .some(nil))

        let workouts = try CommandLine33.run(["export", "csv", "--workouts", "--all-dates"] + home)
        #expect(workouts.status == 0 && workouts.err.contains("Wrote 1 workout"), "\(workouts.err)")
        #expect(workouts.out.contains("2021-06-13T06:00:00+09:00"), "\(workouts.out)")
        let daily = try CommandLine33.run(["export", "csv", "--daily", "--all-dates"] + home)
        // The second column, local_date: from the night that began on the 9th to the 13th.
        let dates = daily.out.split(separator: "\n").dropFirst().map {
            String($0.split(separator: ",", omittingEmptySubsequences: false)[1])
        }
        #expect(dates == (9...13).map { "2021-06-\(String(format: "%02d", $0))" }, "\(daily.out)")
    }
}

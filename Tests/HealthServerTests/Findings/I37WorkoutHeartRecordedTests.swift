import Foundation
import HealthDaily
import HealthWire
import Testing

/// A run that recorded its heart rate as a statistic (average 150, maximum 175 bpm) and no
/// heart-rate samples: its page said "Mean heart rate —" beside a list saying 150 bpm, and
/// MCP's `get_workout_details` with `max_hr` gave five zones of 0 s, which read as measured.
@Suite struct I37WorkoutHeartRecordedTests {
    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Watch" startDate="2021-06-14 07:00:00 -0700" endDate="2021-06-14 07:30:00 -0700">
          <MetadataEntry key="HKTimeZone" value="America/Los_Angeles"/>
          <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="2021-06-14 07:00:00 -0700" endDate="2021-06-14 07:30:00 -0700" average="150" minimum="95" maximum="175" unit="count/min"/>
         </Workout>
        </HealthData>
        """

    @Test func theRecordedMeanIsShownAndNoZonesAreMadeUp() throws {
        let (folder, store) = try CommandLine33.store(importing: Self.export, "workout-heart")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let list = try CommandLine33.run(["workouts", "--db", store, "--from", "2021-06-14", "--format", "json"])
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let run = try #require(try decoder.decode(WorkoutListAnswer.self, from: Data(list.out.utf8)).workouts.first)
        let page = try CommandLine33.run([
            "dashboard", "--db", store, "--home-tz", "America/Los_Angeles", "--print", "--workout",
            run.uuid.uuidString.lowercased(),
        ])
        #expect(page.status == 0, "\(page.err)")
        #expect(page.out.contains("<dt>Mean heart rate</dt><dd>150 bpm</dd>"), "\(page.out)")

        let span = DateInterval(start: run.start, end: run.end)
        #expect(WorkoutHeartRate(readings: [], span: span, maximum: 190).zones == nil)
        let one = WorkoutHeartRate(readings: [(run.start, 140)], span: span, maximum: 190)
        // One reading holds for at most 10 minutes (TimeWeightedMean.maximumGap).
        #expect(one.zones?.map(\.seconds).reduce(0, +) == 600)
    }
}

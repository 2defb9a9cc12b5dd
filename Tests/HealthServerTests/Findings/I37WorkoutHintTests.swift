import Foundation
import Testing

/// `healthpipe workouts` with nothing to list says where the workouts are: in the local days
/// the list itself uses (a probe found the hint in UTC days, so that a Los Angeles evening's
/// workout was said to be on the next day, where asking showed nothing), and a filter that
/// left out the range's workouts says so instead of "No workouts".
@Suite struct I37WorkoutHintTests {
    /// A run at 20:00 in Los Angeles on 24 February 2020 (04:00 UTC on the 25th), and a walk
    /// the next evening that ends after midnight (dated by its start, as the list does).
    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Watch" startDate="2020-02-24 20:00:00 -0800" endDate="2020-02-24 20:30:00 -0800">
          <MetadataEntry key="HKTimeZone" value="America/Los_Angeles"/>
         </Workout>
         <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="20" durationUnit="min" sourceName="Watch" startDate="2020-02-25 23:50:00 -0800" endDate="2020-02-26 00:10:00 -0800">
          <MetadataEntry key="HKTimeZone" value="America/Los_Angeles"/>
         </Workout>
        </HealthData>
        """

    @Test func theHintNamesTheLocalDaysTheListUses() throws {
        let (folder, store) = try CommandLine33.store(importing: Self.export, "workout-hint")
        defer { try? FileManager.default.removeItem(atPath: folder) }

        let empty = try CommandLine33.run(["workouts", "--db", store, "--from", "2022-01-01", "--to", "2022-01-07"])
        #expect(empty.status == 0 && empty.out.isEmpty)
        #expect(empty.err.contains("The store's workouts run from 2020-02-24 to 2020-02-25"), "\(empty.err)")
        // Following the hint lists them: the run on its first day.
        let first = try CommandLine33.run(["workouts", "--db", store, "--from", "2020-02-24", "--to", "2020-02-24"])
        #expect(first.out.contains("Running") && !first.out.contains("Walking"), "\(first.out)")

        let swims = try CommandLine33.run([
            "workouts", "--db", store, "--from", "2020-02-24", "--to", "2020-02-25", "--type", "swimming",
        ])
        #expect(swims.status == 0 && swims.out.isEmpty)
        #expect(
            swims.err.contains("No swimming workouts from 2020-02-24 through 2020-02-25; 2 other workouts"), "\(swims.err)")
        let strength = try CommandLine33.run([
            "workouts", "--db", store, "--from", "2020-02-24", "--to", "2020-02-25", "--type", "traditional_strength_training",
        ])
        #expect(strength.err.contains("No traditional strength training workouts from"), "\(strength.err)")
        let long = try CommandLine33.run([
            "workouts", "--db", store, "--from", "2020-02-24", "--to", "2020-02-25", "--min-minutes", "45",
        ])
        #expect(
            long.err.contains("No workouts of 45 minutes or more from 2020-02-24 through 2020-02-25; 2 other workouts"),
            "\(long.err)")
    }
}

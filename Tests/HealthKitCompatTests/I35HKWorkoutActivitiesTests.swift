import Foundation
import HealthCore
import HealthKitCompat
import HealthKitQuerying
import HealthSQLite
import Testing

/// Issue 35 §1–2: a multisport workout's activities (`WorkoutActivity`, iOS 16 and later)
/// modelled, given by `HKWorkout.workoutActivities` and its predicates, and back through
/// `HealthKitQuerying`; the workout predicates; the generated year's runs through HealthKit's
/// API equal to the store's.
@Suite struct I35HKWorkoutActivitiesTests {
    static let swimBikeRun = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_GB">
         <ExportDate value="2024-07-01 12:00:00 +0100"/>
         <Workout workoutActivityType="HKWorkoutActivityTypeSwimBikeRun" duration="95" durationUnit="min" \
        sourceName="Watch" sourceVersion="10.5" startDate="2024-06-30 08:00:00 +0100" endDate="2024-06-30 09:40:00 +0100">
          <MetadataEntry key="HKIndoorWorkout" value="0"/>
          <WorkoutEvent type="HKWorkoutEventTypePause" date="2024-06-30 08:30:00 +0100"/>
          <WorkoutEvent type="HKWorkoutEventTypeResume" date="2024-06-30 08:35:00 +0100"/>
          <WorkoutActivity uuid="6F9619FF-8B86-D011-B42D-00C04FC964FF" startDate="2024-06-30 08:00:00 +0100" \
        endDate="2024-06-30 08:30:00 +0100" duration="30" durationUnit="min">
           <MetadataEntry key="HKSwimmingLocationType" value="2"/>
           <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceSwimming" startDate="2024-06-30 08:00:00 +0100" \
        endDate="2024-06-30 08:30:00 +0100" sum="1500" unit="m"/>
          </WorkoutActivity>
          <WorkoutActivity uuid="1C5A7E1E-52B0-4F7A-9D0B-6B8E2E2E4C11" startDate="2024-06-30 08:35:00 +0100" \
        endDate="2024-06-30 09:40:00 +0100" duration="65" durationUnit="min">
           <WorkoutEvent type="HKWorkoutEventTypeLap" date="2024-06-30 09:00:00 +0100"/>
           <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="2024-06-30 08:35:00 +0100" \
        endDate="2024-06-30 09:40:00 +0100" average="142" minimum="98" maximum="171" unit="count/min"/>
          </WorkoutActivity>
          <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="2024-06-30 08:00:00 +0100" \
        endDate="2024-06-30 09:40:00 +0100" sum="812.5" unit="kcal"/>
         </Workout>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" \
        startDate="2024-06-30 08:40:00 +0100" endDate="2024-06-30 08:40:00 +0100" value="130"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Phone" unit="count/min" \
        startDate="2024-06-30 08:41:00 +0100" endDate="2024-06-30 08:41:00 +0100" value="131"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" \
        startDate="2024-06-30 09:39:00 +0100" endDate="2024-06-30 09:41:00 +0100" value="120"/>
        </HealthData>
        """

    static func triathlon() async throws -> (HealthDatabase, HKHealthStore, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hk-activities-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let export = folder.appendingPathComponent("export.xml")
        try Data(swimBikeRun.utf8).write(to: export)
        let (database, store, importFolder) = try await I35HKWorkoutTests.store(importing: export.path)
        try? FileManager.default.removeItem(at: folder)
        return (database, store, importFolder)
    }

    @Test func activitiesAreModelledFromWhatTheExportKept() async throws {
        let (database, _, folder) = try await Self.triathlon()
        defer { try? FileManager.default.removeItem(at: folder) }
        let workout = try #require(
            try await database.store.workouts(overlapping: DateInterval(start: .distantPast, end: .distantFuture)).first)
        let activities = workout.activities
        #expect(activities.count == 2)
        #expect(activities[0].uuid == UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF"))
        #expect(activities[0].start == ISO8601DateFormatter().date(from: "2024-06-30T07:00:00Z"))
        #expect(activities[0].durationSeconds == 1800 && activities[0].utcOffsetSeconds == 3600)
        #expect(activities[0].metadata == [MetadataEntry(key: "HKSwimmingLocationType", value: "2")])
        #expect(activities[0].statistics.first?.sum == 1500 && activities[0].statistics.first?.unit == "m")
        #expect(activities[1].events.map(\.type) == ["HKWorkoutEventTypeLap"])
        #expect(activities[1].statistics.first?.maximum == 171)
        // The modelled activity written back is the element the export wrote.
        for (index, activity) in activities.enumerated() {
            #expect(WorkoutActivity(element: activity.element) == activity)
            #expect(activity.element.attributes == workout.extras[index].attributes)
        }
    }

    @Test func hkWorkoutGivesItsActivitiesAndTheirPredicates() async throws {
        let (_, store, folder) = try await Self.triathlon()
        defer { try? FileManager.default.removeItem(at: folder) }
        let workout = try #require(try await I35HKWorkoutTests.samples(store, HKObjectType.workoutType()).first as? HKWorkout)
        #expect(workout.workoutActivityType == .swimBikeRun && workout.duration == 95 * 60)
        #expect(workout.workoutEvents?.map(\.type) == [.pause, .resume])
        #expect(workout.totalEnergyBurned?.doubleValue(for: .kilocalorie()) == 812.5)
        #expect(workout.totalDistance == nil)
        let swim = try #require(workout.workoutActivities.first)
        #expect(workout.workoutActivities.count == 2)
        #expect(swim.uuid == UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF") && swim.duration == 1800)
        #expect(swim.workoutConfiguration.activityType == .swimBikeRun)
        #expect(swim.statistics(for: HKQuantityType(.distanceSwimming))?.sumQuantity()?.doubleValue(for: .meter()) == 1500)
        let ride = workout.workoutActivities[1]
        #expect(ride.endDate == ISO8601DateFormatter().date(from: "2024-06-30T08:40:00Z"))
        #expect(ride.workoutEvents.map(\.type) == [.lap])
        let heart = try #require(ride.statistics(for: HKQuantityType(.heartRate)))
        #expect(heart.averageQuantity()?.doubleValue(for: HKUnit(from: "count/min")) == 142)
        #expect(heart.minimumQuantity()?.doubleValue(for: HKUnit(from: "count/min")) == 98)

        func count(_ predicate: NSPredicate) async throws -> Int {
            try await I35HKWorkoutTests.samples(store, HKObjectType.workoutType(), predicate).count
        }
        #expect(try await count(HKQuery.predicateForWorkouts(with: .greaterThan, duration: 94 * 60)) == 1)
        #expect(try await count(HKQuery.predicateForWorkouts(with: .lessThan, duration: 94 * 60)) == 0)
        #expect(
            try await count(
                HKQuery.predicateForWorkouts(
                    with: .greaterThanOrEqualTo, totalEnergyBurned: .init(unit: .kilocalorie(), doubleValue: 812.5))) == 1)
        let longLeg = HKQuery.predicateForWorkoutActivities(operatorType: .greaterThan, duration: 3600)
        #expect(try await count(HKQuery.predicateForWorkouts(activityPredicate: longLeg)) == 1)
        let veryLongLeg = HKQuery.predicateForWorkoutActivities(operatorType: .greaterThan, duration: 3901)
        #expect(try await count(HKQuery.predicateForWorkouts(activityPredicate: veryLongLeg)) == 0)
        let running = HKQuery.predicateForWorkoutActivities(workoutActivityType: .running)
        #expect(try await count(HKQuery.predicateForWorkouts(activityPredicate: running)) == 0)

        // The samples the workout recorded: its source's, within its span (the phone's reading
        // and the one ending after the workout are not).
        let recorded = try await I35HKWorkoutTests.samples(
            store, HKQuantityType(.heartRate), HKQuery.predicateForObjects(from: workout))
        #expect(recorded.map { ($0 as? HKQuantitySample)?.quantity.doubleValue(for: HKUnit(from: "count/min")) } == [130])
    }

    @Test func activitiesComeBackThroughHealthKitQuerying() async throws {
        let (database, store, folder) = try await Self.triathlon()
        defer { try? FileManager.default.removeItem(at: folder) }
        let everything = DateInterval(start: Date(timeIntervalSince1970: 1.7e9), duration: 1e8)
        let stored = try #require(try await database.store.workouts(overlapping: everything).first)
        let read = try #require(try await HealthKitQuerying(healthStore: store).workout(stored.uuid))
        I35HKWorkoutTests.expectSame(read, try #require(try await database.store.workout(stored.uuid)))
        #expect(read.activities.map(\.durationSeconds) == [1800, 3900])
        #expect(read.activities.map(\.start) == stored.activities.map(\.start))
        #expect(read.activities[1].statistics.first?.average == 142)
        #expect(read.activities[0].statistics.first?.sum == 1500)
    }

    /// The generated year's workouts: every one through HealthKit's API holds what the store
    /// holds — statistics, events, every route point.
    @Test func theGeneratedYearsWorkoutsThroughHealthKit() async throws {
        let fixture = try await GeneratedYear.shared.value
        let store = try await HKHealthStore.reading(fixture.database, [.workout, .heartRate])
        try await store.requestAuthorization(toShare: [], read: [HKSeriesType.workoutRoute()])
        let year = DateInterval(start: GeneratedYear.at("2023-12-01T00:00:00Z"), duration: 400 * 86400)
        let stored = try await fixture.database.store.workouts(overlapping: year)
        let health = HealthKitQuerying(healthStore: store)
        #expect(try await health.workouts(overlapping: year).map(\.uuid) == stored.map(\.uuid))
        var withRoutes = 0
        for header in stored {
            let full = try #require(try await fixture.database.store.workout(header.uuid))
            let read = try #require(try await health.workout(header.uuid))
            I35HKWorkoutTests.expectSame(read, full)
            if !full.routes.isEmpty { withRoutes += 1 }
        }
        #expect(stored.count > 100 && withRoutes > 100)
    }
}

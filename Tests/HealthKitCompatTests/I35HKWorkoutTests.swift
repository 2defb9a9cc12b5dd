import Foundation
import HealthCore
import HealthImport
import HealthKitCompat
import HealthKitQuerying
import HealthSQLite
import Testing

/// Issue 35 §2: a workout through HealthKit's API on Linux — `HKWorkout`'s duration, totals,
/// statistics, events and activities, its route as `HKWorkoutRoute` read with
/// `HKWorkoutRouteQuery`, the workout predicates — and `HealthKitQuerying` mapping all of it
/// back to the values the store holds.
@Suite struct I35HKWorkoutTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/apple-health")

    /// A store with `path` imported, and an `HKHealthStore` over it that may read workouts,
    /// routes and heart rate.
    static func store(importing path: String) async throws -> (HealthDatabase, HKHealthStore, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hk-workout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = try HealthDatabase(path: folder.appendingPathComponent("health.sqlite").path)
        _ = try await HealthImporter(database: database).run(path: path)
        let healthStore = HKHealthStore(store: database.store)
        try await healthStore.requestAuthorization(
            toShare: [],
            read: [HKObjectType.workoutType(), HKSeriesType.workoutRoute(), HKQuantityType(.heartRate)])
        return (database, healthStore, folder)
    }

    static func samples(
        _ store: HKHealthStore, _ type: HKSampleType, _ predicate: NSPredicate? = nil
    ) async throws -> [HKSample] {
        try await withCheckedThrowingContinuation { continuation in
            let query = HKSampleQuery(
                sampleType: type, predicate: predicate, limit: HKObjectQueryNoLimit,
                sortDescriptors: [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: true)]
            ) { _, samples, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: samples ?? []) }
            }
            store.execute(query)
        }
    }

    /// Every location of `route` and the number of batches they came in.
    static func locations(_ store: HKHealthStore, _ route: HKWorkoutRoute) async throws -> ([CLLocation], Int) {
        let collected = Locked(([CLLocation](), 0))
        return try await withCheckedThrowingContinuation { continuation in
            let query = HKWorkoutRouteQuery(route: route) { _, locations, done, error in
                if let error { return continuation.resume(throwing: error) }
                let result = collected.withLock { collected in
                    collected.0 += locations ?? []
                    collected.1 += 1
                    return collected
                }
                if done { continuation.resume(returning: result) }
            }
            store.execute(query)
        }
    }

    @Test func aRealExportsWalkThroughHKHealthStoreFieldForField() async throws {
        let (database, store, folder) = try await Self.store(
            importing: Self.fixtures.appendingPathComponent("jshrake-healthkit-to-sqlite/export.zip").path)
        defer { try? FileManager.default.removeItem(at: folder) }
        let workouts = try await Self.samples(store, HKObjectType.workoutType())
        let walk = try #require(workouts.first as? HKWorkout)
        #expect(workouts.count == 1)
        #expect(walk.workoutActivityType == .walking)
        // duration="34.18067507346471" durationUnit="min"
        #expect(walk.duration == 34.18067507346471 * 60)
        // Four segments: 09:44:00 for 16.7133048693339 min first.
        let events = try #require(walk.workoutEvents)
        #expect(events.map(\.type) == [.segment, .segment, .segment, .segment])
        #expect(events[0].dateInterval.start == ISO8601DateFormatter().date(from: "2020-02-24T17:44:00Z"))
        #expect(events[0].dateInterval.duration == 16.7133048693339 * 60)
        #expect(events[3].dateInterval.duration == 11.46114792823792 * 60)
        // Statistics in the units written: 134.432 Cal, 1.402 mi, 56.4005 Cal.
        let energy = try #require(walk.statistics(for: HKQuantityType(.activeEnergyBurned))?.sumQuantity())
        #expect(energy.doubleValue(for: .largeCalorie()) == 134.432)
        let distance = try #require(walk.statistics(for: HKQuantityType(.distanceWalkingRunning))?.sumQuantity())
        #expect(distance.doubleValue(for: .mile()) == 1.402)
        #expect(walk.allStatistics.count == 3)
        #expect(walk.statistics(for: HKQuantityType(.heartRate)) == nil)
        // No totals on the element: HealthKit's totals are the statistics' sums.
        #expect(walk.totalEnergyBurned?.doubleValue(for: .largeCalorie()) == 134.432)
        #expect(walk.totalDistance?.doubleValue(for: .mile()) == 1.402)
        #expect(walk.metadata?[HKMetadataKeyIndoorWorkout] as? String == "0")
        #expect(walk.workoutActivities.isEmpty)

        // The route: one, 644 points, as the GPX wrote them.
        let routes = try await Self.samples(store, HKSeriesType.workoutRoute(), HKQuery.predicateForObjects(from: walk))
        let route = try #require(routes.first as? HKWorkoutRoute)
        #expect(routes.count == 1 && route.count == 644)
        #expect(route.startDate == ISO8601DateFormatter().date(from: "2020-02-24T18:00:45Z"))
        #expect(route.metadata?["HKMetadataKeySyncVersion"] as? String == "2")
        let (locations, batches) = try await Self.locations(store, route)
        #expect(locations.count == 644 && batches == 2)
        // <trkpt lon="-118.232524" lat="34.045088"><ele>85.651855</ele><time>2020-02-24T18:00:45Z</time>
        // <speed>1.154731</speed><course>169.804688</course><hAcc>2.270945</hAcc><vAcc>1.579882</vAcc>
        let first = try #require(locations.first)
        #expect(first.coordinate.latitude == 34.045088 && first.coordinate.longitude == -118.232524)
        #expect(first.altitude == 85.651855 && first.speed == 1.154731 && first.course == 169.804688)
        #expect(first.horizontalAccuracy == 2.270945 && first.verticalAccuracy == 1.579882)
        #expect(first.timestamp == ISO8601DateFormatter().date(from: "2020-02-24T18:00:45Z"))
        // Every point as the store holds it.
        let stored = try #require(try await database.store.workout(walk.uuid))
        #expect(locations.map(HealthKitQuerying.point) == stored.routes[0].points)
    }

    @Test func healthKitQueryingGivesTheStoresWorkoutBack() async throws {
        let (database, store, folder) = try await Self.store(
            importing: Self.fixtures.appendingPathComponent("jshrake-healthkit-to-sqlite/export.zip").path)
        defer { try? FileManager.default.removeItem(at: folder) }
        let span = DateInterval(start: Date(timeIntervalSince1970: 1.5e9), duration: 1e8)
        let stored = try #require(try await database.store.workouts(overlapping: span).first)
        let health = HealthKitQuerying(healthStore: store)
        let read = try #require(try await health.workout(stored.uuid))
        let full = try #require(try await database.store.workout(stored.uuid))
        Self.expectSame(read, full)
        // The list gives the same workout without its route.
        let listed = try await health.workouts(overlapping: span)
        #expect(listed.map(\.uuid) == [stored.uuid] && listed[0].routes.isEmpty)
        #expect(try await health.workoutRoutes(overlapping: span, maxPoints: 10_000)[stored.uuid] == full.routes[0].points)
        let totals = try #require(try await health.workoutTotals(overlapping: span)[stored.uuid])
        #expect(totals.statistics.count == 3)
        // Found reviewing: the documented way — ask for `readTypes` — must cover the routes.
        let fresh = HKHealthStore(store: database.store)
        let reader = HealthKitQuerying(healthStore: fresh, types: [.workout])
        try await fresh.requestAuthorization(toShare: [], read: reader.readTypes)
        #expect(try await reader.workout(stored.uuid)?.routes.first?.points.count == 644)
    }

    /// `read` (through HealthKit, in HealthKit's units) holds what `stored` holds.
    static func expectSame(_ read: Workout, _ stored: Workout, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(read.uuid == stored.uuid && read.activityType == stored.activityType, sourceLocation: sourceLocation)
        #expect((read.start, read.end) == (stored.start, stored.end), sourceLocation: sourceLocation)
        #expect(abs(read.durationSeconds - stored.durationSeconds) < 1e-9, sourceLocation: sourceLocation)
        #expect(
            read.events.map { [$0.type, "\($0.date)", "\(Workout.seconds($0.duration, unit: $0.durationUnit) ?? 0)"] }
                == stored.events.map { [$0.type, "\($0.date)", "\(Workout.seconds($0.duration, unit: $0.durationUnit) ?? 0)"] },
            sourceLocation: sourceLocation)
        #expect(
            read.statistics.map(\.type).sorted() == stored.statistics.map(\.type).sorted(), sourceLocation: sourceLocation)
        for figure in stored.statistics {
            let back = read.statistics.first { $0.type == figure.type }
            func converted(_ value: Double?) -> Double? {
                guard let value, let from = figure.unit, let to = back?.unit else { return value }
                return HKQuantity(unit: HKUnit(from: from), doubleValue: value).doubleValue(for: HKUnit(from: to))
            }
            for (a, b) in [
                (back?.sum, converted(figure.sum)), (back?.average, converted(figure.average)),
                (back?.minimum, converted(figure.minimum)), (back?.maximum, converted(figure.maximum)),
            ] {
                #expect((a == nil) == (b == nil), sourceLocation: sourceLocation)
                if let a, let b { #expect(abs(a - b) <= 1e-9 * max(1, abs(b)), sourceLocation: sourceLocation) }
            }
        }
        #expect(read.routes.map(\.points) == stored.routes.map(\.points), sourceLocation: sourceLocation)
        #expect(read.activities.map(\.uuid) == stored.activities.map(\.uuid), sourceLocation: sourceLocation)
        let metadataKeys = Set(stored.metadata.map(\.key))
        #expect(Set(read.metadata.map(\.key)) == metadataKeys, sourceLocation: sourceLocation)
    }
}

import Foundation
import HealthCore
import HealthDaily
import HealthImport
import HealthPostgres
import HealthSQLite
import HealthTestSupport
import Testing

/// Issue 33 §4: a real export's workout shows what it recorded of itself — its
/// `WorkoutStatistics` (iOS 16 and later), else the totals on its element (older exports) —
/// not what the samples of its span add up to, and each figure says so.
@Suite struct WorkoutFixtureFiguresTests {
    static let everything = DateInterval(
        start: Date(timeIntervalSince1970: 946_684_800), end: Date(timeIntervalSince1970: 1_893_456_000))

    /// A fixture's one workout, as the dashboard and `get_workouts` summarise it.
    struct Expected: Sendable {
        var path: String
        var activity: String
        var energyKcal: Double?
        var distanceKm: Double?
        var heartRate: Double?
    }

    static let fixtures: [Expected] = [
        // iOS 16 (jshrake): WorkoutStatistics sum="134.432" unit="Cal" (ActiveEnergyBurned) and
        // sum="1.402" unit="mi" (DistanceWalkingRunning): 1.402 × 1.609344 = 2.256300288 km; no
        // heart-rate statistic and no heart-rate sample.
        Expected(
            path: "jshrake-healthkit-to-sqlite/export.zip", activity: "Walking", energyKcal: 134.432,
            distanceKm: 2.256300288, heartRate: nil),
        // Older export (dogsheep): totalEnergyBurned="48.74499999999999" kcal and
        // totalDistance="0.4971749504535062" mi (0.8001255234626474 km); its one heart-rate
        // sample is two years later.
        Expected(
            path: "dogsheep-healthkit-to-sqlite/export.xml", activity: "Running", energyKcal: 48.74499999999999,
            distanceKm: 0.8001255234626474, heartRate: nil),
        // Totals (300 kcal, 5.0 km) and a HeartRate statistic, average="150" (rinoshiyo); its two
        // heart-rate samples are two hours before it.
        Expected(
            path: "rinoshiyo-apple-health-mcp-server/sample_export.xml", activity: "Running", energyKcal: 300,
            distanceKm: 5, heartRate: 150),
        // totalEnergyBurned="139.3170000000021" kcal, totalDistance="0" km: a recorded zero is no
        // distance, and no distance sample falls in its span (tdda).
        Expected(
            path: "tdda-applehealthdata/export6s3sample.xml", activity: "Other", energyKcal: 139.3170000000021,
            distanceKm: nil, heartRate: nil),
    ]

    static func check(_ workouts: [WorkoutSummary], _ expected: Expected) {
        #expect(workouts.count == 1, "\(expected.path)")
        guard let workout = workouts.first else { return }
        #expect(workout.activity == expected.activity)
        #expect(workout.energyKcal == expected.energyKcal, "\(expected.path)")
        #expect(workout.distanceKm == expected.distanceKm, "\(expected.path)")
        #expect(workout.averageHeartRate == expected.heartRate, "\(expected.path)")
        // Each figure there is the workout's own.
        func recorded(_ figure: Double?) -> WorkoutSummary.FigureSource? { figure == nil ? nil : .workout }
        #expect(workout.energySource == recorded(expected.energyKcal), "\(expected.path)")
        #expect(workout.distanceSource == recorded(expected.distanceKm), "\(expected.path)")
        #expect(workout.heartRateSource == recorded(expected.heartRate), "\(expected.path)")
    }

    @Test(arguments: fixtures.indices)
    func i33_workout_aRealExportsWorkoutShowsItsOwnNumbers(_ index: Int) async throws {
        let expected = Self.fixtures[index]
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        try await Fixtures.importExport(Fixtures.path(expected.path), into: database)
        let workouts = try await WorkoutSummarizer(store: database.store).workouts(
            in: Self.everything, limit: 10, routePoints: 0)
        Self.check(workouts, expected)
    }

    @Test func i33_workout_recordedFiguresFirstSamplesForTheRest() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        try await Fixtures.importExport(Fixtures.path("jshrake-healthkit-to-sqlite/export.zip"), into: database)
        // The walk (17:44:00Z–18:18:11Z) recorded energy and distance, no heart rate: the Watch's
        // readings give it, 90 at 17:44:00 for 5 minutes and 150 at 17:49:00 for 10 of the
        // 29 min 11 s left (the cap): (90 × 300 + 150 × 600) / 900 = 130 (arithmetic: 120).
        // A sample of energy during the walk does not change the recorded 134.432 kcal.
        func reading(_ time: String, _ bpm: Double) -> Sample {
            let instant = ISO8601DateFormatter().date(from: time)!
            return Sample(
                type: .heartRate, start: instant, end: instant, value: .quantity(bpm, unit: "count/min"),
                source: Source(name: "Watch"))
        }
        try await database.store.add([
            reading("2020-02-24T17:44:00Z", 90), reading("2020-02-24T17:49:00Z", 150),
            Sample(
                type: .activeEnergyBurned, start: ISO8601DateFormatter().date(from: "2020-02-24T17:50:00Z")!,
                end: ISO8601DateFormatter().date(from: "2020-02-24T17:55:00Z")!, value: .quantity(53.8, unit: "kcal"),
                source: Source(name: "Watch")),
        ])
        let walk = try #require(
            try await WorkoutSummarizer(store: database.store).workouts(in: Self.everything, limit: 10, routePoints: 0).first)
        #expect(walk.energyKcal == 134.432 && walk.energySource == .workout)
        #expect(walk.distanceKm == 2.256300288 && walk.distanceSource == .workout)
        #expect(walk.averageHeartRate == 130 && walk.heartRateSource == .samples)

        // Issue 32 M1: a kind not granted is not shown, recorded by the workout or not.
        let withheld = try #require(
            try await WorkoutSummarizer(store: database.store, withheld: [.energy, .activity, .heart])
                .workouts(in: Self.everything, limit: 10, routePoints: 0).first)
        #expect(withheld.energyKcal == nil && withheld.distanceKm == nil && withheld.averageHeartRate == nil)
        #expect(withheld.energySource == nil && withheld.distanceSource == nil && withheld.heartRateSource == nil)
        let noHeart = try #require(
            try await WorkoutSummarizer(store: database.store, withheld: [.heart])
                .workouts(in: Self.everything, limit: 10, routePoints: 0).first)
        #expect(noHeart.energyKcal == 134.432 && noHeart.averageHeartRate == nil && noHeart.heartRateSource == nil)
    }
}

/// The same fixtures imported into PostgreSQL: the same recorded totals, the same figures.
@Suite(.enabled(if: PostgresTestDatabase.url != nil, "needs HEALTHPIPE_TEST_POSTGRES_URL"))
struct PostgresWorkoutFixtureFiguresTests {
    @Test func i33_workout_postgresReadsTheSameRecordedNumbers() async throws {
        let test = try await PostgresTestDatabase.make("workouts")
        for (index, expected) in WorkoutFixtureFiguresTests.fixtures.enumerated() {
            let store = test.database.store(for: "fixture-\(index)")
            _ = try await HealthImporter(store: store).run(path: Fixtures.path(expected.path))
            let workouts = try await WorkoutSummarizer(store: store).workouts(
                in: WorkoutFixtureFiguresTests.everything, limit: 10, routePoints: 0)
            WorkoutFixtureFiguresTests.check(workouts, expected)

            let folder = try Fixtures.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let database = try Fixtures.database(in: folder)
            try await Fixtures.importExport(Fixtures.path(expected.path), into: database)
            let sqlite = try await database.store.workoutTotals(overlapping: WorkoutFixtureFiguresTests.everything)
            #expect(try await store.workoutTotals(overlapping: WorkoutFixtureFiguresTests.everything) == sqlite)
            #expect(sqlite.count == 1, "\(expected.path)")
        }
        await test.close()
    }
}

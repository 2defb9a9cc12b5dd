import Foundation
import HealthCore
import HealthDaily
import Testing

/// Issue 33 §4: a workout that recorded nothing of itself (as one written through
/// `POST /v1/samples`) gets its figures from the samples of its span, heart rate weighted by
/// time, and each says so; a kind withheld is not read.
@Suite struct WorkoutFiguresTests {
    static let day = DateInterval(start: Build.at("2024-06-01T00:00:00Z"), duration: 86400)

    /// A run 07:00–07:45 and what the Watch recorded: 510 kcal and 8,230 m over it, heart
    /// rate 120 at 07:00, 150 at 07:10 and 170 at 07:40 (and 60 at 06:50, before it).
    static func store() -> InMemoryHealthStore {
        let watch = Source(name: "Apple Watch")
        let (start, end) = (Build.at("2024-06-01T07:00:00Z"), Build.at("2024-06-01T07:45:00Z"))
        return InMemoryHealthStore(samples: [
            Sample(
                type: .workout, start: start, end: end, value: .category("HKWorkoutActivityTypeRunning"), source: watch,
                device: Build.watch),
            Build.energy("2024-06-01T07:00:00Z", "2024-06-01T07:45:00Z", 510, unit: "kcal", device: Build.watch),
            Sample(
                type: .distanceWalkingRunning, start: start, end: end, value: .quantity(8230, unit: "m"), source: watch,
                device: Build.watch),
            Build.quantity(.heartRate, "2024-06-01T06:50:00Z", 60, unit: "count/min"),
            Build.quantity(.heartRate, "2024-06-01T07:00:00Z", 120, unit: "count/min"),
            Build.quantity(.heartRate, "2024-06-01T07:10:00Z", 150, unit: "count/min"),
            Build.quantity(.heartRate, "2024-06-01T07:40:00Z", 170, unit: "count/min"),
        ])
    }

    @Test func i33_workout_fromSamplesWhenItRecordedNoneHeartRateByTime() async throws {
        let workouts = try await WorkoutSummarizer(store: Self.store()).workouts(in: Self.day, limit: 10, routePoints: 0)
        #expect(workouts.count == 1)
        let run = try #require(workouts.first)
        #expect(run.activity == "Running")
        #expect(run.energyKcal == 510 && run.energySource == .samples)
        #expect(run.distanceKm == 8.23 && run.distanceSource == .samples)
        // 120 for 10 minutes, 150 for 10 of the 30 until the next reading (the cap), 170 for
        // the last 5: (120 × 600 + 150 × 600 + 170 × 300) / 1500 = 142 (arithmetic: 146.7).
        #expect(run.averageHeartRate == 142 && run.heartRateSource == .samples)
    }

    @Test func i33_workout_aWithheldKindIsNeitherShownNorSourced() async throws {
        let workouts = try await WorkoutSummarizer(store: Self.store(), withheld: [.heart, .activity])
            .workouts(in: Self.day, limit: 10, routePoints: 0)
        let run = try #require(workouts.first)
        #expect(run.energyKcal == 510 && run.energySource == .samples)
        #expect(run.distanceKm == nil && run.distanceSource == nil)
        #expect(run.averageHeartRate == nil && run.heartRateSource == nil)
    }
}

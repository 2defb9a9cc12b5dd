import Foundation
import HealthCore
import HealthKitCompat
import Testing

/// Issue 33 §4: `discreteAverage` of a `discreteTemporallyWeighted` type (heart rate) weights
/// each value by the time until the next, as HealthKit does (``TimeWeightedMean``); other
/// discrete types keep the arithmetic mean.
@Suite struct TimeWeightedAverageTests {
    static let t0 = Date(timeIntervalSince1970: 1_717_225_200)  // 2024-06-01T07:00:00Z
    static let bpm = HKUnit.count().unitDivided(by: .minute())

    static func healthStore() async throws -> HKHealthStore {
        func reading(_ type: SampleType, _ seconds: Double, _ value: Double) -> Sample {
            let instant = t0.addingTimeInterval(seconds)
            return Sample(
                type: type, start: instant, end: instant, value: .quantity(value, unit: "count/min"),
                source: Source(name: "Watch"))
        }
        let memory = InMemoryHealthStore(samples: [
            reading(.heartRate, 0, 60), reading(.heartRate, 60, 90),
            reading(.restingHeartRate, 0, 50), reading(.restingHeartRate, 60, 62),
        ])
        let store = HKHealthStore(store: memory)
        try await store.requestAuthorization(
            toShare: [], read: [HKQuantityType(.heartRate), HKQuantityType(.restingHeartRate)])
        return store
    }

    /// The statistics of `identifier` over the first 3 minutes.
    static func statistics(
        _ identifier: HKQuantityTypeIdentifier, _ healthStore: HKHealthStore
    ) async throws -> HKStatistics {
        let predicate = HKQuery.predicateForSamples(withStart: t0, end: t0.addingTimeInterval(180))
        return try await withCheckedThrowingContinuation { continuation in
            let query = HKStatisticsQuery(
                quantityType: HKQuantityType(identifier), quantitySamplePredicate: predicate,
                options: [.discreteAverage, .separateBySource]
            ) { _, statistics, error in
                if let statistics { continuation.resume(returning: statistics) } else { continuation.resume(throwing: error!) }
            }
            healthStore.execute(query)
        }
    }

    @Test func i33_workout_heartRateIsAveragedByTimeOtherTypesArithmetically() async throws {
        let healthStore = try await Self.healthStore()
        // Heart rate: 60 for 60 s, 90 for the 120 s left: (60 × 60 + 90 × 120) / 180 = 80 (arithmetic: 75).
        let heart = try await Self.statistics(.heartRate, healthStore)
        #expect(heart.averageQuantity()?.doubleValue(for: Self.bpm) == 80)
        let watch = try #require(heart.sources?.first)
        #expect(heart.averageQuantity(for: watch)?.doubleValue(for: Self.bpm) == 80)
        // Resting heart rate is `discreteArithmetic`: (50 + 62) / 2 = 56 (by time it would be 58).
        let resting = try await Self.statistics(.restingHeartRate, healthStore)
        #expect(resting.averageQuantity()?.doubleValue(for: Self.bpm) == 56)
    }
}

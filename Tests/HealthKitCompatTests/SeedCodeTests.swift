import Foundation
import HealthCore
import HealthKitCompat
import Testing

/// The HealthKit code the seeds show, written as an iOS developer would, run against a
/// small hand-built store whose answers are computed by hand.
@Suite struct SeedCodeTests {
    static let watch = Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardware: "Watch6,1")
    static let phone = Device(name: "iPhone", manufacturer: "Apple Inc.", model: "iPhone", hardware: "iPhone14,2")
    static let t0 = ISO8601DateFormatter().date(from: "2024-03-05T00:00:00Z")!

    static func at(_ hours: Double) -> Date { t0.addingTimeInterval(hours * 3600) }

    static func healthStore() async throws -> HKHealthStore {
        func sleep(_ from: Double, _ to: Double, _ stage: String) -> Sample {
            Sample(
                type: .sleepAnalysis, start: at(from), end: at(to), value: .category("HKCategoryValueSleepAnalysis\(stage)"),
                source: Source(name: "Watch"), device: watch)
        }
        func quantity(
            _ type: SampleType, _ from: Double, _ to: Double, _ value: Double, _ unit: String, _ device: Device
        )
            -> Sample
        {
            Sample(
                type: type, start: at(from), end: at(to), value: .quantity(value, unit: unit),
                source: Source(name: device == watch ? "Watch" : "Phone"), device: device)
        }
        let memory = InMemoryHealthStore(samples: [
            // Night of 4–5 March: in bed 22:30–06:30, asleep core 23:00–02:00, deep 02:00–03:00,
            // awake 03:00–03:20, REM 03:20–06:00.
            sleep(-1.5, 6.5, "InBed"), sleep(-1, 2, "AsleepCore"), sleep(2, 3, "AsleepDeep"), sleep(3, 3 + 1 / 3.0, "Awake"),
            sleep(3 + 1 / 3.0, 6, "AsleepREM"),
            quantity(.restingHeartRate, 6, 6, 58, "count/min", watch),
            quantity(.restingHeartRate, 30, 30, 55, "count/min", watch),
            quantity(.heartRateVariabilitySDNN, 5, 5, 41.5, "ms", watch),
            // Steps on 5 March: Watch 1,000 at 09:00–10:00; iPhone 600 at 09:30–10:30 (half under
            // the Watch's hour); iPhone 200 at 23:30–00:30 (half of it the next day).
            quantity(.stepCount, 9, 10, 1000, "count", watch), quantity(.stepCount, 9.5, 10.5, 600, "count", phone),
            quantity(.stepCount, 23.5, 24.5, 200, "count", phone),
        ])
        let store = HKHealthStore(store: memory)
        try await store.requestAuthorization(
            toShare: [],
            read: [
                HKObjectType.categoryType(forIdentifier: .sleepAnalysis)!,
                HKObjectType.quantityType(forIdentifier: .restingHeartRate)!,
                HKObjectType.quantityType(forIdentifier: .heartRateVariabilitySDNN)!,
                HKObjectType.quantityType(forIdentifier: .stepCount)!,
            ])
        return store
    }

    /// AirFit: last night's sleep, summed from the asleep stages.
    @Test func airFitLastNightSleep() async throws {
        let healthStore = try await Self.healthStore()
        let sleepType = HKObjectType.categoryType(forIdentifier: .sleepAnalysis)!
        let sortDescriptor = NSSortDescriptor(key: HKSampleSortIdentifierEndDate, ascending: false)
        let predicate = HKQuery.predicateForSamples(withStart: Self.at(-6), end: Self.at(12), options: .strictStartDate)
        let asleep: TimeInterval = try await withCheckedThrowingContinuation { continuation in
            let query = HKSampleQuery(
                sampleType: sleepType, predicate: predicate, limit: HKObjectQueryNoLimit, sortDescriptors: [sortDescriptor]
            ) { _, samples, error in
                guard let sleepSamples = samples as? [HKCategorySample] else {
                    continuation.resume(throwing: error!)
                    return
                }
                var total: TimeInterval = 0
                for sample in sleepSamples
                where HKCategoryValueSleepAnalysis.allAsleepValues.contains(HKCategoryValueSleepAnalysis(rawValue: sample.value)!)
                {
                    total += sample.endDate.timeIntervalSince(sample.startDate)
                }
                continuation.resume(returning: total)
            }
            healthStore.execute(query)
        }
        // 3 h core + 1 h deep + 2 h 40 min REM.
        #expect(asleep == 6 * 3600 + 40 * 60)
    }

    /// AirFit: the latest resting heart rate and HRV, by end date, limit 1.
    @Test func airFitLatestRestingHeartRateAndHRV() async throws {
        let healthStore = try await Self.healthStore()
        func latest(_ identifier: HKQuantityTypeIdentifier, _ unit: HKUnit, before end: Date) async throws -> Double? {
            let type = HKQuantityType.quantityType(forIdentifier: identifier)!
            let descriptor = HKSampleQueryDescriptor(
                predicates: [.quantitySample(type: type, predicate: HKQuery.predicateForSamples(withStart: nil, end: end))],
                sortDescriptors: [SortDescriptor(\.endDate, order: .reverse)], limit: 1)
            return try await descriptor.result(for: healthStore).first?.quantity.doubleValue(for: unit)
        }
        let bpm = HKUnit.count().unitDivided(by: .minute())
        #expect(try await latest(.restingHeartRate, bpm, before: Self.at(12)) == 58)
        #expect(try await latest(.restingHeartRate, bpm, before: Self.at(48)) == 55)
        #expect(try await latest(.heartRateVariabilitySDNN, .secondUnit(with: .milli), before: Self.at(48)) == 41.5)
    }

    /// AirFit: today's steps by a statistics query (sources merged as HealthKit merges them).
    @Test func airFitTodaysStepsAndTheDailyCollection() async throws {
        let healthStore = try await Self.healthStore()
        let stepType = HKQuantityType.quantityType(forIdentifier: .stepCount)!
        let today = HKQuery.predicateForSamples(withStart: Self.at(0), end: Self.at(24), options: .strictStartDate)
        let steps: Double = try await withCheckedThrowingContinuation { continuation in
            let query = HKStatisticsQuery(quantityType: stepType, quantitySamplePredicate: today, options: .cumulativeSum) {
                _, result, error in
                if let sum = result?.sumQuantity() {
                    continuation.resume(returning: sum.doubleValue(for: .count()))
                } else {
                    continuation.resume(throwing: error!)
                }
            }
            healthStore.execute(query)
        }
        // Watch 1,000; the phone's 09:30–10:30 counts only for 10:00–10:30 (300); the late
        // phone sample counts its half before midnight (100).
        #expect(steps == 1400)
        let collection = try await HKStatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: stepType), options: [.cumulativeSum, .separateBySource],
            anchorDate: Self.at(0), intervalComponents: DateComponents(day: 1)
        ).result(for: healthStore)
        var days: [Double?] = []
        collection.enumerateStatistics(from: Self.at(0), to: Self.at(47)) { statistics, _ in
            days.append(statistics.sumQuantity()?.doubleValue(for: .count()))
        }
        #expect(days == [1400, 100])
        let phone = collection.statistics(for: Self.at(5))!.sources!.first { $0.name == "Phone" }!
        #expect(collection.statistics(for: Self.at(5))?.sumQuantity(for: phone)?.doubleValue(for: .count()) == 700)
    }

    /// Health Tracker: the anchored fetch, then a deletion seen through the saved anchor.
    @Test func healthTrackerAnchoredFetch() async throws {
        let healthStore = try await Self.healthStore()
        let stepType = HKQuantityType(.stepCount)
        func fetchNewSamples(since anchor: HKQueryAnchor?) async throws -> ([HKSample], [HKDeletedObject], HKQueryAnchor) {
            try await withCheckedThrowingContinuation { continuation in
                let query = HKAnchoredObjectQuery(type: stepType, predicate: nil, anchor: anchor, limit: HKObjectQueryNoLimit) {
                    _, samples, deleted, newAnchor, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: (samples ?? [], deleted ?? [], newAnchor!))
                    }
                }
                healthStore.execute(query)
            }
        }
        let (first, deletedFirst, anchor) = try await fetchNewSamples(since: nil)
        #expect(first.count == 3 && deletedFirst.isEmpty)
        let (again, _, same) = try await fetchNewSamples(since: anchor)
        #expect(again.isEmpty && same == anchor)
        try await healthStore.requestAuthorization(toShare: [stepType], read: [])
        try await healthStore.delete(first[0])
        let (_, deleted, _) = try await fetchNewSamples(since: anchor)
        #expect(deleted.map(\.uuid) == [first[0].uuid])
    }
}

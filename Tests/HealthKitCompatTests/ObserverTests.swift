import Foundation
import HealthCore
import HealthKitCompat
import HealthSQLite
import Testing

/// Observer and update handlers fired by writes, as an app sees them: one `HKHealthStore`
/// observes, another on the same file writes. Each opens the file itself, so the writer's
/// commits reach the observer the way another process's would (the store's commit watcher),
/// not through a shared in-process notice.
@Suite struct ObserverTests {
    static let steps = HKQuantityType(.stepCount)
    static let heartRate = HKQuantityType(.heartRate)
    static let day = ISO8601DateFormatter().date(from: "2024-06-03T00:00:00Z")!

    /// An empty store file, an observing store granted reading, a writing store granted sharing.
    static func stores() async throws -> (observer: HKHealthStore, writer: HKHealthStore) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("healthkit-observer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("health.sqlite")
        _ = try HealthDatabase(path: file.path)
        let observer = try HKHealthStore(contentsOf: file)
        let writer = try HKHealthStore(contentsOf: file)
        try await observer.requestAuthorization(toShare: [], read: [steps, heartRate])
        try await writer.requestAuthorization(toShare: [steps, heartRate], read: [])
        return (observer, writer)
    }

    static func steps(_ count: Double, hour: Double) -> HKQuantitySample {
        HKQuantitySample(
            type: steps, quantity: HKQuantity(unit: .count(), doubleValue: count),
            start: day.addingTimeInterval(hour * 3600), end: day.addingTimeInterval(hour * 3600 + 600))
    }

    @Test func observerQueryFiresAtStartAndOnEachWriteOfItsTypeOnly() async throws {
        let (observer, writer) = try await Self.stores()
        let stepFires = Fires()
        let heartRateFires = Fires()
        let stepQuery = HKObserverQuery(sampleType: Self.steps, predicate: nil) { _, completionHandler, error in
            stepFires.record(error)
            completionHandler()
        }
        let heartRateQuery = HKObserverQuery(sampleType: Self.heartRate, predicate: nil) { _, completionHandler, error in
            heartRateFires.record(error)
            completionHandler()
        }
        observer.execute(stepQuery)
        observer.execute(heartRateQuery)
        defer {
            observer.stop(stepQuery)
            observer.stop(heartRateQuery)
        }
        // HealthKit runs the handler once when the query starts.
        try await stepFires.wait(for: 1)
        try await heartRateFires.wait(for: 1)

        // A heart-rate write fires the heart-rate observer, not the steps one.
        try await writer.save(
            HKQuantitySample(
                type: Self.heartRate, quantity: HKQuantity(unit: .count().unitDivided(by: .minute()), doubleValue: 61),
                start: Self.day, end: Self.day))
        try await heartRateFires.wait(for: 2)
        try await Task.sleep(for: .milliseconds(300))
        #expect(stepFires.count == 1)

        // A steps write fires the steps observer, and the sample is there when it does.
        try await writer.save(Self.steps(420, hour: 9))
        try await stepFires.wait(for: 2)
        #expect(stepFires.errors == 0 && heartRateFires.errors == 0)
        let found = try await HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: Self.steps)], sortDescriptors: [SortDescriptor(\.startDate)]
        ).result(for: observer)
        #expect(found.map { $0.quantity.doubleValue(for: .count()) } == [420])

        // Stopped, it fires no more.
        observer.stop(stepQuery)
        try await writer.save(Self.steps(10, hour: 10))
        try await Task.sleep(for: .milliseconds(300))
        #expect(stepFires.count == 2)
    }

    @Test func statisticsCollectionUpdateHandlerSeesEachWrite() async throws {
        let (observer, writer) = try await Self.stores()
        try await writer.save(Self.steps(1000, hour: 8))
        let initial = Locked<[Double?]>([])
        let updates = Locked<[Double?]>([])
        let fires = Fires()
        let query = HKStatisticsCollectionQuery(
            quantityType: Self.steps, quantitySamplePredicate: nil, options: .cumulativeSum, anchorDate: Self.day,
            intervalComponents: DateComponents(day: 1))
        query.initialResultsHandler = { _, collection, error in
            initial.withLock { $0.append(collection?.statistics(for: Self.day)?.sumQuantity()?.doubleValue(for: .count())) }
            fires.record(error)
        }
        query.statisticsUpdateHandler = { _, statistics, collection, error in
            updates.withLock { $0.append(collection?.statistics(for: Self.day)?.sumQuantity()?.doubleValue(for: .count())) }
            // The statistics handed over are those of the last bucket with data: this day.
            #expect(statistics?.startDate == Self.day)
            fires.record(error)
        }
        observer.execute(query)
        defer { observer.stop(query) }
        try await fires.wait(for: 1)
        #expect(initial.withLock { $0 } == [1000])

        try await writer.save(Self.steps(250, hour: 12))
        try await fires.wait(for: 2)
        #expect(updates.withLock { $0 } == [1250])
        try await writer.save(Self.steps(50, hour: 13))
        try await fires.wait(for: 3)
        #expect(updates.withLock { $0 } == [1250, 1300])
        #expect(fires.errors == 0)
    }
}

/// Counts a handler's calls; `wait(for:)` waits until there have been `n` (at most 60 s: the whole suite shares two cores).
final class Fires: Sendable {
    private let state = Locked((count: 0, errors: 0))

    func record(_ error: (any Error)?) {
        state.withLock {
            $0.count += 1
            if error != nil { $0.errors += 1 }
        }
    }

    var count: Int { state.withLock { $0.count } }
    var errors: Int { state.withLock { $0.errors } }

    func wait(for calls: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while count < calls {
            guard ContinuousClock.now < deadline else {
                Issue.record("the handler ran \(count) times in 60 s, not \(calls)")
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

import Foundation
import HealthCore
import HealthSQLite
import PropertyBased
import Testing

/// Issue 37 §5: the query cache of seed 003 §5 over any `HealthQuerying` — expiry,
/// per-type throttling, statistics, persistence, and invalidation by the store's change
/// notices (this process's commits and another process's), so that an answer never lags
/// the store.
@Suite struct I37QueryCacheTests {
    static let t0 = Date(timeIntervalSince1970: 1_720_000_000)
    static let day = DateInterval(start: t0, duration: 86_400)

    /// A clock the tests move by hand.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var current = I37QueryCacheTests.t0
        var now: Date { lock.withLock { current } }
        func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
    }

    static func heartRate(_ minute: Int, _ bpm: Double) -> Sample {
        let start = t0.addingTimeInterval(Double(minute) * 60)
        return Sample(
            type: .heartRate, start: start, end: start, value: .quantity(bpm, unit: "count/min"), source: Source(name: "Watch"))
    }

    static func steps(_ minute: Int, _ count: Double) -> Sample {
        let start = t0.addingTimeInterval(Double(minute) * 60)
        return Sample(
            type: .stepCount, start: start, end: start + 60, value: .quantity(count, unit: "count"), source: Source(name: "Phone")
        )
    }

    @Test func i37_answersExpireAndTheStatisticsCountThem() async throws {
        let store = InMemoryHealthStore(samples: [Self.heartRate(1, 60), Self.heartRate(2, 62)])
        let clock = Clock()
        let cache = CachingHealthQuerying(store: store, configuration: .realtime, clock: { clock.now })
        #expect(try await cache.samples(of: .heartRate, overlapping: Self.day).count == 2)
        clock.advance(29)
        #expect(try await cache.samples(of: .heartRate, overlapping: Self.day).count == 2)
        #expect(cache.statistics.hits == 1 && cache.statistics.misses == 1)
        clock.advance(2)  // 31 s: expired, and the 10 s throttle long over: asked again.
        #expect(try await cache.samples(of: .heartRate, overlapping: Self.day).count == 2)
        #expect(cache.statistics.misses == 2 && cache.statistics.hitRate == 1.0 / 3)
    }

    @Test func i37_aThrottledTypeGetsItsExpiredAnswerOrRateLimited() async throws {
        let store = InMemoryHealthStore(samples: [Self.heartRate(1, 60)])
        let clock = Clock()
        let cache = CachingHealthQuerying(
            store: store, configuration: .init(cacheDuration: 5, throttleInterval: 60), clock: { clock.now })
        let morning = DateInterval(start: Self.t0, duration: 3600)
        _ = try await cache.samples(of: .heartRate, overlapping: Self.day)
        clock.advance(10)
        // Expired, but heart rate was fetched 10 s ago and has not changed: served as kept.
        #expect(try await cache.samples(of: .heartRate, overlapping: Self.day).count == 1)
        #expect(cache.statistics.throttledHits == 1)
        // A question with no answer kept is refused until the throttle is over …
        await #expect(throws: HealthQueryCacheError.rateLimited(type: .heartRate, retryAfter: 50)) {
            try await cache.samples(of: .heartRate, overlapping: morning)
        }
        // … for heart rate only: steps are another metric.
        _ = try await cache.samples(of: .stepCount, overlapping: morning)
        clock.advance(51)
        #expect(try await cache.samples(of: .heartRate, overlapping: morning).count == 1)
        #expect(cache.statistics.rateLimited == 1 && cache.statistics.misses == 3)
    }

    @Test func i37_aCommitInvalidatesItsTypeAtOnceAndEndsItsThrottle() async throws {
        let store = InMemoryHealthStore(samples: [Self.heartRate(1, 60), Self.steps(1, 100)])
        let clock = Clock()
        let cache = CachingHealthQuerying(store: store, configuration: .aggressive, clock: { clock.now })
        let unit = try HealthUnit(parsing: "count")
        #expect(try await cache.statistics(of: .stepCount, over: Self.day, unit: unit).sum == 100)
        _ = try await cache.samples(of: .heartRate, overlapping: Self.day)
        _ = try await store.add([Self.steps(5, 40)])
        // No time passed: the throttle would refuse, the commit ended it.
        #expect(try await cache.statistics(of: .stepCount, over: Self.day, unit: unit).sum == 140)
        #expect(try await cache.samples(of: .heartRate, overlapping: Self.day).count == 1)
        #expect(cache.statistics.invalidated == 1 && cache.statistics.hits == 1 && cache.statistics.misses == 3)
    }

    @Test func i37_aCommitInAnotherProcessInvalidatesToo() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let reader = try HealthDatabase(path: path)
        let writer = try HealthDatabase(path: path)
        _ = try await writer.store.add([Self.heartRate(1, 60)])
        let cache = CachingHealthQuerying(reader.store, configuration: .aggressive, notices: reader.observe(nil))
        #expect(try await cache.samples(of: .heartRate, overlapping: Self.day).count == 1)
        _ = try await writer.store.add([Self.heartRate(2, 70)])
        // The other database's commit reaches the reader's watcher within its poll interval.
        var seen = 1
        for _ in 0..<100 where seen == 1 {
            try await Task.sleep(for: .milliseconds(20))
            seen = try await cache.samples(of: .heartRate, overlapping: Self.day).count
        }
        #expect(seen == 2 && cache.statistics.invalidated == 1)
    }

    @Test func i37_savedAnswersComeBackOnlyForTheSameStore() async throws {
        let store = InMemoryHealthStore(samples: [Self.heartRate(1, 60)])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let clock = Clock()
        let first = CachingHealthQuerying(store: store, persistent: true, clock: { clock.now })
        _ = try await first.samples(of: .heartRate, overlapping: Self.day)
        _ = try await first.samples(of: .stepCount, overlapping: Self.day)
        // Steps change after their answer was fetched (the notice not yet looked at): that
        // answer is not the store's at the anchor saved with it, and is not saved.
        _ = try await store.add([Self.steps(4, 10)])
        try await first.save(to: file)
        let second = CachingHealthQuerying(store: store, clock: { clock.now })
        #expect(try await second.restore(from: file) == 0, "the store changed after the heart-rate answer too")
        first.removeAll()
        clock.advance(61)  // past heart rate's throttle
        _ = try await first.samples(of: .heartRate, overlapping: Self.day)
        try await first.save(to: file)
        #expect(try await second.restore(from: file) == 1)
        #expect(try await second.samples(of: .heartRate, overlapping: Self.day).count == 1)
        #expect(second.statistics.hits == 1 && second.statistics.misses == 0)
        _ = try await store.add([Self.heartRate(3, 65)])
        let third = CachingHealthQuerying(store: store, persistent: true, clock: { clock.now })
        #expect(try await third.restore(from: file) == 0)
    }

    @Test func i37_theRecommendedConfigurationFollowsTheBattery() {
        #expect(HealthQueryCacheConfiguration.recommendedConfiguration(batteryLevel: 0.9, isLowPowerMode: false) == .standard)
        #expect(HealthQueryCacheConfiguration.recommendedConfiguration(batteryLevel: 0.9, isLowPowerMode: true) == .aggressive)
        #expect(HealthQueryCacheConfiguration.recommendedConfiguration(batteryLevel: 0.15, isLowPowerMode: false) == .aggressive)
        #expect(HealthQueryCacheConfiguration.recommendedConfiguration(batteryLevel: -1, isLowPowerMode: false) == .standard)
        #expect(HealthQueryCacheConfiguration.realtime == .init(cacheDuration: 30, throttleInterval: 10))
        #expect(HealthQueryCacheConfiguration.aggressive == .init(cacheDuration: 900, throttleInterval: 180))
    }

    /// Any sequence of writes, deletions, questions and waits: whatever the cache answers
    /// equals what the store answers at that moment.
    @Test func i37_aCachedAnswerEqualsTheStoresAfterAnyWrites() async throws {
        // Few questions (4 starts × 3 lengths × 2 types) and short waits, so answers are kept,
        // served again, expire and get throttled between the writes.
        let operation = zip(Gen.int(in: 0...5), Gen.int(in: 0...47), Gen.int(in: 1...48), Gen.int(in: 0...400))
        let served = Locked(0)
        await propertyCheck(count: 300, input: operation.array(of: 1...40)) { steps in
            let store = InMemoryHealthStore()
            let clock = Clock()
            let cache = CachingHealthQuerying(store: store, configuration: .realtime, clock: { clock.now })
            let unit = try HealthUnit(parsing: "count")
            var answered = 0
            for (kind, a, b, wait) in steps {
                let interval = DateInterval(
                    start: Self.t0.addingTimeInterval(Double(a % 4) * 21_600), duration: Double(b % 3 + 1) * 21_600)
                let type: SampleType = a % 2 == 0 ? .heartRate : .stepCount
                switch kind {
                case 0: _ = try await store.add([Self.heartRate(a * 30 + b, Double(50 + wait % 60))])
                case 1: _ = try await store.add([Self.steps(a * 30 + b, Double(wait))])
                case 2: _ = await store.delete(type, overlapping: interval, source: nil)
                case 3, 4:
                    if let cached = try? await cache.samples(of: type, overlapping: interval) {
                        answered += 1
                        #expect(cached == (await store.samples(of: type, overlapping: interval)))
                    }
                default:
                    if let cached = try? await cache.statistics(of: .stepCount, over: interval, unit: unit) {
                        answered += 1
                        #expect(cached == (try await store.statistics(of: .stepCount, over: interval, unit: unit)))
                    }
                }
                clock.advance(Double(wait) / 20)
            }
            let statistics = cache.statistics
            served.withLock { $0 += statistics.hits + statistics.throttledHits }
            _ = answered
        }
        // The property says something only if the cache did answer from what it kept.
        #expect(served.withLock { $0 } > 50)
    }
}

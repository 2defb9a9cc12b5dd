import Foundation
import HealthCore
import HealthMetrics
import HealthSQLite
import PropertyBased
import Testing

@testable import HealthDaily

/// A day's metrics must not depend on the range it was asked in (issue 14, defect 1). The
/// samples here sit on a 15-minute grid around local midnights, a third of them
/// instantaneous (Health Auto Export points with only a `date`), so many start exactly at a
/// day's first instant — the case the SQLite store used to drop when that day opened the
/// range.
@Suite struct RangeIndependenceTests {
    static let zone = Build.la
    /// 2024-03-08 … 2024-03-12 in Los Angeles, across the spring-forward of 2024-03-10.
    static let days = (0..<5).map { Build.day("2024-03-08").adding(days: $0) }
    static let origin = Build.at("2024-03-08T00:00:00-08:00")

    /// One generated sample: a grid slot from the origin, a duration, a kind, a device.
    struct Spec: Sendable, CustomStringConvertible {
        var slot: Int
        var minutes: Int
        var kind: Int
        var device: Int
        var value: Int

        var description: String { "slot \(slot) +\(minutes)min kind \(kind) device \(device) value \(value)" }

        var sample: Sample {
            let start = RangeIndependenceTests.origin.addingTimeInterval(Double(slot) * 900)
            let end = start.addingTimeInterval(Double(minutes) * 60)
            let device = [Build.watch, Build.phone, nil][device]
            let source = Source(name: device?.name ?? "Strava")
            switch kind {
            case 0:
                return Sample(
                    type: .stepCount, start: start, end: end, value: .quantity(Double(value), unit: "count"), source: source,
                    device: device)
            case 1:
                return Sample(
                    type: .activeEnergyBurned, start: start, end: end, value: .quantity(Double(value) / 10, unit: "kcal"),
                    source: source, device: device)
            case 2:
                return Sample(
                    type: .restingHeartRate, start: start, end: start,
                    value: .quantity(Double(40 + value % 40), unit: "count/min"),
                    source: source, device: device)
            case 3:
                return Sample(
                    type: .heartRateVariabilitySDNN, start: start, end: start,
                    value: .quantity(Double(20 + value % 90), unit: "ms"),
                    source: source, device: device)
            default:
                return Sample(
                    type: .sleepAnalysis, start: start, end: end.addingTimeInterval(3600),
                    value: .category("HKCategoryValueSleepAnalysisAsleepCore"), source: source, device: device)
            }
        }
    }

    /// Samples, and a day with a range of `days` around it.
    static var cases: Generator<([Spec], Int, Int, Int), some SendableSequenceType> {
        let spec = zip(
            Gen.int(in: -8...(5 * 96 + 8)).map { $0 % 3 == 0 ? ($0 / 96) * 96 : $0 },  // a third at a midnight
            Gen.int(in: 0...5).map { [0, 0, 15, 30, 120, 600][$0] },
            Gen.int(in: 0...4), Gen.int(in: 0...2), Gen.int(in: 1...2000)
        ).map { Spec(slot: $0, minutes: $1, kind: $2, device: $3, value: $4) }
        return zip(spec.array(of: 0...40), Gen.int(in: 0...4), Gen.int(in: 0...2), Gen.int(in: 0...2))
    }

    static func normalizer(_ store: any HealthQuerying) -> DailyNormalizer {
        var configuration = DailyNormalizer.Configuration()
        configuration.homeZone = zone
        let now = Build.at("2024-03-20T12:00:00Z")
        return DailyNormalizer(store: store, configuration: configuration, now: { now })
    }

    /// `day` alone, and `day` inside `[day - before, day + after]`: equal but for `createdAt`.
    static func check(_ store: any HealthQuerying, day index: Int, before: Int, after: Int) async throws {
        let normalizer = normalizer(store)
        let day = days[index]
        var alone = try await normalizer.metrics(for: day)
        var inRange = try await normalizer.metrics(from: day.adding(days: -before), through: day.adding(days: after))[before]
        alone.createdAt = Date(timeIntervalSince1970: 0)
        inRange.createdAt = alone.createdAt
        #expect(alone == inRange, "day \(day) in [-\(before), +\(after)]")
    }

    @Test func aDaysMetricsDoNotDependOnTheRangeInMemory() async throws {
        await propertyCheck(count: 1000, input: Self.cases) { specs, day, before, after in
            await Task.yield()  // CPU-bound cases: let the suite's timing-sensitive tests run
            let store = InMemoryHealthStore(samples: specs.map(\.sample))
            try await Self.check(store, day: day, before: before, after: after)
        }
    }

    @Test func aDaysMetricsDoNotDependOnTheRangeOnSQLite() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("range-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // 40 cases: each opens a new store (a pool with its own queues); the rules themselves
        // are covered by the 1,000 in-memory cases, this covers the store's SQL.
        await propertyCheck(count: 40, input: Self.cases) { specs, day, before, after in
            await Task.yield()
            let database = try HealthDatabase(path: folder.appendingPathComponent("\(UUID().uuidString).sqlite").path)
            try database.write { writer in
                for spec in specs { try writer.write(.sample(spec.sample)) }
            }
            try await Self.check(database.store, day: day, before: before, after: after)
        }
    }

    /// The hand-computed case behind the property: 100 steps stamped exactly at local
    /// midnight of 2024-03-09 belong to that day, asked alone or after the day before.
    @Test func anInstantAtMidnightBelongsToItsDayWhateverTheRange() async throws {
        let midnight = Build.at("2024-03-09T00:00:00-08:00")
        let point = Sample(
            type: .stepCount, start: midnight, end: midnight, value: .quantity(100, unit: "count"),
            source: Source(name: "Health Auto Export"))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midnight-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try HealthDatabase(path: folder.appendingPathComponent("h.sqlite").path)
        try database.write { _ = try $0.write(.sample(point)) }
        for store in [database.store as any HealthQuerying, InMemoryHealthStore(samples: [point])] {
            let normalizer = Self.normalizer(store)
            #expect(try await normalizer.metrics(for: Build.day("2024-03-09")).stepsNormalized == 100)
            let two = try await normalizer.metrics(from: Build.day("2024-03-08"), through: Build.day("2024-03-09"))
            #expect(two.map(\.stepsNormalized) == [nil, 100])
            let day = DateInterval(start: midnight, duration: 86_400)
            #expect(try await store.samples(of: .stepCount, overlapping: day).count == 1)
            let before = DateInterval(start: midnight.addingTimeInterval(-86_400), end: midnight)
            #expect(try await store.samples(of: .stepCount, overlapping: before).isEmpty)
        }
    }
}

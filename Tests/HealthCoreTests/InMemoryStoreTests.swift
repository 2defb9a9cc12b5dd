import Foundation
import Testing

@testable import HealthCore

/// The query contract, on the in-memory store (the SQLite store runs the same checks in
/// HealthImportTests).
@Suite struct InMemoryStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    static func sample(
        _ type: SampleType = .stepCount, from start: Double, to end: Double, _ value: Double, unit: String = "count"
    )
        -> Sample
    {
        Sample(
            type: type, start: t0.addingTimeInterval(start), end: t0.addingTimeInterval(end), value: .quantity(value, unit: unit),
            source: Source(name: "Watch"))
    }

    @Test func overlapIsStrict() async {
        let store = InMemoryHealthStore(samples: [
            Self.sample(from: 0, to: 60, 10), Self.sample(from: 60, to: 120, 20), Self.sample(from: 120, to: 180, 30),
        ])
        let window = DateInterval(start: Self.t0.addingTimeInterval(60), end: Self.t0.addingTimeInterval(120))
        let found = await store.samples(of: .stepCount, overlapping: window)
        #expect(found.map { $0.value.number } == [20])
    }

    @Test func statisticsProrateTheSumAndConvertUnits() async throws {
        let store = InMemoryHealthStore(samples: [
            Self.sample(.activeEnergyBurned, from: 0, to: 100, 100, unit: "kcal"),
            Self.sample(.activeEnergyBurned, from: 50, to: 150, 418.4, unit: "kJ"),
        ])
        let window = DateInterval(start: Self.t0.addingTimeInterval(50), end: Self.t0.addingTimeInterval(100))
        let stats = await store.statistics(of: .activeEnergyBurned, over: window, unit: try HealthUnit(parsing: "kcal"))
        #expect(stats.count == 2)
        #expect(stats.sum == 100)  // half of 100 kcal + half of 100 kcal
        #expect(stats.average == 100)
        #expect(stats.minimum == 100 && stats.maximum == 100)
    }

    @Test func latestIsByEndDate() async throws {
        let store = InMemoryHealthStore(samples: [Self.sample(from: 0, to: 500, 1), Self.sample(from: 100, to: 200, 2)])
        #expect(try await store.latestSample(of: .stepCount)?.value.number == 1)
        #expect(try await store.latestSample(of: .heartRate) == nil)
        // As of t0+300 the 0–500 sample has not ended yet.
        #expect(await store.latestSample(of: .stepCount, endingBy: Self.t0.addingTimeInterval(300))?.value.number == 2)
        #expect(await store.latestSample(of: .stepCount, endingBy: Self.t0.addingTimeInterval(199)) == nil)
    }

    @Test func anchoredChangesReturnEachSampleExactlyOnce() async throws {
        let store = InMemoryHealthStore()
        try await store.add((0..<5).map { Self.sample(from: Double($0), to: Double($0) + 1, Double($0)) })
        var anchor = QueryAnchor.initial
        var seen: [Double] = []
        while true {
            let page = await store.changes(of: .stepCount, since: anchor, limit: 2)
            seen += page.samples.compactMap(\.value.number)
            anchor = page.nextAnchor
            if !page.hasMore { break }
        }
        #expect(seen == [0, 1, 2, 3, 4])
        #expect(anchor == QueryAnchor(5))
        // Duplicates are not new; new samples come after the anchor.
        #expect(try await store.add([Self.sample(from: 0, to: 1, 0), Self.sample(from: 9, to: 10, 9)]) == 1)
        let next = await store.changes(of: .stepCount, since: anchor, limit: 10)
        #expect(next.samples.compactMap(\.value.number) == [9])
        #expect(next.nextAnchor == QueryAnchor(6))
        let none = await store.changes(of: .stepCount, since: next.nextAnchor, limit: 10)
        #expect(none.samples.isEmpty && none.nextAnchor == next.nextAnchor && !none.hasMore)
    }
}

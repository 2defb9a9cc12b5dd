import Foundation
import HealthMetrics
import HealthServerRecords
import HealthSynth
import Testing

@testable import HealthServer

/// Issue 37 §3: `GET /v1/readiness` reads the days' figures (``DailyFigures``); SQLite takes
/// the two facts of the metadata out of its JSON itself. On random stored days they are
/// what the whole days give.
@Suite struct I37ReadinessFiguresTests {
    @Test(arguments: ServerBackend.enabled)
    func i37_aStoresFiguresAreTheWholeDaysFigures(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        let store = harness.repositories.dailyMetrics
        var random = SplitMix(seed: 37)
        func maybe<T>(_ value: T) -> T? { Int.random(in: 0..<4, using: &random) == 0 ? nil : value }
        let names = ["apple_watch", "iphone", "Jane’s \"Watch\"", "😴", "back\\slash"]
        var days: [NormalizedDailyMetrics] = []
        for offset in 0..<400 {
            var day = ServerHarness.day(
                ServerHarness.date(offset), steps: maybe(Int.random(in: 0...40_000, using: &random)),
                sleep: maybe(Double.random(in: 0...14, using: &random)),
                restingHR: maybe(Double.random(in: 30...120, using: &random)),
                hrv: maybe(Double.random(in: 5...250, using: &random)),
                energy: maybe(Double.random(in: 0...3_000, using: &random)))
            day.stepsSources = maybe(
                StepsSourcesMetadata(
                    primarySource: maybe(names[Int.random(in: 0..<names.count, using: &random)]),
                    secondarySourcesUsed: maybe(names) ?? [], ignoredSources: [],
                    suspiciousSteps: Bool.random(using: &random), rawSampleCount: Int.random(in: 0...500, using: &random)))
            let basis = SleepBasis.allCases[Int.random(in: 0..<SleepBasis.allCases.count, using: &random)]
            // Whole hours too: JSON writes 8.0 as 8, which SQLite reads as an integer.
            let inBed =
                Bool.random(using: &random)
                ? Double(Int.random(in: 0...12, using: &random)) : Double.random(in: 0...12, using: &random)
            day.sleepSource = maybe(SleepSourceMetadata(basis: basis, inBedHours: inBed))
            days.append(day)
        }
        _ = try await store.upsert(days, userID: alice)
        let (first, last) = (LocalDate(ServerHarness.date(-5))!, LocalDate(ServerHarness.date(405))!)
        let figures = try await store.dailyFigures(userID: alice, from: first, through: last, version: .v1)
        let whole = try await store.dailyMetrics(userID: alice, from: first, through: last, version: .v1)
        #expect(figures.count == 400)
        #expect(figures == whole.compactMap(DailyFigures.init))
        #expect(figures.contains { $0.inBedOnlyHours != nil } && figures.contains { $0.stepsSuspicious })
        // A window inside the days, and another user's (none).
        let week = try await store.dailyFigures(
            userID: alice, from: LocalDate(ServerHarness.date(10))!, through: LocalDate(ServerHarness.date(16))!, version: .v1)
        #expect(week.map(\.date.description) == (10...16).map(ServerHarness.date))
        #expect(
            try await store.dailyFigures(userID: try #require(harness.ids["bob"]), from: first, through: last, version: .v1)
                .isEmpty)
    }
}

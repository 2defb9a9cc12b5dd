import Foundation
import HealthMetrics
import HealthServerRecords
import HealthWire
import Testing

@testable import HealthServer

/// Issue 34 §4: a day's stored fields are listed once (`DailyMetricsColumns.columns`) and
/// both stores derive their statements from the list. Every field of a day goes in and
/// comes back, and a change in any one of them is an update.
@Suite struct I34DayColumnsTests {
    static let day = NormalizedDailyMetrics(
        userID: nil, localDate: "2024-03-10", timezoneIdentifier: "America/New_York",
        utcDayStart: Date(timeIntervalSince1970: 1_710_046_800), utcDayEnd: Date(timeIntervalSince1970: 1_710_129_600),
        stepsNormalized: 8123, stepsRawSum: 9001,
        stepsSources: StepsSourcesMetadata(
            primarySource: "Jane’s Apple Watch", secondarySourcesUsed: ["iPhone"], ignoredSources: ["Pedometer++"],
            suspiciousSteps: false, rawSampleCount: 412),
        activeEnergyKcal: 512.25, sleepHours: 7.125, sleepSource: SleepSourceMetadata(basis: .watchStages, inBedHours: 8.5),
        restingHRBpm: 54.5, hrvMs: 61.75, normalizationVersion: "norm_v1",
        createdAt: Date(timeIntervalSince1970: 1_710_140_000.5))

    /// One change per stored field (the key and `created_at` aside).
    static let changes: [(String, @Sendable (inout NormalizedDailyMetrics) -> Void)] = [
        ("timezone", { $0.timezoneIdentifier = "Europe/Paris" }),
        ("utc_day_start", { $0.utcDayStart += 3600 }),
        ("utc_day_end", { $0.utcDayEnd += 3600 }),
        ("steps_normalized", { $0.stepsNormalized = nil }),
        ("steps_raw_sum", { $0.stepsRawSum = 9002 }),
        ("steps_sources_json", { $0.stepsSources?.suspiciousSteps = true }),
        ("active_energy_kcal", { $0.activeEnergyKcal = 512.5 }),
        ("sleep_hours", { $0.sleepHours = nil }),
        ("sleep_source_json", { $0.sleepSource?.inBedHours = 8.25 }),
        ("resting_hr_bpm", { $0.restingHRBpm = 55 }),
        ("hrv_ms", { $0.hrvMs = 61.5 }),
    ]

    @Test func i34_everyStoredColumnIsListedOnceWithCreatedAtLast() {
        let names = DailyMetricsColumns.columns.map(\.name)
        #expect(names == Self.changes.map(\.0) + ["created_at"])
        #expect(Set(names).count == names.count)
    }

    @Test(arguments: ServerBackend.enabled)
    func i34_everyFieldOfADayComesBackAndEachChangeIsAnUpdate(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        let store = harness.repositories.dailyMetrics
        let date = LocalDate("2024-03-10")!
        #expect(try await store.upsert([Self.day], userID: alice) == UpsertCounts(inserted: 1))
        var expected = Self.day
        expected.userID = alice
        #expect(try await store.dailyMetrics(userID: alice, from: date, through: date, version: .v1) == [expected])
        // Computed again later, with the same values: left alone.
        var later = Self.day
        later.createdAt += 60
        #expect(try await store.upsert([later], userID: alice) == UpsertCounts(unchanged: 1))
        for (column, change) in Self.changes {
            var changed = try #require(try await store.dailyMetrics(userID: alice, from: date, through: date, version: .v1).first)
            change(&changed)
            #expect(try await store.upsert([changed], userID: alice) == UpsertCounts(updated: 1), "\(column)")
            #expect(
                try await store.dailyMetrics(userID: alice, from: date, through: date, version: .v1) == [changed], "\(column)")
        }
    }
}

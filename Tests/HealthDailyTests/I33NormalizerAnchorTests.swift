import Foundation
import HealthCore
import HealthDaily
import HealthMetrics
import Testing

/// Issue 33 §1: `DailyNormalizer.anchor()` finds where relative ranges end in a store —
/// today, or the last day with data when nothing is newer — with today in the zone in
/// effect now and the data's days in the zone in effect at its end.
@Suite struct I33NormalizerAnchorTests {
    static let now = Build.at("2025-12-31T20:00:00Z")
    static let utc = TimeZone(identifier: "UTC")!

    static let steps = InMemoryHealthStore(samples: [
        Build.steps("2024-12-28T12:00:00Z", "2024-12-28T12:10:00Z", 1000, device: Build.watch),
        Build.steps("2024-12-30T12:00:00Z", "2024-12-30T12:10:00Z", 1200, device: Build.watch),
    ])

    static func normalizer(
        _ store: any HealthQuerying, zone: TimeZone = I33NormalizerAnchorTests.utc, explicit: TimeZone? = nil,
        now: Date = I33NormalizerAnchorTests.now
    ) -> DailyNormalizer {
        var configuration = DailyNormalizer.Configuration()
        configuration.homeZone = zone
        configuration.explicitZone = explicit
        return DailyNormalizer(store: store, configuration: configuration, now: { now })
    }

    @Test func i33_lastday_theNormalizerEndsRangesAtTheLastDayWithData() async throws {
        let normalizer = Self.normalizer(Self.steps)
        let anchor = try await normalizer.anchor()
        #expect(anchor.today == LocalDate("2025-12-31")! && anchor.day == LocalDate("2024-12-30")! && anchor.moved)
        // The 7 days to it hold the data, not dashes.
        let week = try await normalizer.metrics(from: anchor.day.adding(days: -6), through: anchor.day)
        #expect(week.map(\.localDate).last == "2024-12-30")
        #expect(week.map(\.stepsNormalized) == [nil, nil, nil, nil, 1000, nil, 1200])
        // A store with today's data shows today.
        let fresh = try await Self.normalizer(Self.steps, now: Build.at("2024-12-30T20:00:00Z")).anchor()
        #expect(!fresh.moved && fresh.day == LocalDate("2024-12-30")!)
    }

    /// A night in Paris ending 2024-12-31 00:30 there (2024-12-30 23:30 UTC, 15:30 in Los
    /// Angeles): its last day is Paris's; "now" has no evidence left, so today is Los Angeles's.
    @Test func i33_lastday_theLastDayIsInTheZoneInEffectAtTheData() async throws {
        let store = InMemoryHealthStore(samples: [
            Build.sleep(
                "2024-12-30T16:00:00Z", "2024-12-30T23:30:00Z", "AsleepCore", device: Build.watch, source: "Watch",
                zone: "Europe/Paris")
        ])
        let anchor = try await Self.normalizer(store, zone: Build.la).anchor()
        #expect(anchor.day == LocalDate("2024-12-31")! && anchor.today == LocalDate("2025-12-31")!)
        // Every day in Los Angeles (--tz): the night ends on 2024-12-30 there.
        let pinned = try await Self.normalizer(store, zone: Build.la, explicit: Build.la).anchor()
        #expect(pinned.day == LocalDate("2024-12-30")!)
    }

    /// Days a source holds beyond the samples (the server's days, posted as days) count;
    /// withheld kinds do not.
    @Test func i33_lastday_daysBeyondTheSamplesCountAndWithheldKindsDoNot() async throws {
        let normalizer = Self.normalizer(Self.steps)
        let posted = try await normalizer.anchor(daily: PostedDays(latest: LocalDate("2025-06-01")!))
        #expect(posted.day == LocalDate("2025-06-01")! && posted.moved)
        let none = try await normalizer.anchor(daily: PostedDays(latest: nil))
        #expect(none.day == LocalDate("2024-12-30")!)
        let withheld = try await normalizer.anchor(excluding: [.steps])
        #expect(!withheld.moved && withheld.day == LocalDate("2025-12-31")! && withheld.latestDay == nil)
    }

    /// A source with one posted day.
    struct PostedDays: DailyMetricsSource {
        let latest: LocalDate?

        func metrics(from first: LocalDate, through last: LocalDate) async throws -> [NormalizedDailyMetrics] { [] }

        func latestDay(
            after day: LocalDate, through last: LocalDate, excluding withheld: Set<HealthDataCategory>
        ) async throws -> LocalDate? {
            guard let latest, latest > day, latest <= last else { return nil }
            return latest
        }
    }
}

import Foundation
import HealthCore
import Testing

@testable import HealthDaily

/// Issue 33 §5, one zone rule: readers that select or stamp by day (the CSV export, the
/// CLI's dates) take each day's bounds and zone from the zone timeline, as `days` does.
@Suite struct I33ZoneSpanTests {
    /// A night in Paris (HKTimeZone) for a person at home in Los Angeles: the days from
    /// 2024-05-09 are Paris days (evidence within 2 days after their noon), 2024-05-08 is
    /// a Los Angeles day that ends where the first Paris day begins.
    @Test func i33_zones_spansAndZoneChangesFollowTheTimeline() async throws {
        let night = Build.sleep(
            "2024-05-10T23:00:00+02:00", "2024-05-11T07:00:00+02:00", "AsleepCore", device: Build.watch,
            source: "Apple Watch", zone: "Europe/Paris")
        var normalizer = Build.normalizer([night], home: Build.la)
        let (first, last) = (Build.day("2024-05-08"), Build.day("2024-05-12"))
        let expected = [(Build.at("2024-05-08T07:00:00Z"), Build.la), (Build.at("2024-05-08T22:00:00Z"), Build.paris)]
        for chunkDays in [92, 2, 1] {
            var configuration = normalizer.configuration
            configuration.chunkDays = chunkDays
            normalizer = DailyNormalizer(store: normalizer.store, configuration: configuration, now: { Date() })
            let changes = try await normalizer.zoneChanges(from: first, through: last)
            #expect(changes.map { $0.start } == expected.map { $0.0 }, "\(chunkDays)")
            #expect(changes.map { $0.zone } == expected.map { $0.1 }, "\(chunkDays)")
        }
        let span = try await normalizer.span(from: first, through: last)
        #expect(span == DateInterval(start: Build.at("2024-05-08T07:00:00Z"), end: Build.at("2024-05-12T22:00:00Z")))
        // The same as the days' own bounds.
        let days = try await normalizer.localDays(from: first, through: last)
        #expect(span.start == days.first?.interval.start && span.end == days.last?.interval.end)
        #expect(LocalDay.zoneChanges(days).map { $0.start } == expected.map { $0.0 })
    }

    /// Issue 33 §6: a day's mean (resting HR, HRV) is rounded to what it means, 0.001 of
    /// its unit, not printed with binary noise (40.23333333333334).
    @Test func i33_edges_meansAreRoundedToTheirMeaning() async throws {
        let readings = [("08", 40.1), ("09", 40.2), ("10", 40.4)].map { hour, value in
            Build.quantity(.heartRateVariabilitySDNN, "2024-03-05T\(hour):00:00-08:00", value, unit: "ms")
        }
        let day = try await Build.normalizer(readings).metrics(for: Build.day("2024-03-05"))
        #expect(day.hrvMs == 40.233)
        let interval = LocalDay(date: Build.day("2024-03-05"), zone: Build.la).interval
        #expect(MeanRule.mean(readings, day: interval, unit: try HealthUnit(parsing: "ms")) == 40.233)
    }
}

import Foundation
import HealthCore

extension DailyNormalizer {
    /// Where relative ranges end (``DataAnchor``): today in the zone in effect now; the
    /// store's days with data in the zone in effect at its newest sample (a trip then is
    /// not today's zone). Samples of `withheld` kinds do not count. When the samples end
    /// before today, `daily`'s days count too: a day it holds after them is data (the
    /// server's days, posted as days).
    ///
    /// ```swift
    /// let anchor = try await normalizer.anchor()
    /// let week = try await normalizer.metrics(from: anchor.day.adding(days: -6), through: anchor.day)
    /// if let note = anchor.movedNote(days: 7) { print(note) }   // latest data 2024-12-30; showing the 7 days to it
    /// ```
    public func anchor(
        excluding withheld: Set<HealthDataCategory> = [], daily: (any DailyMetricsSource)? = nil
    ) async throws -> DataAnchor {
        let spans = try await store.sampleSpans()
        let instant = now()
        let todayZone = try await zone(at: instant)
        var dataZone = todayZone
        let newest = spans.filter { !withheld.contains(HealthDataCategory($0.type)) }.map(\.last).max()
        if let newest, newest < instant { dataZone = try await zone(at: newest) }
        var anchor = DataAnchor(
            spans: spans, today: LocalDate(instant, in: todayZone), zone: dataZone, excluding: withheld)
        if anchor.moved, let daily,
            let later = try await daily.latestDay(after: anchor.day, through: anchor.today, excluding: withheld)
        {
            anchor = anchor.including(later)
        }
        return anchor
    }
}

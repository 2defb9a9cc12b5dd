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
        let instant = now()
        let spans = try await spans(asOf: instant)
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

    /// How far after `now` a sample may end and still count as today's data (an ongoing
    /// sample, a clock a few hours ahead).
    static let futureMargin: TimeInterval = 86400

    /// The store's spans (``HealthQuerying/sampleSpans()``) as of `instant`: a type whose
    /// data runs on past ``futureMargin`` after it — a device with a wrong clock, a record
    /// dated 2199 — ends at its latest sample by `instant`, and a type with nothing by then
    /// is left out, so one impossible date never makes "the last day with data" a day in
    /// the future (and every view empty). Only such types cost a query.
    public func spans(asOf instant: Date) async throws -> [SampleTypeSpan] {
        var spans: [SampleTypeSpan] = []
        for span in try await store.sampleSpans() {
            guard span.last > instant.addingTimeInterval(Self.futureMargin) else {
                spans.append(span)
                continue
            }
            guard span.first <= instant, let latest = try await store.latestSample(of: span.type, endingBy: instant) else {
                continue
            }
            spans.append(SampleTypeSpan(type: span.type, first: span.first, last: max(span.first, latest.end)))
        }
        return spans
    }
}

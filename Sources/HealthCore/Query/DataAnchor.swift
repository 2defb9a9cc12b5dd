import Foundation

/// The day relative ranges end at — "the last 30 days", "today" — decided one way for the
/// CLI, both dashboards and the coach's tools: today, unless the store holds nothing newer
/// than an earlier day; then that day, the last with data, and the view says so in one line
/// (``movedNote(days:)``). An export whose last day is a year ago opens on its data, not on
/// 30 empty days; a store with today's data shows today.
///
/// Pure: the store's spans (``HealthQuerying/sampleSpans()``), today and the zone of the
/// data's days are given (`DailyNormalizer.anchor()` finds them in a store).
///
/// ```swift
/// let anchor = DataAnchor(spans: try await store.sampleSpans(), today: LocalDate("2026-01-09")!, zone: zone)
/// anchor.day                  // 2024-12-30: the data ends then and nothing is newer
/// anchor.movedNote(days: 30)  // "latest data 2024-12-30; showing the 30 days to it"
/// ```
public struct DataAnchor: Hashable, Sendable {
    /// Today on the wall clock.
    public let today: LocalDate
    /// The first and the last local day with data of each kind of data; kinds without data,
    /// or left out, are absent.
    public let days: [HealthDataCategory: ClosedRange<LocalDate>]
    /// Days with data the samples do not show (``including(_:)``: the server's days, posted
    /// as days).
    public let otherDays: ClosedRange<LocalDate>?
    /// The newest sample's end; `nil` without samples.
    public let latestInstant: Date?

    /// The anchor of a store whose samples lie in `spans`, their days taken in `zone`;
    /// samples of `withheld` kinds do not count (a reader never learns where data it may
    /// not see ends).
    public init(
        spans: [SampleTypeSpan], today: LocalDate, zone: TimeZone, excluding withheld: Set<HealthDataCategory> = []
    ) {
        let kept = spans.filter { !withheld.contains(HealthDataCategory($0.type)) }
        self.init(today: today, days: Self.days(of: kept, in: zone), otherDays: nil, latestInstant: kept.map(\.last).max())
    }

    private init(
        today: LocalDate, days: [HealthDataCategory: ClosedRange<LocalDate>], otherDays: ClosedRange<LocalDate>?,
        latestInstant: Date?
    ) {
        self.today = today
        self.days = days
        self.otherDays = otherDays
        self.latestInstant = latestInstant
    }

    /// The first and the last local day with data of each kind in `spans`, in `zone`. A
    /// span's last day is the one its last second falls in: steps counted until midnight
    /// belong to the day before it (an instant sample at exactly midnight is counted on the
    /// day before too).
    public static func days(of spans: [SampleTypeSpan], in zone: TimeZone) -> [HealthDataCategory: ClosedRange<LocalDate>] {
        var days: [HealthDataCategory: ClosedRange<LocalDate>] = [:]
        for span in spans {
            let first = LocalDate(span.first, in: zone)
            let last = max(first, LocalDate(span.last.addingTimeInterval(-1), in: zone))
            let category = HealthDataCategory(span.type)
            if let known = days[category] {
                days[category] = min(known.lowerBound, first)...max(known.upperBound, last)
            } else {
                days[category] = first...last
            }
        }
        return days
    }

    /// The first local day with data; `nil` when there is none.
    public var firstDay: LocalDate? {
        (days.values.map(\.lowerBound) + [otherDays?.lowerBound].compactMap { $0 }).min()
    }

    /// The last local day with data; `nil` when there is none.
    public var latestDay: LocalDate? {
        (days.values.map(\.upperBound) + [otherDays?.upperBound].compactMap { $0 }).max()
    }

    /// Whether the data ends before today: relative ranges then end at ``latestDay``.
    public var moved: Bool {
        guard let latestDay else { return false }
        return latestDay < today
    }

    /// The day relative ranges end at: today, or the last day with data when nothing is newer.
    public var day: LocalDate {
        if let latestDay, latestDay < today { return latestDay }
        return today
    }

    /// The instant a snapshot "now" is taken at: `now`, or, when the anchor moved, the
    /// newest sample's end (nothing later exists to see).
    public func instant(now: Date) -> Date {
        guard moved, let latestInstant, latestInstant < now else { return now }
        return latestInstant
    }

    /// This anchor with data known on `day` too (a day posted as a day on the server).
    public func including(_ day: LocalDate) -> DataAnchor {
        let other = otherDays.map { min($0.lowerBound, day)...max($0.upperBound, day) } ?? day...day
        return DataAnchor(today: today, days: days, otherDays: other, latestInstant: latestInstant)
    }

    /// Whether any kind of data has days from `first` through `last`.
    public func holdsData(from first: LocalDate, through last: LocalDate) -> Bool {
        guard first <= last else { return false }
        return (Array(days.values) + [otherDays].compactMap { $0 }).contains { $0.overlaps(first...last) }
    }

    /// The line a view prints when its range moved to the last day with data; `nil` when it
    /// did not move. `days` is the length of the range.
    public func movedNote(days: Int) -> String? {
        guard moved else { return nil }
        return "latest data \(day); " + (days == 1 ? "showing that day" : "showing the \(days) days to it")
    }

    /// The line a snapshot prints when it is taken as of the newest sample; `nil` when it
    /// is taken now.
    public var snapshotNote: String? {
        guard moved, latestInstant != nil else { return nil }
        return "latest data \(day); the snapshot is as of its newest sample"
    }

    /// The line a view prints when `first` through `last` holds no data: where the data is;
    /// `nil` when the range shares a day with it.
    public func emptyNote(from first: LocalDate, through last: LocalDate) -> String? {
        guard !holdsData(from: first, through: last) else { return nil }
        let range = first == last ? "no data on \(first)" : "no data from \(first) to \(last)"
        guard let firstDay, let latestDay else { return range + "; the store holds no data" }
        return range + "; the data runs from \(firstDay) to \(latestDay)"
    }
}

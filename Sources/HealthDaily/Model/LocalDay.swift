import Foundation
import HealthCore

/// A local day: `[startOfDay(date, zone), startOfDay(date + 1, zone))` — 23, 24 or 25
/// hours long across DST. On a day after which the zone changes, the day ends where the
/// next one begins (see ``ending(at:)``), so that days tile time.
public struct LocalDay: Hashable, Sendable {
    public let date: LocalDate
    public let zone: TimeZone
    public let interval: DateInterval

    public init(date: LocalDate, zone: TimeZone) {
        self.date = date
        self.zone = zone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let (year, month, day) = date.components
        let start = calendar.startOfDay(for: calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!)
        let next = date.adding(days: 1).components
        let end = calendar.startOfDay(
            for: calendar.date(from: DateComponents(year: next.year, month: next.month, day: next.day, hour: 12))!)
        interval = DateInterval(start: start, end: end)
    }

    /// This day ending where `next` begins. When the zone changes between them (a flight),
    /// the two zones' local days overlap (flying east) or leave a gap (flying west); ending
    /// each day at the start of the next keeps every instant in exactly one day, so no step
    /// is counted on two days or on none.
    public func ending(at next: LocalDay) -> LocalDay {
        guard next.zone != zone, next.interval.start > interval.start else { return self }
        return LocalDay(date: date, zone: zone, interval: DateInterval(start: interval.start, end: next.interval.start))
    }

    private init(date: LocalDate, zone: TimeZone, interval: DateInterval) {
        self.date = date
        self.zone = zone
        self.interval = interval
    }

    /// Length in hours (23, 24 or 25 on DST days).
    public var hours: Double { interval.duration / 3600 }

    /// The sleep window of the night that ends on the morning of this day:
    /// `[D-1 18:00, D 12:00)` local.
    public var sleepWindow: DateInterval {
        DateInterval(
            start: date.adding(days: -1).instant(hour: 18, in: zone), end: date.instant(hour: 12, in: zone))
    }
}

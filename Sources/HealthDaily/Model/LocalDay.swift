import Foundation
import HealthCore

/// A local day: `[startOfDay(date, zone), startOfDay(date + 1, zone))` — 23, 24 or 25
/// hours long across DST. On a day after which the zone changes, the day ends where the
/// next one begins (see ``ending(at:)``), so that days tile time.
public struct LocalDay: Hashable, Sendable {
    public let date: LocalDate
    public let zone: TimeZone
    public let interval: DateInterval
    /// The sleep window of the night that ends on the morning of this day:
    /// `[D-1 18:00, D 12:00)` local — ending, on a day after which the zone moves six hours
    /// or more east, where the next day's window begins (``ending(at:)``).
    public let sleepWindow: DateInterval

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
        sleepWindow = DateInterval(
            start: date.adding(days: -1).instant(hour: 18, in: zone), end: date.instant(hour: 12, in: zone))
    }

    /// This day ending where `next` begins. When the zone changes between them (a flight),
    /// the two zones' local days overlap (flying east) or leave a gap (flying west); ending
    /// each day at the start of the next keeps every instant in exactly one day, so no step
    /// is counted on two days or on none. The sleep windows likewise: flying six hours or
    /// more east, this day's window (to 12:00 here) would reach past the start of the next
    /// day's (18:00 there), and a night slept there would count on both days; it ends where
    /// the next one starts, so the night is the day's it wakes on.
    public func ending(at next: LocalDay) -> LocalDay {
        guard next.zone != zone else { return self }
        let end = next.interval.start > interval.start ? next.interval.start : interval.end
        let windowEnd = max(sleepWindow.start, min(sleepWindow.end, next.sleepWindow.start))
        return LocalDay(
            date: date, zone: zone, interval: DateInterval(start: interval.start, end: end),
            sleepWindow: DateInterval(start: sleepWindow.start, end: windowEnd))
    }

    private init(date: LocalDate, zone: TimeZone, interval: DateInterval, sleepWindow: DateInterval) {
        self.date = date
        self.zone = zone
        self.interval = interval
        self.sleepWindow = sleepWindow
    }

    /// Length in hours (23, 24 or 25 on DST days).
    public var hours: Double { interval.duration / 3600 }
}

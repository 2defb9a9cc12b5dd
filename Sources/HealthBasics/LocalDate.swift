import Foundation

/// A calendar date with no zone, `YYYY-MM-DD`: the name of a local day.
public struct LocalDate: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    /// Days since 1970-01-01 (proleptic Gregorian).
    public let dayNumber: Int

    public init(dayNumber: Int) { self.dayNumber = dayNumber }

    public init(year: Int, month: Int, day: Int) {
        dayNumber = CivilDays.days(year: year, month: month, day: day)
    }

    /// Parses `YYYY-MM-DD`; `nil` for anything else or an impossible date.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        self.init(year: year, month: month, day: day)
        guard components == (year, month, day) else { return nil }
    }

    /// The local date of `instant` in `zone`. An instant outside years 0000–9999 (an
    /// absurd stored value) gives the nearest date of ``CivilDays/supportedDays``, never a
    /// trap; a NaN instant gives 1970-01-01.
    public init(_ instant: Date, in zone: TimeZone) {
        let local = instant.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: instant))
        let day = Int(truncatingSaturating: (local / 86400).rounded(.down)) ?? 0
        dayNumber = min(max(day, CivilDays.supportedDays.lowerBound), CivilDays.supportedDays.upperBound)
    }

    public var components: (year: Int, month: Int, day: Int) { CivilDays.date(dayNumber) }

    public func adding(days: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + days) }

    public var description: String {
        let (year, month, day) = components
        return String(format: "%04d-%02d-%02d", year, month, day)
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = LocalDate(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not YYYY-MM-DD"))
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// The instant at which this date shows `hour:minute` on a wall clock in `zone` (for a
    /// time that a DST change skips, the instant Foundation picks just after the gap).
    public func instant(hour: Int, minute: Int = 0, in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let (year, month, day) = components
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    }
}

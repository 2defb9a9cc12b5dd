import Foundation

/// A calendar date with no zone, `YYYY-MM-DD`: the name of a local day.
public struct LocalDate: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    /// Days since 1970-01-01 (proleptic Gregorian).
    public let dayNumber: Int

    public init(dayNumber: Int) { self.dayNumber = dayNumber }

    public init(year: Int, month: Int, day: Int) {
        dayNumber = CivilDays.days(year: year, month: month, day: day)
    }

    /// Parses `YYYY-MM-DD`; `nil` for anything else or an impossible date. Reads the UTF-8
    /// bytes in place (every stored day's date is parsed on a read). A part may carry a `+`
    /// sign (`2024-03-+5`), as `Int(_:)` read it before: days stored with one still read.
    public init?(_ text: String) {
        let parsed =
            text.utf8.withContiguousStorageIfAvailable(Self.parse) ?? Array(text.utf8).withUnsafeBufferPointer(Self.parse)
        guard let (year, month, day) = parsed ?? Self.parseSigned(text), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        self.init(year: year, month: month, day: day)
        guard components == (year, month, day) else { return nil }
    }

    /// The parts of a date written with a `+` sign in a part, read as the parser before
    /// issue 37 read every date (split on `-`, `Int(_:)` of each part); `nil` otherwise.
    private static func parseSigned(_ text: String) -> (Int, Int, Int)? {
        guard text.utf8.contains(UInt8(ascii: "+")) else { return nil }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        return (year, month, day)
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, Int, Int)? {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        return (year, month, day)
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
        guard (0...9999).contains(year) else { return String(format: "%04d-%02d-%02d", year, month, day) }
        // Written byte by byte: `String(format:)` went through CoreFoundation, a tenth of a
        // readiness answer's time under load.
        return String(unsafeUninitializedCapacity: 10) { bytes in
            func write(_ value: Int, at offset: Int, width: Int) {
                var rest = value
                for index in stride(from: offset + width - 1, through: offset, by: -1) {
                    bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
            }
            write(year, at: 0, width: 4)
            write(month, at: 5, width: 2)
            write(day, at: 8, width: 2)
            bytes[4] = UInt8(ascii: "-")
            bytes[7] = UInt8(ascii: "-")
            return 10
        }
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

import Foundation
import HealthCore

/// How the `Date` column reads.
public enum CSVDateStyle: String, Sendable, CaseIterable {
    /// `2026-01-09T10:30:00-08:00`: ISO 8601, local time with its offset.
    case iso
    /// `1/9/26, 10:30 AM`: HealthExporter's look (US short date and time), quoted since it
    /// holds a comma.
    case healthExporter = "healthexporter"
}

/// Formats instants as local times in the zone in effect at each (`zone`, then each of
/// `changes` from its start on), fast: the offset is looked up once per quarter hour of UTC
/// (every real zone changes offset, and every local day starts, on a quarter-hour
/// boundary), and the digits are written by hand.
struct CSVTimestamp {
    let zone: TimeZone
    let style: CSVDateStyle
    /// Seconds since 1970 each zone starts at, ascending.
    private let changes: [(start: Double, zone: TimeZone)]
    private var bucket = Int.min
    private var offset = 0

    init(zone: TimeZone, changes: [(start: Date, zone: TimeZone)] = [], style: CSVDateStyle) {
        self.zone = zone
        self.style = style
        self.changes = changes.map { (start: $0.start.timeIntervalSince1970, zone: $0.zone) }.sorted { $0.start < $1.start }
    }

    /// The zone in effect at `seconds` since 1970.
    private func zoneInEffect(at seconds: Double) -> TimeZone {
        var (low, high) = (0, changes.count)
        while low < high {
            let middle = (low + high) / 2
            if changes[middle].start <= seconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? zone : changes[low - 1].zone
    }

    /// Appends the local time of `seconds` since 1970 (whole seconds, rounded down). An
    /// instant whose local time falls outside years 0000–9999 (an absurd stored value) is
    /// written as the nearest one inside them, never trapping; NaN as the instant 0 (1970).
    mutating func append(_ seconds: Double, to buffer: inout [UInt8]) {
        let supported = CivilDays.supportedSeconds
        let clamped = min(max(seconds, supported.lowerBound), supported.upperBound)
        let whole = Int(truncatingSaturating: clamped.rounded(.down)) ?? 0
        let quarter = whole >= 0 ? whole / 900 : (whole - 899) / 900
        if quarter != bucket {
            bucket = quarter
            let start = Double(quarter * 900)
            offset = zoneInEffect(at: start).secondsFromGMT(for: Date(timeIntervalSince1970: start))
        }
        // Clamped again after the offset: a year of -1 or 10000 has no four digits.
        let local = min(max(whole + offset, Int(supported.lowerBound)), Int(supported.upperBound))
        let days = local >= 0 ? local / 86400 : (local - 86399) / 86400
        let secondOfDay = local - days * 86400
        let (year, month, day) = CivilDays.date(days)
        let (hour, minute, second) = (secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
        switch style {
        case .iso:
            Self.digits(year, 4, &buffer)
            buffer.append(UInt8(ascii: "-"))
            Self.digits(month, 2, &buffer)
            buffer.append(UInt8(ascii: "-"))
            Self.digits(day, 2, &buffer)
            buffer.append(UInt8(ascii: "T"))
            Self.digits(hour, 2, &buffer)
            buffer.append(UInt8(ascii: ":"))
            Self.digits(minute, 2, &buffer)
            buffer.append(UInt8(ascii: ":"))
            Self.digits(second, 2, &buffer)
            buffer.append(UInt8(ascii: offset < 0 ? "-" : "+"))
            Self.digits(abs(offset) / 3600, 2, &buffer)
            buffer.append(UInt8(ascii: ":"))
            Self.digits(abs(offset) / 60 % 60, 2, &buffer)
        case .healthExporter:
            buffer.append(UInt8(ascii: "\""))
            CSVNumber.appendInteger(Int64(month), to: &buffer)
            buffer.append(UInt8(ascii: "/"))
            CSVNumber.appendInteger(Int64(day), to: &buffer)
            buffer.append(UInt8(ascii: "/"))
            Self.digits(year % 100, 2, &buffer)
            buffer.append(contentsOf: ", ".utf8)
            CSVNumber.appendInteger(Int64(hour % 12 == 0 ? 12 : hour % 12), to: &buffer)
            buffer.append(UInt8(ascii: ":"))
            Self.digits(minute, 2, &buffer)
            buffer.append(contentsOf: (hour < 12 ? " AM\"" : " PM\"").utf8)
        }
    }

    private static func digits(_ value: Int, _ width: Int, _ buffer: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            buffer.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
            rest %= divisor
            divisor /= 10
        }
    }
}

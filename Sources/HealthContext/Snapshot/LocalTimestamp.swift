import Foundation
import HealthCore
import HealthDaily

/// ISO 8601 date-times with the offset of a zone (`2026-11-21T07:05:00-08:00`): what a
/// person in that zone reads, and still one exact instant.
public enum LocalTimestamp {
    /// `instant` as `YYYY-MM-DDTHH:mm:ss±HH:MM` in `zone` (whole seconds, rounded down).
    public static func format(_ instant: Date, in zone: TimeZone) -> String {
        let offset = zone.secondsFromGMT(for: instant)
        let date = LocalDate(instant, in: zone)
        let secondOfDay = Int(truncatingSaturating: ClockTime.secondsOfDay(instant, in: zone)) ?? 0
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        return String(
            format: "%@T%02d:%02d:%02d%@%02d:%02d", date.description, secondOfDay / 3600, secondOfDay / 60 % 60,
            secondOfDay % 60, sign, magnitude / 3600, magnitude / 60 % 60)
    }

    /// Parses an ISO 8601 date-time with `Z` or a `±HH:MM` offset; `nil` otherwise.
    public static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}

import Foundation
import HealthCore

/// Health Auto Export timestamps: `2024-01-05 08:00:00 -0800`, or with the phone's 12-hour
/// clock, `2024-01-05 8:00:00 AM -0800`, sometimes with a narrow no-break space (U+202F)
/// or a no-break space before `AM`/`PM`.
enum HAEDate {
    static func parse(_ text: String) -> ExportDate.Parsed? {
        if let parsed = ExportDate.parse(text, recordTime: true) { return parsed }
        let normalized = text.replacingOccurrences(of: "\u{202F}", with: " ").replacingOccurrences(of: "\u{00A0}", with: " ")
        var parts = normalized.split(separator: " ").map(String.init)
        // date, h:mm:ss, AM|PM, offset
        guard parts.count == 4, ["AM", "PM"].contains(parts[2].uppercased()) else {
            return parts.count == 3 ? ExportDate.parse(parts.joined(separator: " "), recordTime: true) : nil
        }
        let clock = parts[1].split(separator: ":").map { Int($0) }
        guard clock.count == 3, let hour12 = clock[0], let minute = clock[1], let second = clock[2], (1...12).contains(hour12)
        else { return nil }
        let hour = (hour12 % 12) + (parts[2].uppercased() == "PM" ? 12 : 0)
        parts[1] = String(format: "%02d:%02d:%02d", hour, minute, second)
        return ExportDate.parse([parts[0], parts[1], parts[3]].joined(separator: " "), recordTime: true)
    }
}

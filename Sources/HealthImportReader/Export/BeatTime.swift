import Foundation

/// HRV beat times (`InstantaneousBeatsPerMinute@time`) are a time of day in the phone's
/// locale format — `11:26:02.34 AM`, `00:20:37,80`, `9:05:01.5 PM` with a narrow no-break
/// space — and carry no date: they are anchored to the parent sample's start.
enum BeatTime {
    /// Seconds since local midnight, or `nil` when the text is not a time of day.
    static func secondsOfDay(_ text: String) -> Double? {
        var clock = ""
        var suffix = ""
        for scalar in text.unicodeScalars {
            if ("0"..."9").contains(scalar) || scalar == ":" || scalar == "." || scalar == "," {
                if suffix.isEmpty { clock.unicodeScalars.append(scalar) } else { return nil }
            } else if scalar.properties.isWhitespace || scalar == "\u{202F}" || scalar == "\u{00A0}" {
                continue
            } else {
                suffix.unicodeScalars.append(scalar)
            }
        }
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, var hour = Int(parts[0]), let minute = Int(parts[1]),
            hour < 24, minute < 60
        else { return nil }
        let second = parts.count == 3 ? Double(parts[2].replacingOccurrences(of: ",", with: ".")) : 0
        guard let second, second < 61 else { return nil }
        switch suffix.lowercased().replacingOccurrences(of: ".", with: "") {
        case "": break
        case "am", "a": if hour == 12 { hour = 0 }
        case "pm", "p": if hour < 12 { hour += 12 }
        default: return nil
        }
        return Double(hour * 3600 + minute * 60) + second
    }

    /// The instant of a beat: the parent's local start date (in the offset it was written
    /// with) plus the time of day, moved by a day when that lands more than 12 hours away
    /// from the parent's start (a sample that crosses midnight).
    static func anchor(secondsOfDay: Double, parentStart: Date, utcOffsetSeconds: Int) -> Date {
        let localStart = parentStart.timeIntervalSince1970 + Double(utcOffsetSeconds)
        let midnight = (localStart / 86400).rounded(.down) * 86400
        var local = midnight + secondsOfDay
        if local < localStart - 43200 { local += 86400 }
        if local > localStart + 43200 { local -= 86400 }
        return Date(timeIntervalSince1970: local - Double(utcOffsetSeconds))
    }
}

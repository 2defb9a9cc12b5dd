import Foundation
import HealthCore

/// Text made safe for HTML: the five characters that could end an element, an attribute
/// or an entity escaped. Every value that reaches the page passes through here.
enum HTML {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// A number with `digits` decimals and thousands separated by a thin space, or `—`
    /// for a missing or non-finite value (no `NaN` ever reaches the page).
    static func number(_ value: Double?, _ digits: Int = 0) -> String {
        guard let value, value.isFinite else { return "—" }
        let text = String(format: "%.\(digits)f", value)
        let negative = text.hasPrefix("-")
        let body = negative ? String(text.dropFirst()) : text
        let parts = body.split(separator: ".", maxSplits: 1)
        var whole = String(parts[0])
        var grouped = ""
        while whole.count > 3 {
            grouped = "\u{2009}" + whole.suffix(3) + grouped
            whole = String(whole.dropLast(3))
        }
        grouped = whole + grouped
        return (negative ? "−" : "") + grouped + (parts.count > 1 ? "." + parts[1] : "")
    }

    static func number(_ value: Int?) -> String { number(value.map(Double.init)) }

    /// A duration as `7 h 05 min` (or `45 min`).
    static func duration(seconds: Double?) -> String {
        guard let seconds, seconds.isFinite, seconds >= 0 else { return "—" }
        let minutes = Int(roundingSaturating: seconds / 60) ?? 0
        return minutes >= 60 ? String(format: "%d h %02d min", minutes / 60, minutes % 60) : "\(minutes) min"
    }

    /// `1 348 kcal`, or `—` alone when there is no value.
    static func figure(_ value: Double?, _ unit: String, _ digits: Int = 0) -> String {
        let text = number(value, digits)
        return text == "—" ? text : text + " " + escape(unit)
    }

    /// `Mon 3 Jun 2024, 07:30` in `zone`.
    static func localTime(_ instant: Date, _ zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = zone
        formatter.dateFormat = "EEE d MMM yyyy, HH:mm"
        return formatter.string(from: instant)
    }

    /// `TraditionalStrengthTraining` → `Traditional Strength Training`.
    static func spaced(_ name: String) -> String {
        var out = ""
        for character in name {
            if character.isUppercase, let last = out.last, last.isLowercase { out.append(" ") }
            out.append(character)
        }
        return out
    }
}

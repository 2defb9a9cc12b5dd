import Foundation

/// Parses and formats the export's timestamp form, `2019-01-01 08:00:00 -0800` (a space
/// before the offset, no colon in it). Hand-written: it runs once per timestamp on
/// millions of records.
package enum ExportDate {
    /// An instant and the offset it was written with.
    package struct Parsed: Hashable, Sendable {
        package var date: Date
        package var utcOffsetSeconds: Int
    }

    /// Parses `YYYY-MM-DD HH:MM:SS ±HHMM` (also `Z`/`+HH:MM` offsets and a `T` separator).
    /// Returns `nil` for anything else. `recordTime`: the time of a health record, which must
    /// also be a day its month has (not February 30), in the years 1900–2199, at an offset a
    /// zone has (±18:00 at most) — anything else is a corrupt date, not a time to store.
    /// Without it (a metadata value hashed into a content key), only the form is checked.
    package static func parse(_ text: String, recordTime: Bool = false) -> Parsed? {
        var text = text
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0), recordTime: recordTime) }
    }

    /// Parses from raw UTF-8 bytes.
    package static func parse(_ bytes: UnsafeRawBufferPointer, recordTime: Bool = false) -> Parsed? {
        let count = bytes.count
        guard count >= 19 else { return nil }
        func digits(_ at: Int, _ length: Int) -> Int? {
            var value = 0
            for index in at..<at + length {
                let byte = bytes[index]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard bytes[4] == 45, bytes[7] == 45, bytes[10] == 32 || bytes[10] == 84, bytes[13] == 58, bytes[16] == 58,
            let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
            let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction = 0.0
        if index < count, bytes[index] == 46 {  // fractional seconds
            index += 1
            var scale = 0.1
            while index < count, bytes[index] >= 48, bytes[index] <= 57 {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        while index < count, bytes[index] == 32 { index += 1 }
        var offset = 0
        if index < count {
            let sign = bytes[index]
            if sign == 90 {  // Z
                index += 1
            } else if sign == 43 || sign == 45 {
                index += 1
                guard index + 2 <= count, let hours = digits(index, 2) else { return nil }
                index += 2
                if index < count, bytes[index] == 58 { index += 1 }
                guard index + 2 <= count, let minutes = digits(index, 2), minutes < 60 else { return nil }
                index += 2
                offset = (hours * 3600 + minutes * 60) * (sign == 45 ? -1 : 1)
            } else {
                return nil
            }
        }
        guard index == count else { return nil }
        if recordTime {
            guard (1900...2199).contains(year), day <= CivilDays.daysIn(month: month, year: year),
                abs(offset) <= 18 * 3600
            else { return nil }
        }
        let days = CivilDays.days(year: year, month: month, day: day)
        let local = Double(days * 86400 + hour * 3600 + minute * 60 + second) + fraction
        return Parsed(date: Date(timeIntervalSince1970: local - Double(offset)), utcOffsetSeconds: offset)
    }

    /// Formats an instant the export's way, at the given offset.
    package static func format(_ date: Date, utcOffsetSeconds offset: Int) -> String {
        let local = Int(floor(date.timeIntervalSince1970)) + offset
        let days = local >= 0 ? local / 86400 : (local - 86399) / 86400
        let secondOfDay = local - days * 86400
        let (year, month, day) = CivilDays.date(days)
        let sign = offset < 0 ? "-" : "+"
        let magnitude = abs(offset)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + " " + pad(secondOfDay / 3600, 2) + ":"
            + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2) + " " + sign
            + pad(magnitude / 3600, 2) + pad(magnitude / 60 % 60, 2)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

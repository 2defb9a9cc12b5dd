import Foundation

/// RFC 3339 date-times (`date-time` in OpenAPI and JSON Schema), parsed without
/// Foundation's formatters: any year 0000–9999, any offset to ±23:59 (Foundation's time
/// zones stop at ±18:00), 1 to 9 fractional digits, lowercase `t`/`z`, and a leap second
/// (`:60`, read as the first instant of the next minute).
public enum RFC3339 {
    /// The instant `text` names, or `nil` when it is not an RFC 3339 date-time.
    public static func parse(_ text: String) -> Date? {
        var utf8 = Array(text.utf8)[...]
        func number(_ digits: Int) -> Int? {
            guard utf8.count >= digits else { return nil }
            var value = 0
            for byte in utf8.prefix(digits) {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            utf8 = utf8.dropFirst(digits)
            return value
        }
        func literal(_ options: String) -> Bool {
            guard let byte = utf8.first, options.utf8.contains(byte) else { return false }
            utf8 = utf8.dropFirst()
            return true
        }
        guard let year = number(4), literal("-"), let month = number(2), literal("-"), let day = number(2),
            literal("Tt"), let hour = number(2), literal(":"), let minute = number(2), literal(":"), let second = number(2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60,
            second <= 60
        else { return nil }
        var fraction = 0.0
        if literal(".") {
            var scale = 0.1
            var digits = 0
            while let byte = utf8.first, (0x30...0x39).contains(byte) {
                fraction += Double(byte - 0x30) * scale
                scale /= 10
                digits += 1
                utf8 = utf8.dropFirst()
            }
            guard (1...9).contains(digits) else { return nil }
        }
        var offset = 0
        if !literal("Zz") {
            guard let sign = utf8.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
            utf8 = utf8.dropFirst()
            guard let hours = number(2), literal(":"), let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offset = (hours * 60 + minutes) * 60 * (sign == UInt8(ascii: "-") ? -1 : 1)
        }
        guard utf8.isEmpty else { return nil }
        let days = CivilDays.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// `2024-06-01T08:00:00Z`, or `2024-06-01T08:00:00.250Z` when the instant, rounded to
    /// the millisecond (what content keys keep of it), has a fraction. Years 0000–9999: an
    /// instant outside them (an absurd stored value) is written as the nearest one they hold.
    /// Written by hand: a Foundation formatter costs microseconds to make and format with,
    /// and the sync and the change feed write two instants per sample.
    public static func format(_ date: Date) -> String {
        let supported = CivilDays.supportedSeconds
        let instant = min(max(date.timeIntervalSince1970, supported.lowerBound), supported.upperBound + 0.999)
        let milliseconds = Int64(roundingSaturating: instant * 1000) ?? 0
        let (seconds, fraction) = (milliseconds.floorDivided(by: 1000), milliseconds.floorModulo(1000))
        let (days, secondOfDay) = (Int(seconds.floorDivided(by: 86_400)), Int(seconds.floorModulo(86_400)))
        let (year, month, day) = CivilDays.date(days)
        var bytes = [UInt8]()
        bytes.reserveCapacity(24)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        digits(min(max(year, 0), 9999), 4)
        bytes.append(UInt8(ascii: "-"))
        digits(month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(day, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2)
        if fraction != 0 {
            bytes.append(UInt8(ascii: "."))
            digits(Int(fraction), 3)
        }
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    fileprivate func floorModulo(_ divisor: Int64) -> Int64 { self - floorDivided(by: divisor) * divisor }
}

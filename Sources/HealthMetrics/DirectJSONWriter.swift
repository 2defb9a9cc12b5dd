import Foundation

/// JSON written byte by byte, exactly as `JSONEncoder` with sorted keys, unescaped slashes
/// and `.iso8601` instants writes the same values — for the answers a server writes
/// thousands of times a second, where `JSONEncoder`'s generic containers cost more than
/// the rest of the request. The caller writes keys in sorted order. `covered` turns false
/// at the first value this writer leaves to `JSONEncoder` (a string with a character JSON
/// escapes, an instant before 1900 or from 10000 on, a figure that is not finite); the
/// caller then encodes the whole value with `JSONEncoder`, so the bytes — and its errors —
/// are always the encoder's.
package struct DirectJSONWriter {
    package var bytes: [UInt8] = []
    package private(set) var covered = true

    package init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// `values` as a JSON array, each written by `write`; `nil` at the first value the
    /// writer does not cover (the caller then encodes them all with `JSONEncoder`).
    package static func array<Value>(
        _ values: [Value], bytesEach: Int, _ write: (inout DirectJSONWriter, Value) -> Void
    ) -> Data? {
        var writer = DirectJSONWriter(capacity: values.count * bytesEach + 2)
        writer.byte(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { writer.byte(UInt8(ascii: ",")) }
            write(&writer, value)
            guard writer.covered else { return nil }
        }
        writer.byte(UInt8(ascii: "]"))
        return Data(writer.bytes)
    }

    package mutating func byte(_ value: UInt8) { bytes.append(value) }

    package mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `,"key":` — or without the comma for an object's first key.
    package mutating func key(_ name: StaticString, first: Bool = false) {
        if !first { byte(UInt8(ascii: ",")) }
        byte(UInt8(ascii: "\""))
        raw(name)
        raw("\":")
    }

    /// An object's opening brace and first key.
    package mutating func object(firstKey name: StaticString) {
        byte(UInt8(ascii: "{"))
        key(name, first: true)
    }

    /// A string of characters `JSONEncoder` writes as they are: printable ASCII other than
    /// `"` and `\`, and any non-ASCII character.
    package mutating func string(_ value: String?) {
        guard var value else { return raw("null") }
        byte(UInt8(ascii: "\""))
        value.withUTF8 { utf8 in
            if utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                covered = false
            }
            bytes.append(contentsOf: utf8)
        }
        byte(UInt8(ascii: "\""))
    }

    package mutating func strings(_ values: [String]) {
        byte(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            string(value)
        }
        byte(UInt8(ascii: "]"))
    }

    package mutating func boolean(_ value: Bool) { value ? raw("true") : raw("false") }

    package mutating func integer(_ value: Int?) {
        guard let value else { return raw("null") }
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A finite figure as Swift describes it, `.0` dropped — `JSONEncoder`'s own text.
    package mutating func number(_ value: Double?) {
        guard let value else { return raw("null") }
        guard value.isFinite else {
            covered = false
            return
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// `2024-06-01T08:00:00Z`: the second the instant falls in (`.iso8601` drops the
    /// fraction). Before 1900 `JSONEncoder`'s calendar is not the proleptic Gregorian one
    /// (it turns Julian in 1582), so earlier and absurd instants are left to it.
    package mutating func instant(_ date: Date) {
        let interval = date.timeIntervalSince1970
        guard interval >= -2_208_988_800, interval < 253_402_300_800 else {
            covered = false
            return
        }
        let seconds = Int(interval.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = CivilDays.date(days)
        byte(UInt8(ascii: "\""))
        digits(year, 4)
        byte(UInt8(ascii: "-"))
        digits(month, 2)
        byte(UInt8(ascii: "-"))
        digits(day, 2)
        byte(UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2)
        byte(UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2)
        byte(UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2)
        raw("Z\"")
    }

    private mutating func digits(_ value: Int, _ count: Int) {
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        while divisor > 0 {
            byte(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}

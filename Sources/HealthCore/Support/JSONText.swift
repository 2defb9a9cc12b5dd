import Foundation

/// JSON text for the few columns that hold structure (verbatim elements, ECG headers,
/// a workout's details in PostgreSQL): sorted keys, so equal values give equal text.
package enum JSONText {
    package static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    package static func decode<T: Decodable>(_ type: T.Type, from json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    /// `value` as `encoder` writes it (pretty printed, for people), with every empty array
    /// and object as `[]` and `{}`: some Foundations print them `[\n\n]`.
    package static func pretty<T: Encodable>(_ value: T, encoder: JSONEncoder) throws -> String {
        collapsingEmpty(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// `text` (JSON) with the white space inside empty arrays and objects removed; strings
    /// are left as they are.
    package static func collapsingEmpty(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var (index, inString, escaped) = (0, false, false)
        while index < bytes.count {
            let byte = bytes[index]
            out.append(byte)
            index += 1
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                var next = index
                while next < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[next]) { next += 1 }
                let close: UInt8 = byte == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")
                if next > index, next < bytes.count, bytes[next] == close {
                    out.append(close)
                    index = next + 1
                }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

import Foundation

/// JSON for people: what an encoder with `.prettyPrinted` writes, with every empty array and
/// object as `[]` and `{}` (some Foundations print them `[\n\n]`). The CLI prints its JSON
/// through it, and so does code that must print exactly what the CLI prints.
///
/// ```swift
/// let encoder = JSONEncoder()
/// encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
/// print(try PrettyJSON.text(nights, encoder: encoder))   // "naps" : []
/// ```
public enum PrettyJSON {
    /// `value` as `encoder` writes it (pretty printed, for people), with every empty array
    /// and object as `[]` and `{}`: some Foundations print them `[\n\n]`.
    public static func text<T: Encodable>(_ value: T, encoder: JSONEncoder) throws -> String {
        collapsingEmpty(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// `text` (JSON) with the white space inside empty arrays and objects removed; strings
    /// are left as they are.
    public static func collapsingEmpty(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        var strings = JSONStringScanner()
        while index < bytes.count {
            let byte = bytes[index]
            out.append(byte)
            index += 1
            if strings.consume(byte) { continue }
            if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
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

/// Tells, byte by byte through JSON text, which bytes belong to a string (its quotes and
/// escapes included), so a scanner that looks for structure (`[`, `{`, `]`, `}`) can skip
/// them without decoding the text.
///
/// ```swift
/// var strings = JSONStringScanner()
/// for byte in json where !strings.consume(byte) {
///     // byte is structure, a number or white space
/// }
/// ```
public struct JSONStringScanner: Sendable {
    private var inString = false
    private var escaped = false

    public init() {}

    /// Reads `byte`, the next byte of the text: true when it is part of a string (an opening
    /// or closing quote, an escape, or a character inside), false when it is outside one.
    public mutating func consume(_ byte: UInt8) -> Bool {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
            return true
        }
        if byte == UInt8(ascii: "\"") {
            inString = true
            return true
        }
        return false
    }
}

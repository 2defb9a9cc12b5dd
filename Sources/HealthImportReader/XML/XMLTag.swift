import Foundation

/// A half-open range of bytes in the scanner's buffer, valid only during a callback.
struct ByteRange: Sendable {
    var start: Int
    var end: Int
    var count: Int { end - start }
}

/// One attribute of a start tag: raw byte ranges, decoded on demand.
struct XMLAttribute: Sendable {
    var name: ByteRange
    var value: ByteRange
    var hasEntity: Bool
}

/// What a ``XMLScanner`` reports. Called synchronously while the bytes are in the buffer.
protocol XMLHandler {
    /// `true` while the handler wants character data between tags (GPX values).
    var wantsText: Bool { get }
    mutating func startElement(_ tag: XMLTag) throws
    mutating func endElement(_ tag: XMLTag) throws
    mutating func text(_ text: XMLText) throws
    mutating func comment(_ text: XMLText)
}

/// A start or end tag as the scanner saw it. Valid only during the callback.
struct XMLTag {
    let base: UnsafeMutableRawPointer
    let name: ByteRange
    let attributes: UnsafeBufferPointer<XMLAttribute>

    /// `true` when the tag's name is exactly `expected`.
    @inline(__always) func nameIs(_ expected: StaticString) -> Bool {
        XMLTag.equal(base, name, expected)
    }

    /// The tag's name as a `String`.
    var nameString: String {
        String(decoding: UnsafeRawBufferPointer(start: base + name.start, count: name.count), as: UTF8.self)
    }

    @inline(__always) func attributeNameIs(_ attribute: XMLAttribute, _ expected: StaticString) -> Bool {
        XMLTag.equal(base, attribute.name, expected)
    }

    func attributeName(_ attribute: XMLAttribute) -> String {
        String(decoding: bytes(attribute.name), as: UTF8.self)
    }

    /// The attribute's value with entities decoded.
    func value(_ attribute: XMLAttribute) -> String {
        let raw = bytes(attribute.value)
        return attribute.hasEntity ? XMLEntities.decode(raw) : String(decoding: raw, as: UTF8.self)
    }

    /// The raw bytes of a range.
    @inline(__always) func bytes(_ range: ByteRange) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + range.start, count: range.count)
    }

    /// The first attribute named `name`.
    func attribute(_ name: StaticString) -> XMLAttribute? {
        attributes.first { attributeNameIs($0, name) }
    }

    /// All attributes as ordered key/value pairs, decoded.
    var allAttributes: [(String, String)] {
        attributes.map { (attributeName($0), value($0)) }
    }

    @inline(__always) static func equal(_ base: UnsafeMutableRawPointer, _ range: ByteRange, _ expected: StaticString) -> Bool {
        range.count == expected.utf8CodeUnitCount && memcmp(base + range.start, expected.utf8Start, range.count) == 0
    }
}

/// Character data or a comment, valid only during the callback.
struct XMLText {
    let base: UnsafeMutableRawPointer
    let range: ByteRange
    var raw = false

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base + range.start, count: range.count) }

    /// The text with entities decoded (CDATA stays raw).
    var string: String {
        raw ? String(decoding: bytes, as: UTF8.self) : XMLEntities.decode(bytes)
    }
}

/// Where in a document something happened.
struct XMLLocation: Hashable, Sendable, CustomStringConvertible {
    var byteOffset: Int64
    var line: Int

    var description: String { "line \(line), byte \(byteOffset)" }
}

/// A document that is not well-formed enough to read.
struct XMLScanError: Error, CustomStringConvertible {
    enum Kind {
        case malformed(String)
        case truncated(String)
        case unexpectedText
        case noRootElement
    }

    let kind: Kind
    let location: XMLLocation

    init(_ kind: Kind, at location: XMLLocation) {
        self.kind = kind
        self.location = location
    }

    var description: String {
        switch kind {
        case .malformed(let what): "malformed XML at \(location): \(what)"
        case .truncated(let what): "the file ends too early (truncated?) at \(location): \(what)"
        case .unexpectedText: "unexpected text outside the elements at \(location)"
        case .noRootElement: "no XML element found (the file is empty or not XML)"
        }
    }
}

/// XML entity decoding: the five named entities and numeric references. Unknown entities
/// are kept as written.
enum XMLEntities {
    static func decode(_ raw: UnsafeRawBufferPointer) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            guard byte == 38, let semicolon = (index + 1..<min(raw.count, index + 12)).first(where: { raw[$0] == 59 })
            else {
                output.append(byte)
                index += 1
                continue
            }
            let name = String(decoding: UnsafeRawBufferPointer(rebasing: raw[index + 1..<semicolon]), as: UTF8.self)
            if let decoded = decodeEntity(name) {
                output.append(contentsOf: decoded.utf8)
                index = semicolon + 1
            } else {
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func decodeEntity(_ name: String) -> String? {
        switch name {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let code =
                digits.hasPrefix("x") || digits.hasPrefix("X")
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return code.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
    }
}

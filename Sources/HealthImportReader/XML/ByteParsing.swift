import Foundation

/// Number parsing straight from bytes.
enum ByteParsing {
    private static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

    /// Parses a decimal number. Plain `-123.456` forms with at most 19 significant digits take
    /// the exact fast path (an integer mantissa ≤ 2^53 divided by an exact power of ten is
    /// correctly rounded); anything else goes through `strtod`.
    static func double(_ bytes: UnsafeRawBufferPointer) -> Double? {
        var index = 0
        let count = bytes.count
        guard count > 0 else { return nil }
        var negative = false
        if bytes[0] == 45 || bytes[0] == 43 {
            negative = bytes[0] == 45
            index = 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        var seenDigit = false
        var valid = index < count
        while index < count {
            let byte = bytes[index]
            if byte >= 48, byte <= 57 {
                seenDigit = true
                if digits < 19 {
                    mantissa = mantissa * 10 + UInt64(byte - 48)
                    if mantissa != 0 { digits += 1 }
                    if seenPoint { fractionDigits += 1 }
                } else {
                    valid = false
                    break
                }
            } else if byte == 46, !seenPoint {
                seenPoint = true
            } else {
                valid = false
                break
            }
            index += 1
        }
        // "." or "-." has no digit: not a number (the slow path says so, as `Double` does).
        if valid, seenDigit, mantissa < (1 << 53), fractionDigits <= 22 {
            let value = Double(mantissa) / powersOfTen[fractionDigits]
            return negative ? -value : value
        }
        return slow(bytes)
    }

    /// The number `bytes` spell when it is not finite (`inf`, `-Infinity`, `NaN`, `1e309`,
    /// a one and 400 zeros), else `nil`: what ``double(_:)`` refuses but a value that is no
    /// number at all. Any length (an attribute's value is at most 16 MB).
    static func nonFinite(_ bytes: UnsafeRawBufferPointer) -> Double? {
        guard let value = Double(String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)),
            !value.isFinite
        else { return nil }
        return value
    }

    private static func slow(_ bytes: UnsafeRawBufferPointer) -> Double? {
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }
}

/// Interns short strings read as bytes: exports repeat the same types, units, sources and
/// devices millions of times, and one shared `String` per distinct value saves an
/// allocation per attribute. Bounded: past `limit` distinct values it stops interning.
struct StringInterner {
    private struct Slot {
        var hash: UInt64
        var offset: Int
        var length: Int
        var string: String
    }

    private var slots: [Slot?]
    private var arena: [UInt8] = []
    private var used = 0
    private let limit: Int

    init(limit: Int = 1 << 14) {
        self.limit = limit
        slots = Array(repeating: nil, count: limit * 2)
    }

    /// FNV-1a over 8-byte words, then over the last bytes one by one.
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var index = 0
        while index + 8 <= bytes.count {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x100_0000_01b3
            hash ^= hash >> 29
            index += 8
        }
        while index < bytes.count {
            hash = (hash ^ UInt64(bytes[index])) &* 0x100_0000_01b3
            index += 1
        }
        return hash
    }

    mutating func string(_ bytes: UnsafeRawBufferPointer) -> String {
        guard bytes.count <= 256 else { return String(decoding: bytes, as: UTF8.self) }
        let hash = StringInterner.hash(bytes)
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while let slot = slots[index] {
            if slot.hash == hash, slot.length == bytes.count {
                if slot.length == 0 { return slot.string }
                let equal = arena.withUnsafeBufferPointer {
                    memcmp($0.baseAddress! + slot.offset, bytes.baseAddress!, slot.length) == 0
                }
                if equal { return slot.string }
            }
            index = (index + 1) & mask
        }
        let string = String(decoding: bytes, as: UTF8.self)
        if used < limit {
            let offset = arena.count
            arena.append(contentsOf: bytes)
            slots[index] = Slot(hash: hash, offset: offset, length: bytes.count, string: string)
            used += 1
        }
        return string
    }
}

/// Up to 32 bytes kept inline (no allocation): the text of the last value parsed, so that
/// the same text written again — a sample's `endDate` that is its `startDate` — is
/// recognised with one comparison instead of being parsed again.
struct ShortBytes {
    private var storage: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    /// The bytes kept, or -1 when none are.
    private var count = -1

    /// Whether `bytes` are the bytes kept.
    func equals(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == count else { return false }
        guard count > 0 else { return true }
        return withUnsafeBytes(of: storage) { memcmp($0.baseAddress!, bytes.baseAddress!, count) == 0 }
    }

    /// Keeps `bytes`, or nothing when they are longer than 32.
    mutating func set(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count <= 32 else {
            count = -1
            return
        }
        withUnsafeMutableBytes(of: &storage) {
            UnsafeMutableRawBufferPointer(rebasing: $0[..<bytes.count]).copyMemory(from: bytes)
        }
        count = bytes.count
    }
}

/// A stable 128-bit content key (MurmurHash3 x64-128 over a canonical byte encoding of a
/// record's fields). Two records with the same key are the same record: stores keep one.
///
/// The key leaves out what changes between exports of the same data: the `0x…` address in
/// the device string and the offset timestamps are written with (instants are used).
public struct ContentKey: Hashable, Sendable, CustomStringConvertible {
    public let high: UInt64
    public let low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// 16 bytes, big-endian, for storage.
    public var bytes: [UInt8] {
        (0..<16).map { index in
            let word = index < 8 ? high : low
            return UInt8(truncatingIfNeeded: word >> (UInt64(7 - index % 8) * 8))
        }
    }

    public var description: String {
        bytes.map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }
}

/// Builds a ``ContentKey`` field by field. Every field is length-prefixed, so `("ab","c")`
/// and `("a","bc")` differ.
public struct ContentKeyBuilder: Sendable {
    private var bytes: [UInt8] = []

    public init(tag: String) {
        bytes.reserveCapacity(512)
        add(tag)
    }

    init(tag: String, _ text: String) {
        self.init(tag: tag)
        add(text)
    }

    public mutating func add(_ text: String?) {
        guard let text else {
            bytes.append(0xFF)
            return
        }
        var copy = text
        copy.withUTF8 { utf8 in
            appendLength(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    public mutating func add(_ number: Int64?) {
        guard let number else {
            bytes.append(0xFE)
            return
        }
        bytes.append(0x01)
        withUnsafeBytes(of: number.littleEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func add(_ key: ContentKey) {
        add(Int64(bitPattern: key.high))
        add(Int64(bitPattern: key.low))
    }

    private mutating func appendLength(_ count: Int) {
        var value = UInt32(count)
        bytes.append(0x02)
        repeat {
            bytes.append(UInt8(value & 0x7F))
            value >>= 7
        } while value != 0
    }

    public func finish() -> ContentKey {
        bytes.withUnsafeBufferPointer { MurmurHash3.hash128(UnsafeRawBufferPointer($0)) }
    }
}

/// MurmurHash3 x64-128 (public domain, Austin Appleby), seed 0.
enum MurmurHash3 {
    static func hash128(_ data: UnsafeRawBufferPointer, seed: UInt64 = 0) -> ContentKey {
        let c1: UInt64 = 0x87c3_7b91_1142_53d5
        let c2: UInt64 = 0x4cf5_ad43_2745_937f
        var h1 = seed
        var h2 = seed
        let length = data.count
        let blocks = length / 16
        for block in 0..<blocks {
            var k1 = data.loadUnaligned(fromByteOffset: block * 16, as: UInt64.self).littleEndian
            var k2 = data.loadUnaligned(fromByteOffset: block * 16 + 8, as: UInt64.self).littleEndian
            k1 &*= c1; k1 = rotl(k1, 31); k1 &*= c2; h1 ^= k1
            h1 = rotl(h1, 27); h1 &+= h2; h1 = h1 &* 5 &+ 0x52dc_e729
            k2 &*= c2; k2 = rotl(k2, 33); k2 &*= c1; h2 ^= k2
            h2 = rotl(h2, 31); h2 &+= h1; h2 = h2 &* 5 &+ 0x3849_5ab5
        }
        let tail = blocks * 16
        var k1: UInt64 = 0
        var k2: UInt64 = 0
        let rest = length & 15
        if rest > 8 {
            for index in stride(from: rest - 1, through: 8, by: -1) {
                k2 ^= UInt64(data[tail + index]) << (UInt64(index - 8) * 8)
            }
            k2 &*= c2; k2 = rotl(k2, 33); k2 &*= c1; h2 ^= k2
        }
        if rest > 0 {
            for index in stride(from: min(rest, 8) - 1, through: 0, by: -1) {
                k1 ^= UInt64(data[tail + index]) << (UInt64(index) * 8)
            }
            k1 &*= c1; k1 = rotl(k1, 31); k1 &*= c2; h1 ^= k1
        }
        h1 ^= UInt64(length); h2 ^= UInt64(length)
        h1 &+= h2; h2 &+= h1
        h1 = fmix(h1); h2 = fmix(h2)
        h1 &+= h2; h2 &+= h1
        return ContentKey(high: h1, low: h2)
    }

    @inline(__always) private static func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }

    @inline(__always) private static func fmix(_ value: UInt64) -> UInt64 {
        var k = value
        k ^= k >> 33; k &*= 0xff51_afd7_ed55_8ccd
        k ^= k >> 33; k &*= 0xc4ce_b9fe_1a85_ec53
        k ^= k >> 33
        return k
    }
}

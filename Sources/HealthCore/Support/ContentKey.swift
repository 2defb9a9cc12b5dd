import Foundation

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
package struct ContentKeyBuilder: Sendable {
    private var bytes: [UInt8] = []

    package init(tag: String) {
        bytes.reserveCapacity(512)
        add(tag)
    }

    /// Empties the builder, keeping its storage, and starts a key tagged `tag`.
    package mutating func reset(tag: String) {
        bytes.removeAll(keepingCapacity: true)
        add(tag)
    }

    /// A builder of fields alone (no tag): for an encoding kept and appended to many keys
    /// with ``append(encoded:)``.
    init() {}

    /// The bytes added so far.
    var encoded: [UInt8] { bytes }

    /// Appends bytes another builder encoded: the same key as adding its fields here.
    mutating func append(encoded: [UInt8]) { bytes.append(contentsOf: encoded) }

    init(tag: String, _ text: String) {
        self.init(tag: tag)
        add(text)
    }

    package mutating func add(_ text: String?) {
        guard let text else {
            bytes.append(0xFF)
            return
        }
        // In place (a native string's bytes are contiguous); a copy was a retain a field.
        let appended: Void? = text.utf8.withContiguousStorageIfAvailable { utf8 in
            appendLength(utf8.count)
            bytes.append(contentsOf: utf8)
        }
        guard appended == nil else { return }
        var copy = text
        copy.withUTF8 { utf8 in
            appendLength(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    package mutating func add(_ number: Int64?) {
        guard let number else {
            bytes.append(0xFE)
            return
        }
        bytes.append(0x01)
        withUnsafeBytes(of: number.littleEndian) { bytes.append(contentsOf: $0) }
    }

    package mutating func add(_ key: ContentKey) {
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

    package func finish() -> ContentKey {
        bytes.withUnsafeBufferPointer { MurmurHash3.hash128(UnsafeRawBufferPointer($0)) }
    }
}

/// MurmurHash3 x64-128 (public domain, Austin Appleby), seed 0.
enum MurmurHash3 {
    static func hash128(_ data: UnsafeRawBufferPointer) -> ContentKey {
        var hasher = StreamingContentHash()
        hasher.update(data)
        return hasher.finish()
    }
}

/// MurmurHash3 x64-128 over bytes fed in pieces of any size: the same key as hashing them
/// all at once. Imports hash what they read with it as they read it (file fingerprints).
package struct StreamingContentHash: Sendable {
    private static let c1: UInt64 = 0x87c3_7b91_1142_53d5
    private static let c2: UInt64 = 0x4cf5_ad43_2745_937f
    private var h1: UInt64 = 0
    private var h2: UInt64 = 0
    private var length = 0
    /// Bytes of an unfinished 16-byte block.
    private var pending: (UInt64, UInt64) = (0, 0)
    private var pendingCount = 0

    package init() {}

    /// Hashes `data` after everything fed before.
    package mutating func update(_ data: UnsafeRawBufferPointer) {
        guard !data.isEmpty else { return }
        length += data.count
        var offset = 0
        if pendingCount > 0 {
            while pendingCount < 16, offset < data.count {
                addPending(data[offset])
                offset += 1
            }
            guard pendingCount == 16 else { return }
            mix(pending.0, pending.1)
            pending = (0, 0)
            pendingCount = 0
        }
        let blocks = (data.count - offset) / 16
        for block in 0..<blocks {
            let at = offset + block * 16
            mix(
                data.loadUnaligned(fromByteOffset: at, as: UInt64.self).littleEndian,
                data.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self).littleEndian)
        }
        offset += blocks * 16
        while offset < data.count {
            addPending(data[offset])
            offset += 1
        }
    }

    /// Hashes `bytes` after everything fed before.
    package mutating func update<Bytes: ContiguousBytes>(_ bytes: Bytes) {
        bytes.withUnsafeBytes { update($0) }
    }

    private mutating func addPending(_ byte: UInt8) {
        if pendingCount < 8 {
            pending.0 |= UInt64(byte) << (UInt64(pendingCount) * 8)
        } else {
            pending.1 |= UInt64(byte) << (UInt64(pendingCount - 8) * 8)
        }
        pendingCount += 1
    }

    @inline(__always) private mutating func mix(_ block1: UInt64, _ block2: UInt64) {
        var k1 = block1
        var k2 = block2
        k1 &*= Self.c1; k1 = Self.rotl(k1, 31); k1 &*= Self.c2; h1 ^= k1
        h1 = Self.rotl(h1, 27); h1 &+= h2; h1 = h1 &* 5 &+ 0x52dc_e729
        k2 &*= Self.c2; k2 = Self.rotl(k2, 33); k2 &*= Self.c1; h2 ^= k2
        h2 = Self.rotl(h2, 31); h2 &+= h1; h2 = h2 &* 5 &+ 0x3849_5ab5
    }

    /// The key of everything fed.
    package func finish() -> ContentKey {
        var h1 = self.h1
        var h2 = self.h2
        var (k1, k2) = pending
        if pendingCount > 8 {
            k2 &*= Self.c2; k2 = Self.rotl(k2, 33); k2 &*= Self.c1; h2 ^= k2
        }
        if pendingCount > 0 {
            k1 &*= Self.c1; k1 = Self.rotl(k1, 31); k1 &*= Self.c2; h1 ^= k1
        }
        h1 ^= UInt64(length); h2 ^= UInt64(length)
        h1 &+= h2; h2 &+= h1
        h1 = Self.fmix(h1); h2 = Self.fmix(h2)
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

extension ContentKey {
    /// The key a sample with a writer-given `uuid` is stored under when another writer-given
    /// UUID's sample already holds the same content (two glasses of water in one minute are
    /// two samples): this key and `uuid`, hashed. Resending the sample finds it again.
    public func distinguished(by uuid: UUID) -> ContentKey {
        var builder = ContentKeyBuilder(tag: "GivenUUID")
        builder.add(self)
        builder.add(uuid.uuidString)
        return builder.finish()
    }
}

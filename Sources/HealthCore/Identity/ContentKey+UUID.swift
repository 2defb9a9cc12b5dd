import Foundation

/// Deterministic sample UUIDs (docs/store.md §Identity).
///
/// A record read from an Apple export carries no UUID, so its UUID is derived from its
/// content key: an RFC 9562 **version 8** UUID whose 122 free bits are the first 122 bits
/// of the key — for samples the 16-bit type tag and the 48-bit start second, then 58 bits
/// of the MurmurHash3 content hash. The namespace is the key's own: every key is hashed
/// from a canonical encoding that starts with the record family's tag (`sample`,
/// `workout`, `correlation`, …), so no other scheme produces these UUIDs by accident.
/// The same record in two overlapping exports, in a re-import, on a server and on a
/// client gets the same UUID, and UUIDs sort like keys (by type, then start).
///
/// The 6 key bits a UUID leaves out make the mapping many-to-one in principle: the 64 keys
/// that share the UUID's bits form one contiguous run (``keyRange(of:)``), which a store
/// searches with one index range scan.
extension ContentKey {
    /// The version-8 UUID derived from this key.
    public var uuid: UUID {
        let high = (self.high & 0xFFFF_FFFF_FFFF_0000) | 0x8000 | ((self.high >> 4) & 0x0FFF)
        let low = 0x8000_0000_0000_0000 | ((self.high & 0xF) << 58) | (self.low >> 6)
        return UUID(high: high, low: low)
    }

    /// The run of keys whose ``uuid`` is `uuid` (`nil` when `uuid` is not a version-8,
    /// RFC 9562-variant UUID, so no key derives it).
    public static func keyRange(of uuid: UUID) -> ClosedRange<ContentKey>? {
        let (high, low) = uuid.words
        guard high & 0xF000 == 0x8000, low >> 62 == 0b10 else { return nil }
        let keyHigh = (high & 0xFFFF_FFFF_FFFF_0000) | ((high & 0x0FFF) << 4) | ((low >> 58) & 0xF)
        let keyLow = (low & 0x03FF_FFFF_FFFF_FFFF) << 6
        return ContentKey(high: keyHigh, low: keyLow)...ContentKey(high: keyHigh, low: keyLow | 0x3F)
    }
}

extension ContentKey: Comparable {
    /// Keys compare like their stored bytes (big-endian).
    public static func < (lhs: ContentKey, rhs: ContentKey) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }
}

extension UUID {
    /// A UUID from its two big-endian 64-bit halves.
    public init(high: UInt64, low: UInt64) {
        let h = high.bigEndian
        let l = low.bigEndian
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            raw.storeBytes(of: h, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: l, toByteOffset: 8, as: UInt64.self)
        }
        self.init(uuid: bytes)
    }

    /// The two big-endian 64-bit halves.
    public var words: (high: UInt64, low: UInt64) {
        withUnsafeBytes(of: uuid) { raw in
            (
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
        }
    }

    /// The 16 bytes, for storage.
    public var bytes: [UInt8] { withUnsafeBytes(of: uuid) { Array($0) } }

    /// A UUID from 16 stored bytes (`nil` for any other length).
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &value) { raw in raw.copyBytes(from: bytes) }
        self.init(uuid: value)
    }

    /// A name-based UUID in the same scheme as derived sample UUIDs, for identifiers
    /// writers give that are not UUIDs (a Health Auto Export workout `id`).
    public static func derived(from name: String, namespace: String) -> UUID {
        var builder = ContentKeyBuilder(tag: "name")
        builder.add(namespace)
        builder.add(name)
        return builder.finish().uuid
    }
}

extension Audiogram {
    /// The audiogram's identity: the UUID its writer gave its sample, else the one derived
    /// from its content key.
    public var uuid: UUID { sample.givenUUID ?? contentKey.uuid }
}

extension Electrocardiogram {
    /// The recording's identity, derived from its content key.
    public var uuid: UUID { contentKey.uuid }
}

extension ClinicalRecord {
    /// The record's identity, derived from its content key.
    public var uuid: UUID { contentKey.uuid }
}

extension HealthRecord {
    /// The identity of a record that is a sample in HealthKit's model (`nil` for activity
    /// summaries and unmodelled elements).
    public var uuid: UUID? {
        switch self {
        case .sample(let sample): sample.uuid
        case .correlation(let correlation): correlation.uuid
        case .workout(let workout): workout.uuid
        case .audiogram(let audiogram): audiogram.uuid
        case .electrocardiogram(let ecg): ecg.uuid
        case .clinicalRecord(let record): record.uuid
        case .activitySummary, .other: nil
        }
    }
}

extension ContentKey {
    /// A key from its 16 stored (big-endian) bytes; `nil` for any other length.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        let array = Array(bytes)
        let high = array[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let low = array[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        self.init(high: high, low: low)
    }
}

import Foundation

/// A store that can be written to, deleted from and observed: the SQLite store and
/// ``InMemoryHealthStore`` implement it with the same semantics (docs/store.md §Identity
/// and deletions), so pipelines and tests can use either.
///
/// - **Identity.** A sample whose content is stored already is a duplicate — unless both
///   carry writer-given UUIDs and they differ: two glasses of water logged in the same
///   minute are two samples, and a given UUID is never merged into another's row. A sample
///   with a given UUID and the content of an export's record (no UUID of its own) is a
///   duplicate of it. A sample with a writer-given UUID that is
///   stored with other content *replaces* it (a deletion, then an addition, in one write);
///   one stored — or deleted — as a sample of another type is refused
///   (``SampleIdentityError``): a UUID names samples of one type only, as in HealthKit, so
///   a client keying its replica by UUID while following per-type feeds stays exact.
/// - **Deletions** leave a tombstone in the anchor sequence of additions. A deleted sample
///   that arrives again later is stored again, with a new anchor: the feed then shows the
///   deletion and the new addition, in that order, and a client following it ends with the
///   sample, as the writer who re-sent it intended.
public protocol MutableHealthStore: HealthQuerying {
    /// Stores `samples`, in order; returns how many were new (added or replacing).
    @discardableResult
    func add(_ samples: [Sample]) async throws -> Int

    /// Deletes the samples with these UUIDs (with everything attached to them).
    func delete(uuids: [UUID]) async throws -> DeletionReport

    /// Deletes the samples of `type` overlapping `interval` (``Sample/overlaps(_:)``),
    /// only those of the source named `source` when it is given.
    func delete(_ type: SampleType, overlapping interval: DateInterval, source: String?) async throws -> DeletionReport

    /// Notices of committed changes to any of `types` (every type when `nil`): one per
    /// write transaction that changed one of them, for as long as the sequence is iterated.
    func observe(_ types: Set<SampleType>?) -> ChangeNotices
}

/// What a deletion did.
public struct DeletionReport: Hashable, Sendable, Codable {
    /// The UUIDs deleted, in the order asked (by range: in anchor order), followed by those
    /// of correlation members deleted with their correlation.
    public var deleted: [UUID]
    /// UUIDs asked for that are not stored (never were, or deleted already): nothing done.
    public var unknown: [UUID]
    /// Deleted samples per type identifier.
    public var deletedByType: [String: Int]
    /// From the earliest start to the latest end of the samples deleted (the days whose
    /// figures change); `nil` when nothing was deleted.
    public var span: DateInterval?
    /// Each deleted sample's start to end, in ``deleted``'s order: the days that change,
    /// without the gaps between them that ``span`` covers. Not encoded.
    public var intervals: [DateInterval] = []
    /// Each deleted sample's type, in ``deleted``'s order. Not encoded.
    public var deletedTypes: [SampleType] = []

    enum CodingKeys: String, CodingKey {
        case deleted, unknown, deletedByType, span
    }

    /// Records one deleted sample.
    public mutating func add(_ uuid: UUID, type: SampleType, start: Date, end: Date) {
        deleted.append(uuid)
        deletedTypes.append(type)
        deletedByType[type.identifier, default: 0] += 1
        intervals.append(DateInterval(start: start, end: max(start, end)))
        let lower = min(span?.start ?? start, start)
        span = DateInterval(start: lower, end: max(span?.end ?? end, end, lower))
    }

    public init(deleted: [UUID] = [], unknown: [UUID] = [], deletedByType: [String: Int] = [:]) {
        self.deleted = deleted
        self.unknown = unknown
        self.deletedByType = deletedByType
    }
}

/// A writer-given UUID that names a stored sample of another type. The write is refused
/// (a batch: entirely). The message names the UUID and the type, never a value.
public struct SampleIdentityError: Error, CustomStringConvertible, Sendable {
    public var uuid: UUID
    /// The type of the sample that was refused.
    public var type: SampleType

    public init(uuid: UUID, type: SampleType) {
        self.uuid = uuid
        self.type = type
    }

    public var description: String {
        "uuid \(uuid.uuidString) names a stored sample of another type than \(type.identifier): a UUID names one sample"
    }
}

extension DeletionReport {
    /// Throws ``SampleIdentityError`` when a UUID in `expected` was deleted as a sample of
    /// another type than the one named: inside the write's transaction, nothing is deleted
    /// then (a sync item "delete this step count" never removes a night's sleep).
    public func requireTypes(_ expected: [UUID: SampleType]) throws {
        guard !expected.isEmpty else { return }
        for (uuid, type) in zip(deleted, deletedTypes) {
            if let named = expected[uuid], named != type { throw SampleIdentityError(uuid: uuid, type: named) }
        }
    }
}

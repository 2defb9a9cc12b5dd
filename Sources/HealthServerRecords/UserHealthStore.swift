import Foundation
import HealthCore
import HealthImport

/// One person's health store as the server and the CLI use it: a SQLite file of their own
/// (``HealthDatabase``) or their rows in a PostgreSQL database (``PostgresHealthStore``),
/// with the same semantics (docs/store.md). Which of the two is chosen once, where the store
/// is opened (the server's ``UserHealthStores``, the CLI's `StoreOptions`); everything after
/// uses this port.
public protocol UserHealthStore: DirtySpanTracking {
    /// The samples: the read port and its writes.
    var queries: any MutableHealthStore { get }
    /// The app's own records: daily log, planned workouts, coach interactions.
    var appData: any AppDataRepository { get }
    /// Applies `writes` in order in one transaction (all or nothing): records stored with
    /// the identity rules, deletions by UUID. A UUID named as another type throws
    /// ``SampleIdentityError``. Then `check` is given what was done, still in the
    /// transaction: when it throws (a token that may not delete a kind it found), nothing
    /// is written and its error is thrown.
    func apply(
        _ writes: [HealthWrite], check: @escaping @Sendable (HealthWriteReport) throws -> Void
    ) async throws -> HealthWriteReport
    /// From the earliest start to the latest end of the samples; `nil` when empty.
    func storedSpan() async throws -> DateInterval?
    /// Imports an export file in one transaction.
    func importExport(
        path: String, options: HealthImporter.Options, progress: @escaping @Sendable (ImportProgress) -> Void
    ) async throws -> ImportSummary
}

extension UserHealthStore {
    /// ``apply(_:check:)`` without a check.
    public func apply(_ writes: [HealthWrite]) async throws -> HealthWriteReport {
        try await apply(writes, check: { _ in })
    }
}

/// One step of ``UserHealthStore/apply(_:check:)``.
public enum HealthWrite: Sendable {
    case records([HealthRecord])
    /// Deletions by UUID; a UUID given a type in `types` must be stored as that type, or
    /// the whole write is refused (``SampleIdentityError``).
    case delete([UUID], types: [UUID: SampleType] = [:])
    /// Records sync batch `batchID` with `sequence` as the device's last, in the same
    /// transaction, when the sequence is after the device's last or this is the last batch
    /// sent again; otherwise the whole write fails (``SequenceRefused``). A store whose
    /// transaction cannot reach the server's `device` table (SQLite: another file) skips it
    /// and leaves ``HealthWriteReport/sequenceAdvanced`` `nil`.
    case advanceSequence(deviceID: String, sequence: Int64, batchID: UUID, at: Date)
    /// Marks the spans of every record and deletion of this write dirty, in its transaction,
    /// their days in `zone` (``DirtySpan``): their days are computed after the commit, or by
    /// whoever finds the spans next if that fails (issue 32, H3).
    case markDirty(zone: String?)
}

extension HealthWrite {
    /// The spans of the records and deletions of `writes` (deletions' from their reports).
    package static func touched(_ writes: [HealthWrite], deletions: [DeletionReport]) -> [DateInterval] {
        var spans: [DateInterval] = deletions.flatMap(\.intervals)
        for case .records(let records) in writes {
            for record in records {
                switch record {
                case .sample(let sample): spans.append(DateInterval(start: sample.start, end: max(sample.start, sample.end)))
                case .workout(let workout):
                    spans.append(DateInterval(start: workout.start, end: max(workout.start, workout.end)))
                case .correlation(let correlation):
                    spans.append(DateInterval(start: correlation.start, end: max(correlation.start, correlation.end)))
                default: break
                }
            }
        }
        return spans
    }

    /// The zone of ``markDirty(zone:)`` when `writes` holds one.
    package static func dirtyZone(_ writes: [HealthWrite]) -> String?? {
        for case .markDirty(let zone) in writes { return .some(zone) }
        return nil
    }
}

/// What ``UserHealthStore/apply(_:check:)`` did.
public struct HealthWriteReport: Sendable {
    /// Records stored, and records that were stored already.
    public var added = 0
    public var duplicates = 0
    /// Records stored before without what this write gave them (a workout's route points).
    public var updated = 0
    /// One report per ``HealthWrite/delete(_:)``, in order.
    public var deletions: [DeletionReport] = []
    /// `true` when a ``HealthWrite/advanceSequence(deviceID:sequence:batchID:at:)`` was
    /// committed with the write; `nil` when the store left it to the caller.
    public var sequenceAdvanced: Bool?

    public init() {}
}

/// A sync batch's sequence that is not after its device's last (another batch with it, or a
/// later one, committed first): the batch's write is rolled back.
public struct SequenceRefused: Error {
    public init() {}
}

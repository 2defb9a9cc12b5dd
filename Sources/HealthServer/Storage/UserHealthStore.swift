import Foundation
import HealthCore
import HealthImport
import HealthPostgres
import HealthSQLite
import PostgresNIO

/// One user's samples as the routes use them: a SQLite file of their own
/// (``HealthDatabase``) or their rows in the shared PostgreSQL database
/// (``PostgresHealthStore``), with the same semantics (docs/store.md).
public protocol UserHealthStore: DirtySpanTracking {
    /// The queries (the read port).
    var queries: any HealthQuerying { get }
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
    static func touched(_ writes: [HealthWrite], deletions: [DeletionReport]) -> [DateInterval] {
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
    static func dirtyZone(_ writes: [HealthWrite]) -> String?? {
        for case .markDirty(let zone) in writes { return .some(zone) }
        return nil
    }
}

/// What ``UserHealthStore/apply(_:check:)`` did.
public struct HealthWriteReport: Sendable {
    /// Records stored, and records that were stored already.
    public var added = 0
    public var duplicates = 0
    /// One report per ``HealthWrite/delete(_:)``, in order.
    public var deletions: [DeletionReport] = []
    /// `true` when a ``HealthWrite/advanceSequence(deviceID:sequence:batchID:at:)`` was
    /// committed with the write; `nil` when the store left it to the caller.
    public var sequenceAdvanced: Bool?
}

/// A sync batch's sequence that is not after its device's last (another batch with it, or a
/// later one, committed first): the batch's write is rolled back.
public struct SequenceRefused: Error {}

extension HealthDatabase: UserHealthStore {
    public var queries: any HealthQuerying { store }
    public var appData: any AppDataRepository { SQLiteAppData(database: self) }

    public func apply(
        _ writes: [HealthWrite], check: @escaping @Sendable (HealthWriteReport) throws -> Void
    ) async throws -> HealthWriteReport {
        try await writeAsync { writer in
            var report = HealthWriteReport()
            for write in writes {
                switch write {
                case .records(let records): try writer.write(records)
                case .delete(let uuids, let types):
                    let deletion = try writer.delete(uuids: uuids)
                    try deletion.requireTypes(types)
                    report.deletions.append(deletion)
                case .advanceSequence: break  // `device` is in server.sqlite: the caller advances it
                case .markDirty: break  // once every step is done, below
                }
            }
            report.added = writer.added.values.reduce(0, +)
            report.duplicates = writer.duplicates.values.reduce(0, +)
            try check(report)
            if let zone = HealthWrite.dirtyZone(writes) {
                try writer.markDirty(
                    HealthWrite.touched(writes, deletions: report.deletions) + writer.replacedSpans, zone: zone)
            }
            return report
        }
    }

    public func storedSpan() async throws -> DateInterval? { try await store.storedSpan() }

    public func importExport(
        path: String, options: HealthImporter.Options, progress: @escaping @Sendable (ImportProgress) -> Void
    ) async throws -> ImportSummary {
        try await HealthImporter(database: self, options: options).run(path: path, progress: progress)
    }
}

extension PostgresHealthStore: UserHealthStore {
    public var queries: any HealthQuerying { self }
    public var appData: any AppDataRepository { PostgresAppData(store: self) }

    public func apply(
        _ writes: [HealthWrite], check: @escaping @Sendable (HealthWriteReport) throws -> Void
    ) async throws -> HealthWriteReport {
        try await write { writer in
            var report = HealthWriteReport()
            for write in writes {
                switch write {
                case .records(let records): try await writer.write(records)
                case .delete(let uuids, let types):
                    let deletion = try await writer.delete(uuids: uuids)
                    try deletion.requireTypes(types)
                    report.deletions.append(deletion)
                case .advanceSequence(let deviceID, let sequence, let batchID, let at):
                    // One conditional update, on the write's connection: the device's row stays
                    // locked until the commit, so a second batch with this sequence waits, then
                    // finds it taken (unless it is this very batch again).
                    let batch = batchID.uuidString.lowercased()
                    let rows = try await writer.execute(
                        """
                        UPDATE device SET last_sequence = \(sequence), last_batch_id = \(batch),
                            last_batch_at = \(at.timeIntervalSince1970)
                        WHERE id = \(deviceID) AND (last_sequence < \(sequence)
                            OR (last_sequence = \(sequence) AND last_batch_id = \(batch)))
                        RETURNING id
                        """)
                    guard rows == 1 else { throw SequenceRefused() }
                    report.sequenceAdvanced = true
                case .markDirty: break  // once every step is done, below
                }
            }
            try await writer.flush()
            report.added = writer.added.values.reduce(0, +)
            report.duplicates = writer.duplicates.values.reduce(0, +)
            try check(report)
            if let zone = HealthWrite.dirtyZone(writes) {
                try await writer.markDirty(
                    HealthWrite.touched(writes, deletions: report.deletions) + writer.replacedSpans, zone: zone)
            }
            return report
        }
    }

    public func importExport(
        path: String, options: HealthImporter.Options, progress: @escaping @Sendable (ImportProgress) -> Void
    ) async throws -> ImportSummary {
        try await HealthImporter(store: self, options: options).run(path: path, progress: progress)
    }
}

/// Every user's samples in one PostgreSQL database (`healthpipe serve --postgres`): no
/// file per user, so any number of servers can share the database.
public struct PostgresUserHealthStores: UserHealthStores {
    public let database: PostgresHealthDatabase

    /// The stores of the server's users: from here every write of `database` requires the
    /// user's row in `users` (``PostgresHealthDatabase/requireOwners(in:)``), so no server or
    /// CLI stores anything for a user deleted by another.
    public init(database: PostgresHealthDatabase) {
        self.database = database
        database.requireOwners(in: "users")
    }

    public func store(for userID: String) async throws -> any UserHealthStore { database.store(for: userID) }

    /// Deletes the user's rows of every health table in one transaction (no file: 0 bytes).
    public func deleteStore(for userID: String) async throws -> (samples: Int, bytes: Int64) {
        (try await database.deleteUser(userID), 0)
    }
}

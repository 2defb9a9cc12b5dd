import Foundation
import HealthCore
import HealthImport
import HealthPostgres
import HealthSQLite
import HealthServerRecords
import PostgresNIO

extension HealthDatabase: UserHealthStore {
    public var queries: any MutableHealthStore { store }
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
            report.updated = writer.updated.values.reduce(0, +)
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
    public var queries: any MutableHealthStore { self }
    public var appData: any AppDataRepository { PostgresAppData(store: self) }

    public func apply(
        _ writes: [HealthWrite], check: @escaping @Sendable (HealthWriteReport) throws -> Void
    ) async throws -> HealthWriteReport {
        if let report = try await applyInOneStatement(writes, check: check) { return report }
        return try await write { writer in
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
                    let advance = Self.sequenceGuard(deviceID: deviceID, sequence: sequence, batchID: batchID, at: at)
                    guard try await writer.execute(advance.query) == 1 else { throw SequenceRefused() }
                    report.sequenceAdvanced = true
                case .markDirty: break  // once every step is done, below
                }
            }
            try await writer.flush()
            report.added = writer.added.values.reduce(0, +)
            report.duplicates = writer.duplicates.values.reduce(0, +)
            report.updated = writer.updated.values.reduce(0, +)
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

    /// The update that advances a sync device's sequence to `sequence` when it is after its
    /// last, or is its last batch sent again; it returns the device's row when it did. One
    /// statement for the writer and the one-statement write, its values bound as text.
    private static func sequenceGuard(deviceID: String, sequence: Int64, batchID: UUID, at: Date) -> PostgresWriteGuard {
        PostgresWriteGuard(
            sql: """
                UPDATE device SET last_sequence = $1[2]::bigint, last_batch_id = $1[3],
                    last_batch_at = $1[4]::double precision
                WHERE id = $1[1] AND (last_sequence < $1[2]::bigint
                    OR (last_sequence = $1[2]::bigint AND last_batch_id = $1[3]))
                RETURNING id
                """,
            arguments: [deviceID, String(sequence), batchID.uuidString.lowercased(), "\(at.timeIntervalSince1970)"])
    }

    /// `writes` in one statement (``addNewSamples(_:dirty:guard:)``) when they add records that
    /// are all new, with at most a sequence to advance and no deletion; `nil` when they need
    /// the writer (nothing written then). The report is known before: every record added.
    private func applyInOneStatement(
        _ writes: [HealthWrite], check: @escaping @Sendable (HealthWriteReport) throws -> Void
    ) async throws -> HealthWriteReport? {
        var records: [HealthRecord] = []
        var sequenceGuard: PostgresWriteGuard?
        for write in writes {
            switch write {
            case .records(let batch): records += batch
            case .delete: return nil
            case .advanceSequence(let deviceID, let sequence, let batchID, let at):
                // The statement runs its guard before the rows, as the writer does when the
                // sequence comes first (as a sync batch sends it).
                guard sequenceGuard == nil, records.isEmpty else { return nil }
                sequenceGuard = Self.sequenceGuard(deviceID: deviceID, sequence: sequence, batchID: batchID, at: at)
            case .markDirty: break
            }
        }
        var report = HealthWriteReport()
        report.added = records.count
        report.sequenceAdvanced = sequenceGuard == nil ? nil : true
        // A check that refuses this report may accept the writer's (which knows duplicates).
        guard (try? check(report)) != nil else { return nil }
        let dirty = HealthWrite.dirtyZone(writes).map { (HealthWrite.touched(writes, deletions: []), $0) }
        do {
            guard try await addNewSamples(records, dirty: dirty, guard: sequenceGuard) != nil else { return nil }
        } catch is PostgresWriteGuardRefused {
            throw SequenceRefused()
        }
        return report
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

    /// One query over every user's spans.
    public func usersWithDirtySpans() async throws -> [String] {
        try await PostgresHealthStore.usersWithDirtySpans(in: database)
    }
}

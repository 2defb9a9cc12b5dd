import Foundation
import HealthCore
import HealthServerRecords
import HealthWire

/// Samples added to and deleted from a person's store, without HTTP: the routes of Health
/// Auto Export and `/v1/samples` decode and check the body, this writes it (in one
/// transaction, its spans marked dirty in it) and hands the person to the ``DayQueue``: the
/// days it touched are computed after the answer (``DayRecomputeService``), or by the next
/// read of them, whichever comes first.
struct SampleIntake: Sendable {
    let repositories: ServerRepositories
    let days: DayQueue

    /// Writes `records` into the user's store under the user's lock (a deletion of the user
    /// waits for it, or it finds the user gone: 401); their days are pending. A 403 writes
    /// nothing unless `user`'s token may write the kind of every record.
    func add(_ records: [HealthRecord], user: User, zone: TimeZone?) async throws -> IngestReport {
        try WritePermission.require(records: records, user: user)
        return try await repositories.writing(user.id) { database in
            let written: HealthWriteReport
            do {
                written = try await database.apply([.records(records), .markDirty(zone: zone?.identifier)])
            } catch let error as SampleIdentityError {
                throw Problem.unprocessable(error.description, pointer: "/samples")
            }
            days.add(user.id)
            var report = IngestReport(
                records: records.count, added: written.added, duplicates: written.duplicates, ignoredKeys: [],
                unknownMetrics: [], daysRecomputed: 0, daily: UpsertCounts(),
                daysPending: written.added > 0 ? true : nil)
            report.updated = written.updated > 0 ? written.updated : nil
            return report
        }
    }

    /// Deletes `uuids` from the user's store; the days they were on are pending. A 403
    /// deletes nothing unless `user`'s token may write the kind of every sample found.
    func delete(_ uuids: [UUID], user: User, zone: TimeZone?) async throws -> DeletionAnswer {
        try await repositories.writing(user.id) { (database) -> DeletionAnswer in
            let report = try await database.apply(
                [.delete(uuids), .markDirty(zone: zone?.identifier)], check: WritePermission.deletionCheck(user)
            ).deletions[0]
            days.add(user.id)
            return DeletionAnswer(
                deleted: report.deleted, unknown: report.unknown, deletedByType: report.deletedByType,
                daysRecomputed: 0, daily: UpsertCounts(), daysPending: report.deleted.isEmpty ? nil : true)
        }
    }
}

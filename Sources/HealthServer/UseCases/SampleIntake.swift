import Foundation
import HealthCore
import HealthServerRecords
import HealthWire

/// Samples added to and deleted from a person's store, without HTTP: the routes of Health
/// Auto Export and `/v1/samples` decode and check the body, this writes it (in one
/// transaction, its spans marked dirty in it) and computes the days it touched.
struct SampleIntake: Sendable {
    let repositories: ServerRepositories
    let recomputer: DayRecomputer

    /// Writes `records` into the user's store and recomputes their days, under the user's
    /// lock (a deletion of the user waits for both, or they find the user gone: 401). A 403
    /// writes nothing unless `user`'s token may write the kind of every record.
    func add(_ records: [HealthRecord], user: User, zone: TimeZone) async throws -> IngestReport {
        try WritePermission.require(records: records, user: user)
        return try await repositories.writing(user.id) { database in
            let written: HealthWriteReport
            do {
                written = try await database.apply([.records(records), .markDirty(zone: zone.identifier)])
            } catch let error as SampleIdentityError {
                throw Problem.unprocessable(error.description, pointer: "/samples")
            }
            let computed = await recomputer.computeDirtyDaysAfterCommit(userID: user.id, database: database)
            return IngestReport(
                records: records.count, added: written.added, duplicates: written.duplicates, ignoredKeys: [],
                unknownMetrics: [], daysRecomputed: computed?.0 ?? 0, daily: computed?.1 ?? UpsertCounts(),
                daysPending: computed == nil ? true : nil)
        }
    }

    /// Deletes `uuids` from the user's store and recomputes the days they were on; a 403
    /// deletes nothing unless `user`'s token may write the kind of every sample found.
    func delete(_ uuids: [UUID], user: User, zone: TimeZone) async throws -> DeletionAnswer {
        try await repositories.writing(user.id) { (database) -> DeletionAnswer in
            let report = try await database.apply(
                [.delete(uuids), .markDirty(zone: zone.identifier)], check: WritePermission.deletionCheck(user)
            ).deletions[0]
            let computed = await recomputer.computeDirtyDaysAfterCommit(
                userID: user.id, database: database)
            return DeletionAnswer(
                deleted: report.deleted, unknown: report.unknown, deletedByType: report.deletedByType,
                daysRecomputed: computed?.0 ?? 0, daily: computed?.1 ?? UpsertCounts(),
                daysPending: computed == nil ? true : nil)
        }
    }
}

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
    /// deletes nothing unless `user`'s token may write the kind of every sample found that it
    /// may read. A sample of a kind the token may neither write nor read is, to it, not there:
    /// it stays, and is answered as unknown (a 403 naming its kind would tell a coach's token
    /// that the person has such a sample).
    func delete(_ uuids: [UUID], user: User, zone: TimeZone?) async throws -> DeletionAnswer {
        let hidden = try await hiddenKinds(of: user)
        var unseen: Set<UUID> = []
        // Each try that finds a hidden sample is rolled back and the next asks without it; a
        // third would only meet samples stored with those UUIDs meanwhile.
        for _ in 0..<3 {
            do {
                var answer = try await delete(
                    uuids.filter { !unseen.contains($0) }, unseen: unseen, user: user, zone: zone, hidden: hidden)
                // In the order asked, the samples left out among those not stored.
                let position = Dictionary(uuids.enumerated().map { ($1, $0) }, uniquingKeysWith: min)
                answer.unknown.sort { position[$0, default: 0] < position[$1, default: 0] }
                return answer
            } catch let found as HiddenSamples {
                unseen.formUnion(found.uuids)
            }
        }
        throw WritePermission.refusal(user: user)
    }

    /// One try of ``delete(_:user:zone:)``: `unseen` (asked, left out) answered as unknown.
    private func delete(
        _ uuids: [UUID], unseen: Set<UUID>, user: User, zone: TimeZone?, hidden: Set<HealthDataCategory>
    ) async throws -> DeletionAnswer {
        try await repositories.writing(user.id) { (database) -> DeletionAnswer in
            let asked = Set(uuids)
            let report = try await database.apply(
                [.delete(uuids), .markDirty(zone: zone?.identifier)],
                check: { written in
                    for deletion in written.deletions {
                        let found = zip(deletion.deleted, deletion.deletedTypes)
                            .filter { hidden.contains(HealthDataCategory($0.1)) }.map(\.0)
                        // A correlation's members are deleted with it and not asked: the try
                        // without the hidden correlation leaves them too (a blood pressure,
                        // `other`, answered a 403 where an unknown UUID was a 200). Hidden members
                        // of a correlation the token may see: a 403 that names no kind.
                        let hiddenAsked = found.filter(asked.contains)
                        if !hiddenAsked.isEmpty { throw HiddenSamples(uuids: hiddenAsked) }
                        if !found.isEmpty { throw WritePermission.refusal(user: user) }
                    }
                    try WritePermission.deletionCheck(user)(written)
                }
            ).deletions[0]
            days.add(user.id)
            return DeletionAnswer(
                deleted: report.deleted, unknown: report.unknown + unseen,
                deletedByType: report.deletedByType,
                daysRecomputed: 0, daily: UpsertCounts(), daysPending: report.deleted.isEmpty ? nil : true)
        }
    }

    /// The kinds `user`'s token may neither write nor read (none for a token that writes every kind).
    private func hiddenKinds(of user: User) async throws -> Set<HealthDataCategory> {
        let writable = user.writableCategories
        guard writable.count < HealthDataCategory.allCases.count else { return [] }
        let readable =
            user.scopes.contains(.read)
            ? user.readableCategories(consent: try await repositories.web.consent(userID: user.id)) : []
        return Set(HealthDataCategory.allCases).subtracting(writable).subtracting(readable)
    }
}

/// Samples a deletion found of kinds its token may neither write nor read: the deletion is
/// rolled back and tried again without them.
private struct HiddenSamples: Error {
    let uuids: [UUID]
}

import HealthCore
import HealthServerRecords

/// Writing health data: the owner's token (with `write`) adds and deletes samples of every
/// kind; a scoped token only of the kinds the owner gave it write for (none: read-only).
/// Every request that adds or deletes samples needs the kinds of all of them, or is a 403
/// naming the kinds it may not write, and changes nothing.
enum WritePermission {
    /// The 403 of a deletion that found a sample its token may not write, when naming the
    /// sample's kind would tell more than the token may read.
    static func refusal(user: User) -> Problem {
        let token = user.isOwner ? "this token" : "the scoped token '\(user.token.name)'"
        return Problem(
            .forbidden, "Forbidden",
            detail:
                "this request deletes samples of kinds \(token) may not write; ask \(user.name) for a token with write for them")
    }

    /// A 403 unless `user`'s token may write every one of `kinds`, naming each it may not.
    static func require(_ kinds: Set<HealthDataCategory>, user: User) throws {
        let writable = user.writableCategories
        let missing = kinds.subtracting(writable)
        guard !missing.isEmpty else { return }
        let token = user.isOwner ? "this token" : "the scoped token '\(user.token.name)'"
        let writes = writable.isEmpty ? "is read-only" : "writes only \(HealthDataCategory.list(writable))"
        throw Problem(
            .forbidden, "Forbidden",
            detail: "this request writes \(HealthDataCategory.list(missing)), but \(token) \(writes); "
                + "ask \(user.name) for a token with write for those kinds")
    }

    /// A 403 unless `user`'s token may write the kinds of every one of `records`.
    static func require(records: [HealthRecord], user: User) throws {
        // The owner's full token writes everything: no need to look at each record.
        guard user.writableCategories.count < HealthDataCategory.allCases.count else { return }
        try require(Set(records.flatMap(Self.kinds(of:))), user: user)
    }

    /// The kinds a record carries: a sample's or a correlation's type (and its members'),
    /// a workout's, an activity summary's (rings), an ECG's (heart); everything else is `other`.
    static func kinds(of record: HealthRecord) -> Set<HealthDataCategory> {
        switch record {
        case .sample(let sample): return [HealthDataCategory(sample.type)]
        case .correlation(let correlation):
            return Set([HealthDataCategory(correlation.type)] + correlation.objects.map { HealthDataCategory($0.type) })
        case .workout: return [.workouts]
        case .activitySummary: return [.activity]
        case .electrocardiogram: return [.heart]
        case .clinicalRecord, .audiogram, .other: return [.other]
        }
    }

    /// For ``UserHealthStore/apply(_:check:)``: in the write's transaction, a 403 (and
    /// nothing written or deleted) unless `user`'s token may write the kind of every sample
    /// the write deleted — known only once found, since a deletion names only UUIDs.
    static func deletionCheck(_ user: User) -> @Sendable (HealthWriteReport) throws -> Void {
        { report in
            let types = report.deletions.flatMap { $0.deletedByType.keys }
            try Self.require(Set(types.map { HealthDataCategory(SampleType($0)) }), user: user)
        }
    }
}

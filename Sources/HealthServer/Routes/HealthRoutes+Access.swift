import HealthCore
import HealthServerRecords
import Hummingbird

/// Reading health data: a token reads a kind of data only when its `--types` list (if any)
/// names it and the person's consent allows it (``User/readableCategories(consent:)``).
extension HealthRoutes {
    /// What a reading request may see.
    struct ReadAccess {
        let user: User
        let consent: Consent?
        /// The kinds of data the token may read.
        let readable: Set<HealthDataCategory>

        /// A 403 unless every one of `needed` is readable; it names each missing kind and why.
        func require(_ needed: Set<HealthDataCategory>) throws {
            let missing = needed.subtracting(readable)
            guard !missing.isEmpty else { return }
            let reasons = missing.sorted().map { category in
                if let types = user.dataTypes, !types.contains(category) {
                    return "\(category.rawValue) (not in this token's types)"
                }
                if consent?.denied.contains(category) == true {
                    return "\(category.rawValue) (denied on the consent page)"
                }
                return "\(category.rawValue) (not granted on the consent page, /consent)"
            }
            throw Problem(
                .forbidden, "Forbidden",
                detail:
                    "this token may not read \(reasons.joined(separator: ", ")); ask the person, or use a token with those types")
        }

        /// The `types` query parameter (a comma list of kinds), each required; without it, every
        /// readable kind of `offered`, or a 403 when there is none.
        func requested(_ request: Request, offered: Set<HealthDataCategory>) throws -> Set<HealthDataCategory> {
            guard let text = request.uri.queryParameters["types"].map(String.init) else {
                let visible = offered.intersection(readable)
                if visible.isEmpty { try require(offered) }
                return visible
            }
            guard let asked = HealthDataCategory.parse(text), asked.isSubset(of: offered) else {
                throw Problem.badRequest("types must be a comma list of \(HealthDataCategory.list(offered))")
            }
            try require(asked)
            return asked
        }
    }

    /// The user (with the `read` scope) and what they may read.
    func readAccess(_ context: AuthenticatedContext) async throws -> ReadAccess {
        let user = try context.require(.read)
        let consent = try await repositories.web.consent(userID: user.id)
        return ReadAccess(user: user, consent: consent, readable: user.readableCategories(consent: consent))
    }

    /// `HealthPipe-Withheld: sleep,heart` on a response that left out kinds of data it would
    /// otherwise carry; no header when nothing was left out.
    static func withheldHeader(_ withheld: Set<HealthDataCategory>) -> HTTPFields {
        guard !withheld.isEmpty else { return [:] }
        return [HTTPFields.Element.Name("HealthPipe-Withheld")!: HealthDataCategory.list(withheld)]
    }
}

/// Writing health data: the owner's token (with `write`) adds and deletes samples of every
/// kind; a scoped token only of the kinds the owner gave it write for (none: read-only).
/// Every request that adds or deletes samples needs the kinds of all of them, or is a 403
/// naming the kinds it may not write, and changes nothing.
extension HealthRoutes {
    /// A 403 unless `user`'s token may write every one of `kinds`, naming each it may not.
    static func requireWrite(_ kinds: Set<HealthDataCategory>, user: User) throws {
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
    static func requireWrite(records: [HealthRecord], user: User) throws {
        // The owner's full token writes everything: no need to look at each record.
        guard user.writableCategories.count < HealthDataCategory.allCases.count else { return }
        try requireWrite(Set(records.flatMap(Self.kinds(of:))), user: user)
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
            try Self.requireWrite(Set(types.map { HealthDataCategory(SampleType($0)) }), user: user)
        }
    }
}

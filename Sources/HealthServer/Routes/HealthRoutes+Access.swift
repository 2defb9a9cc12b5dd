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
        let consent: Consent?
        if case .read(let read) = context.consent {
            consent = read
        } else {
            consent = try await repositories.web.consent(userID: user.id)
        }
        return ReadAccess(user: user, consent: consent, readable: user.readableCategories(consent: consent))
    }

    /// `HealthPipe-Withheld: sleep,heart` on a response that left out kinds of data it would
    /// otherwise carry; no header when nothing was left out.
    static func withheldHeader(_ withheld: Set<HealthDataCategory>) -> HTTPFields {
        guard !withheld.isEmpty else { return [:] }
        return [HTTPFields.Element.Name("HealthPipe-Withheld")!: HealthDataCategory.list(withheld)]
    }
}

import Foundation
import HealthCore

/// Someone the server holds data for.
public struct User: Hashable, Sendable, Codable {
    /// Stable id (a UUID); every stored row is keyed by it.
    public var id: String
    public var name: String
    public var scopes: Set<Scope>
    /// The kinds of health data the token may read (`--types`); `nil` for every kind. A
    /// token with a list reads only what the person also granted on the consent page; one
    /// without reads everything they have not denied there (``readableCategories(consent:)``).
    public var dataTypes: Set<HealthDataCategory>?
    public var createdAt: Date
    /// When the user's token was revoked; a revoked token never authenticates.
    public var revokedAt: Date?

    public init(
        id: String, name: String, scopes: Set<Scope>, dataTypes: Set<HealthDataCategory>? = nil, createdAt: Date,
        revokedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.scopes = scopes
        self.dataTypes = dataTypes
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    /// What this token may read, given the person's consent (`nil`: never decided). A token
    /// with a `--types` list — a dashboard's or a coach's — reads the types on its list that
    /// the person granted; the owner's full token reads every type they have not denied.
    public func readableCategories(consent: Consent?) -> Set<HealthDataCategory> {
        if let dataTypes { return dataTypes.intersection(consent?.granted ?? []) }
        return Set(HealthDataCategory.allCases).subtracting(consent?.denied ?? [])
    }

    /// What the dashboard may show this person: the types they granted (within the token's list).
    public func dashboardCategories(consent: Consent?) -> Set<HealthDataCategory> {
        (dataTypes ?? Set(HealthDataCategory.allCases)).intersection(consent?.granted ?? [])
    }
}

/// What a person decided on the consent page, the web analogue of HealthKit's read
/// authorization: per kind of data, granted or denied; kinds in neither set are undecided.
public struct Consent: Hashable, Sendable {
    public var granted: Set<HealthDataCategory>
    public var denied: Set<HealthDataCategory>
    /// When the person last saved the page.
    public var decidedAt: Date
    /// When the person last declined — denied a type, or answered "not now" to a prompt;
    /// the dashboard does not ask again before `declinedAt` + the re-prompt interval.
    public var declinedAt: Date?

    public init(granted: Set<HealthDataCategory>, denied: Set<HealthDataCategory>, decidedAt: Date, declinedAt: Date? = nil) {
        self.granted = granted
        self.denied = denied.subtracting(granted)
        self.decidedAt = decidedAt
        self.declinedAt = declinedAt
    }

    /// The kinds neither granted nor denied.
    public var undecided: Set<HealthDataCategory> {
        Set(HealthDataCategory.allCases).subtracting(granted).subtracting(denied)
    }
}

/// What a token may do.
public enum Scope: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    case read, write

    public static func < (lhs: Scope, rhs: Scope) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Parses `read,write`; `nil` for an unknown or empty list.
    public static func parse(_ text: String) -> Set<Scope>? {
        let scopes = text.split(separator: ",").map { Scope(rawValue: $0.trimmingCharacters(in: .whitespaces)) }
        guard !scopes.isEmpty, scopes.allSatisfy({ $0 != nil }) else { return nil }
        return Set(scopes.compactMap { $0 })
    }
}

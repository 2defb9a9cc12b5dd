import Foundation
import HealthCore

/// Someone the server holds data for, as one of their tokens presents them.
///
/// A person has one **owner** token (from `healthpipe users add`): it signs in to the
/// dashboard, decides consent, enrols devices and may delete the account. The owner may
/// add **scoped** tokens (`healthpipe users token add NAME --name coach --types steps,sleep`):
/// each reads the owner's data of its kinds that the owner granted, writes none unless it
/// was given write kinds, and never signs in. Routes decide from ``token``.
public struct User: Hashable, Sendable, Codable {
    /// Stable id (a UUID); every stored row is keyed by it.
    public var id: String
    public var name: String
    public var createdAt: Date
    /// When the user was revoked (`healthpipe users revoke`); then none of their tokens authenticates.
    public var revokedAt: Date?
    /// The token that authenticated the request; for a user listed by ``UserRepository/users()``,
    /// their owner token.
    public var token: APIToken

    public init(id: String, name: String, token: APIToken, createdAt: Date, revokedAt: Date? = nil) {
        self.id = id
        self.name = name
        self.token = token
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    /// What the token may do: `read`, and `write` for an owner token made with it or a
    /// scoped token with write kinds.
    public var scopes: Set<Scope> { token.scopes }

    /// The kinds of health data the token may read at most; `nil` for every kind (the owner's).
    public var dataTypes: Set<HealthDataCategory>? { token.readTypes }

    /// Whether the owner's own token authenticated (not a scoped one).
    public var isOwner: Bool { token.role == .owner }

    /// What this token may read, given the person's consent (`nil`: never decided). A token
    /// with a list of kinds — a scoped token (a coach's) — reads the kinds on its list that
    /// the person granted; the owner's full token reads every kind they have not denied.
    ///
    /// An app the person connected by OAuth (``APIToken/Role/connected``) reads the kinds they
    /// chose for it on its own consent page, less any they deny on the dashboard's.
    public func readableCategories(consent: Consent?) -> Set<HealthDataCategory> {
        if token.role == .connected, let dataTypes { return dataTypes.subtracting(consent?.denied ?? []) }
        if let dataTypes { return dataTypes.intersection(consent?.granted ?? []) }
        return Set(HealthDataCategory.allCases).subtracting(consent?.denied ?? [])
    }

    /// What the dashboard may show this person: the types they granted (within the token's list).
    public func dashboardCategories(consent: Consent?) -> Set<HealthDataCategory> {
        (dataTypes ?? Set(HealthDataCategory.allCases)).intersection(consent?.granted ?? [])
    }

    /// The kinds whose samples this token may add and delete: every kind for a token with
    /// the `write` scope and no list (the owner's), the write kinds of a scoped token, none
    /// without `write`. Consent does not limit writing.
    public var writableCategories: Set<HealthDataCategory> {
        guard scopes.contains(.write) else { return [] }
        return token.writeTypes ?? Set(HealthDataCategory.allCases)
    }
}

/// One of a person's tokens as the store keeps it: never its secret, only the SHA-256 of it.
public struct APIToken: Hashable, Sendable, Codable {
    /// Whose token it is.
    public enum Role: String, Hashable, Sendable, Codable {
        /// The person's own token: signs in, decides consent, enrols devices, deletes the account.
        case owner
        /// A token the owner made for someone else (a coach, a dashboard): reads its kinds
        /// that the owner granted, writes only its write kinds, never signs in.
        case scoped
        /// An app the person connected by OAuth (docs/oauth.md): the grant behind its access
        /// tokens, whose own secret is never handed out. Reads the kinds the person chose for
        /// the app (less those denied on the consent page), writes nothing, never signs in.
        case connected

        /// Scoped and connected tokens: the ones the owner lists, and revokes by name.
        public var isDelegated: Bool { self != .owner }
    }

    /// The name of every owner token (no scoped token may take it).
    public static let ownerName = "owner"

    /// The token's public id: the 12 hex digits after `hp_`.
    public var id: String
    public var role: Role
    /// `owner`, or the name the owner gave a scoped token (`coach`), unique among the
    /// person's live tokens.
    public var name: String
    public var scopes: Set<Scope>
    /// The kinds it may read at most (a scoped token: those the owner also granted); `nil`
    /// for every kind.
    public var readTypes: Set<HealthDataCategory>?
    /// The kinds whose samples it may add and delete (with the `write` scope); `nil` for every kind.
    public var writeTypes: Set<HealthDataCategory>?
    public var createdAt: Date
    /// When it was revoked; a revoked token never authenticates.
    public var revokedAt: Date?

    public init(
        id: String, role: Role, name: String, scopes: Set<Scope>, readTypes: Set<HealthDataCategory>?,
        writeTypes: Set<HealthDataCategory>?, createdAt: Date, revokedAt: Date? = nil
    ) {
        self.id = id
        self.role = role
        self.name = name
        self.scopes = scopes
        self.readTypes = readTypes
        self.writeTypes = writeTypes
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    /// An owner token: every kind, with `scopes`.
    package static func owner(id: String, scopes: Set<Scope>, createdAt: Date) -> APIToken {
        APIToken(
            id: id, role: .owner, name: ownerName, scopes: scopes, readTypes: nil, writeTypes: nil,
            createdAt: createdAt)
    }

    /// A scoped token: reads `readTypes`, writes `writeTypes` (none: read-only).
    package static func scoped(
        id: String, name: String, readTypes: Set<HealthDataCategory>, writeTypes: Set<HealthDataCategory>,
        createdAt: Date
    ) -> APIToken {
        APIToken(
            id: id, role: .scoped, name: name, scopes: writeTypes.isEmpty ? [.read] : [.read, .write],
            readTypes: readTypes, writeTypes: writeTypes, createdAt: createdAt)
    }

    /// An app's grant (``Role/connected``): reads `readTypes`, writes nothing.
    package static func connected(id: String, name: String, readTypes: Set<HealthDataCategory>, createdAt: Date) -> APIToken {
        APIToken(
            id: id, role: .connected, name: name, scopes: [.read], readTypes: readTypes, writeTypes: [], createdAt: createdAt)
    }

    /// A scoped token's name: 1–64 letters, digits, `-`, `_` or `.`, and not `owner`.
    public static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.count) && name != ownerName
            && name.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar))
            }
    }

    /// `steps,sleep`, `all` for every kind, `—` for none: how lists are shown.
    public static func describe(_ kinds: Set<HealthDataCategory>?) -> String {
        guard let kinds else { return "all" }
        return kinds.isEmpty ? "—" : HealthDataCategory.list(kinds)
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

    /// `read,write`, sorted: how scopes are stored and shown.
    public static func list(_ scopes: Set<Scope>) -> String {
        scopes.sorted().map(\.rawValue).joined(separator: ",")
    }
}

import Foundation

/// Someone the server holds data for.
public struct User: Hashable, Sendable, Codable {
    /// Stable id (a UUID); every stored row is keyed by it.
    public var id: String
    public var name: String
    public var scopes: Set<Scope>
    public var createdAt: Date
    /// When the user's token was revoked; a revoked token never authenticates.
    public var revokedAt: Date?

    public init(id: String, name: String, scopes: Set<Scope>, createdAt: Date, revokedAt: Date? = nil) {
        self.id = id
        self.name = name
        self.scopes = scopes
        self.createdAt = createdAt
        self.revokedAt = revokedAt
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

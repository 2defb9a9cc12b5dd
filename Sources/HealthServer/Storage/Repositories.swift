import Foundation
import HealthMetrics

/// Users and their tokens. Implementations store only token hashes.
public protocol UserRepository: Sendable {
    /// Creates a user and returns the token, which is never stored or shown again.
    func addUser(name: String, scopes: Set<Scope>) async throws -> (User, BearerToken)
    func users() async throws -> [User]
    /// Revokes the user's token; `false` when there is no such user.
    func revoke(name: String) async throws -> Bool
    /// The live user a token belongs to, or `nil`.
    func authenticate(_ token: BearerToken) async throws -> User?
}

/// Normalised daily metrics per user, one row per (user, local date, normalisation version).
public protocol DailyMetricsRepository: Sendable {
    /// Inserts new days, replaces changed ones and leaves identical ones alone (equal in
    /// every field but `created_at`), in one transaction. A retried request changes nothing.
    func upsert(_ days: [NormalizedDailyMetrics], userID: String) async throws -> UpsertCounts
    /// The user's days from `first` through `last` (`YYYY-MM-DD`), oldest first.
    func dailyMetrics(
        userID: String, from first: String, through last: String, version: String
    ) async throws
        -> [NormalizedDailyMetrics]
    /// Throws when the storage cannot answer (for `/readyz`).
    func ping() async throws
}

/// What an upsert did.
public struct UpsertCounts: Hashable, Sendable, Codable {
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0

    public init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
    }
}

/// A name that is already taken.
public struct UserExistsError: Error, CustomStringConvertible {
    public let name: String
    public var description: String { "a user named '\(name)' exists already" }
}

/// Responses remembered by `Idempotency-Key`, per user.
public protocol IdempotencyRepository: Sendable {
    /// The remembered request hash and response for `key`, if any.
    func remembered(userID: String, key: String) async throws -> RememberedResponse?
    /// Remembers a response (the first one wins when two arrive at once).
    func remember(userID: String, key: String, response: RememberedResponse) async throws
}

/// A response kept for replay.
public struct RememberedResponse: Hashable, Sendable {
    /// SHA-256 of the request body.
    public var requestHash: Data
    public var status: Int
    public var body: Data

    public init(requestHash: Data, status: Int, body: Data) {
        self.requestHash = requestHash
        self.status = status
        self.body = body
    }
}

import Foundation

/// A write of a user's data refused because the user no longer exists (deleted meanwhile,
/// perhaps by another process): see the PostgreSQL store's `requireOwners(in:)`.
public struct HealthStoreOwnerGone: Error, CustomStringConvertible {
    public let userID: String

    public init(userID: String) { self.userID = userID }

    public var description: String { "user \(userID) does not exist (any more): nothing of theirs is stored" }
}

/// A write that PostgreSQL ended for contention — a deadlock (SQLSTATE `40P01`) or a
/// serialization failure (`40001`) — every time it was tried
/// (the PostgreSQL store's `write(attempts:_:)`). Nothing was written; the same request a
/// moment later will most likely succeed. The server answers it with 503 and `Retry-After`.
public struct StoreBusyError: Error, CustomStringConvertible, Sendable {
    /// Seconds to wait before sending the request again.
    public let retryAfter: Int

    public init(retryAfter: Int = 1) { self.retryAfter = retryAfter }

    public var description: String {
        "the store is busy with other writes and wrote nothing; send the request again in \(retryAfter) s"
    }
}

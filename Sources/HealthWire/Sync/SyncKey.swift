import Crypto
import Foundation

/// A device's 256-bit AES-GCM key and the id the server knows it by. The server makes one
/// at enrolment and at each rotation and hands it out once (docs/sync.md §Keys).
public struct SyncKey: Sendable {
    /// The key's id, sent in clear in every envelope sealed with it.
    public let id: String
    /// The 32 secret bytes: written once to the device's credentials file, stored by the server.
    public let secret: Data

    /// A key from its 32 secret bytes.
    public init(id: String, secret: Data) throws {
        guard secret.count == 32 else { throw SyncKeyError(description: "a sync key is 32 bytes, not \(secret.count)") }
        guard !id.isEmpty, id.count <= 100 else { throw SyncKeyError(description: "a key id is 1–100 characters") }
        self.id = id
        self.secret = secret
    }

    /// A fresh random key (the system's secure generator) with a fresh random id.
    public static func generate() -> SyncKey {
        let key = SymmetricKey(size: .bits256)
        return try! SyncKey(id: "k-" + UUID().uuidString.lowercased(), secret: key.withUnsafeBytes { Data($0) })
    }

    /// The key for AES-GCM.
    public var key: SymmetricKey { SymmetricKey(data: secret) }
}

/// A key that cannot be one (wrong length, empty id).
public struct SyncKeyError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

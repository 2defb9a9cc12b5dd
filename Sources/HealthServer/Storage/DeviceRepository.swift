import Foundation
import HealthWire

/// Devices enrolled for sync, their keys, and the last batch sequence each sent.
public protocol DeviceRepository: Sendable {
    /// Stores a new device with its first key.
    func addDevice(_ device: SyncDevice, key: SyncKey) async throws
    /// The user's devices, oldest first, revoked ones included.
    func devices(userID: String) async throws -> [SyncDevice]
    /// The device `id`, whoever's it is, or `nil`.
    func device(id: String) async throws -> SyncDevice?
    /// Marks the user's device revoked at `at` (once); the device, or `nil` when the user
    /// has no device `id`.
    func revokeDevice(id: String, userID: String, at: Date) async throws -> SyncDevice?
    /// Makes `key` the device's current key and retires the current one at `at`.
    func addKey(_ key: SyncKey, deviceID: String, at: Date) async throws
    /// The device's keys, newest first.
    func keys(deviceID: String) async throws -> [DeviceKey]
    /// Records batch `batchID` with `sequence` as the device's last accepted one when the
    /// sequence is larger than the last, or when it is the last batch itself again (a resend
    /// whose answer was lost); `false` (nothing changed) otherwise. One conditional update:
    /// of two batches with one sequence, only one is recorded.
    func advanceSequence(deviceID: String, to sequence: Int64, batchID: UUID, at: Date) async throws -> Bool
}

/// A device enrolled for sync.
public struct SyncDevice: Codable, Hashable, Sendable {
    public var id: String
    public var userID: String
    public var name: String
    public var createdAt: Date
    /// When it was revoked: its batches are refused from then on.
    public var revokedAt: Date?
    /// The sequence number of the last batch accepted from it (0: none yet).
    public var lastSequence: Int64
    /// The id of that batch: the one batch that may come again with the same sequence
    /// (a retry of a batch whose answer was lost).
    public var lastBatchID: UUID?
    public var lastBatchAt: Date?

    public init(
        id: String, userID: String, name: String, createdAt: Date, revokedAt: Date? = nil, lastSequence: Int64 = 0,
        lastBatchID: UUID? = nil, lastBatchAt: Date? = nil
    ) {
        self.id = id
        self.userID = userID
        self.name = name
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.lastSequence = lastSequence
        self.lastBatchID = lastBatchID
        self.lastBatchAt = lastBatchAt
    }

    enum CodingKeys: String, CodingKey {
        case id, name
        case userID = "user_id"
        case createdAt = "created_at"
        case revokedAt = "revoked_at"
        case lastSequence = "last_sequence"
        case lastBatchID = "last_batch_id"
        case lastBatchAt = "last_batch_at"
    }
}

/// One of a device's keys as the server keeps it.
public struct DeviceKey: Sendable {
    public var id: String
    public var secret: Data
    public var createdAt: Date
    /// When a newer key replaced it; batches under it are accepted for the grace period after.
    public var retiredAt: Date?

    public init(id: String, secret: Data, createdAt: Date, retiredAt: Date?) {
        self.id = id
        self.secret = secret
        self.createdAt = createdAt
        self.retiredAt = retiredAt
    }
}

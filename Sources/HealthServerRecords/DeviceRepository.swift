import Foundation
import HealthWire

/// Devices enrolled for sync, their keys, and the last batch sequence each sent.
public protocol DeviceRepository: Sendable {
    /// Stores a new device with its first key, `storedSecret` as the bytes to keep: the
    /// stores keep them as given, ``SealedDeviceRepository`` seals them first.
    func addDevice(_ device: SyncDevice, keyID: String, storedSecret: Data) async throws
    /// The user's devices, oldest first, revoked ones included.
    func devices(userID: String) async throws -> [SyncDevice]
    /// The device `id`, whoever's it is, or `nil`.
    func device(id: String) async throws -> SyncDevice?
    /// Marks the user's device revoked at `at` (once); the device, or `nil` when the user
    /// has no device `id`.
    func revokeDevice(id: String, userID: String, at: Date) async throws -> SyncDevice?
    /// Makes key `id` (its bytes to keep: `storedSecret`) the device's current key and
    /// retires the current one at `at`.
    func addKey(id: String, storedSecret: Data, deviceID: String, at: Date) async throws
    /// The device's keys, newest first, with the bytes as stored (from a
    /// ``SealedDeviceRepository``: the secrets opened).
    func keys(deviceID: String) async throws -> [DeviceKey]
    /// Every key of every device with its bytes as stored, for re-sealing them.
    func allDeviceKeys() async throws -> [StoredDeviceSecret]
    /// Replaces the stored bytes of one key when they are still `expected`; `false` (nothing
    /// changed) when the key is gone or its bytes have changed meanwhile.
    func replaceStoredSecret(deviceID: String, keyID: String, storedSecret: Data, expected: Data) async throws -> Bool
    /// Records batch `batchID` with `sequence` as the device's last accepted one when the
    /// sequence is larger than the last, or when it is the last batch itself again (a resend
    /// whose answer was lost); `false` (nothing changed) otherwise. One conditional update:
    /// of two batches with one sequence, only one is recorded.
    func advanceSequence(deviceID: String, to sequence: Int64, batchID: UUID, at: Date) async throws -> Bool
}

extension DeviceRepository {
    /// Stores a new device with its first key (sealed when this is a ``SealedDeviceRepository``).
    public func addDevice(_ device: SyncDevice, key: SyncKey) async throws {
        try await addDevice(device, keyID: key.id, storedSecret: key.secret)
    }

    /// Makes `key` the device's current key and retires the current one at `at`.
    public func addKey(_ key: SyncKey, deviceID: String, at: Date) async throws {
        try await addKey(id: key.id, storedSecret: key.secret, deviceID: deviceID, at: at)
    }
}

/// One device key's bytes as the database holds them: 32 bytes in clear (written before
/// device keys were sealed) or sealed under the server key (``SealedDeviceRepository``).
public struct StoredDeviceSecret: Hashable, Sendable {
    public var deviceID: String
    public var keyID: String
    public var storedSecret: Data

    public init(deviceID: String, keyID: String, storedSecret: Data) {
        self.deviceID = deviceID
        self.keyID = keyID
        self.storedSecret = storedSecret
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

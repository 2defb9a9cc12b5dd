import Crypto
import Foundation
import HealthServerRecords
import HealthWire
import Hummingbird
import Logging

/// Device keys sealed at rest: any ``DeviceRepository`` whose key secrets are sealed under
/// the ``ServerKey`` on the way in and opened on the way out (docs/sync.md §Device keys at
/// rest). Whoever reads the database (a copy of `server.sqlite`, a dump, a backup) without
/// the server key holds no device key.
///
/// A secret is stored as `"HPK1"`, the server key's 4-byte fingerprint, a fresh 12-byte
/// nonce, and the 32 bytes sealed with AES-256-GCM with their 16-byte tag (68 bytes). The
/// associated data names the device and the key, so a sealed secret copied to another
/// device's or key's row does not open. A secret of 32 bytes is one stored in clear before
/// keys were sealed: it is read as it is, and ``sealLegacyKeys()`` seals it.
///
/// Here `storedSecret` of ``addDevice(_:keyID:storedSecret:)`` and
/// ``addKey(id:storedSecret:deviceID:at:)`` is the key's secret in clear: what reaches the
/// inner repository is sealed.
public struct SealedDeviceRepository: DeviceRepository {
    public let inner: any DeviceRepository
    public let key: ServerKey
    let logger: Logger

    public init(inner: any DeviceRepository, key: ServerKey, logger: Logger = Logger(label: "healthpipe.serve")) {
        self.inner = inner
        self.key = key
        self.logger = logger
    }

    // MARK: the stored form

    static let magic: [UInt8] = Array("HPK1".utf8)
    /// Magic, fingerprint, nonce, 32 bytes, tag.
    static let sealedCount = 4 + 4 + 12 + 32 + 16

    /// `secret` sealed under `key` for the device's key `keyID`.
    public static func seal(_ secret: Data, deviceID: String, keyID: String, under key: ServerKey) throws -> Data {
        guard secret.count == 32 else { throw ServerKeyError("a device key is 32 bytes, not \(secret.count)") }
        let box = try AES.GCM.seal(
            secret, using: key.symmetricKey, nonce: AES.GCM.Nonce(),
            authenticating: associatedData(deviceID: deviceID, keyID: keyID))
        guard let combined = box.combined else { throw ServerKeyError("AES-GCM gave no combined form") }
        return Data(magic) + key.fingerprint + combined
    }

    /// The secret of `stored` — as it is when stored in clear (32 bytes), opened under `key`
    /// when sealed. Throws when it is sealed under another key, does not open (another
    /// device's or key's row, damaged) or is neither form; the error names no byte of it.
    public static func open(_ stored: Data, deviceID: String, keyID: String, under key: ServerKey) throws -> Data {
        let bytes = [UInt8](stored)
        if isClear(stored) { return Data(bytes) }
        guard bytes.count == sealedCount, Array(bytes[0..<4]) == magic else {
            throw ServerKeyError("the stored key is neither 32 bytes in clear nor sealed (\(bytes.count) bytes)")
        }
        let fingerprint = Data(bytes[4..<8])
        guard fingerprint == key.fingerprint else {
            throw ServerKeyError(
                "the stored key is sealed under another server key (fingerprint \(hex(fingerprint)), "
                    + "this server's is \(key.fingerprintHex))")
        }
        do {
            let box = try AES.GCM.SealedBox(combined: Data(bytes[8...]))
            let secret = try AES.GCM.open(
                box, using: key.symmetricKey, authenticating: associatedData(deviceID: deviceID, keyID: keyID))
            guard secret.count == 32 else { throw ServerKeyError("not 32 bytes") }
            return secret
        } catch {
            throw ServerKeyError("the stored key does not open under the server key (moved from another row, or damaged)")
        }
    }

    /// A secret stored in clear, from before device keys were sealed.
    public static func isClear(_ stored: Data) -> Bool { stored.count == 32 }

    /// Whether `stored` is sealed under `key` and opens.
    static func opens(_ stored: Data, deviceID: String, keyID: String, under key: ServerKey) -> Bool {
        !isClear(stored) && (try? open(stored, deviceID: deviceID, keyID: keyID, under: key)) != nil
    }

    static func associatedData(deviceID: String, keyID: String) -> Data {
        Data("healthpipe-device-key/1\u{0}device=\(deviceID)\u{0}key=\(keyID)".utf8)
    }

    static func hex(_ data: Data) -> String { data.map { String(format: "%02x", $0) }.joined() }

    // MARK: DeviceRepository

    public func addDevice(_ device: SyncDevice, keyID: String, storedSecret: Data) async throws {
        try await inner.addDevice(
            device, keyID: keyID, storedSecret: Self.seal(storedSecret, deviceID: device.id, keyID: keyID, under: key))
    }

    public func addKey(id: String, storedSecret: Data, deviceID: String, at: Date) async throws {
        try await inner.addKey(
            id: id, storedSecret: Self.seal(storedSecret, deviceID: deviceID, keyID: id, under: key), deviceID: deviceID,
            at: at)
    }

    /// The device's keys with their secrets opened. A key this server's key does not open is
    /// a 500 that says so (logged with the device and key ids, never a byte of a key): every
    /// server on one database needs the same server key.
    public func keys(deviceID: String) async throws -> [DeviceKey] {
        var keys = try await inner.keys(deviceID: deviceID)
        for index in keys.indices {
            do {
                keys[index].secret = try Self.open(keys[index].secret, deviceID: deviceID, keyID: keys[index].id, under: key)
            } catch let error as ServerKeyError {
                logger.error(
                    "the server key does not open a device key",
                    metadata: [
                        "device": "\(deviceID)", "key": "\(keys[index].id)", "server_key": "\(key.fingerprintHex)",
                        "reason": "\(error.description)",
                    ])
                throw Problem(
                    .internalServerError, "Server key mismatch", detail: "the server key does not open this device's key")
            }
        }
        return keys
    }

    public func devices(userID: String) async throws -> [SyncDevice] { try await inner.devices(userID: userID) }

    public func device(id: String) async throws -> SyncDevice? { try await inner.device(id: id) }

    public func revokeDevice(id: String, userID: String, at: Date) async throws -> SyncDevice? {
        try await inner.revokeDevice(id: id, userID: userID, at: at)
    }

    /// Every key as stored (sealed or in clear), not opened.
    public func allDeviceKeys() async throws -> [StoredDeviceSecret] { try await inner.allDeviceKeys() }

    /// Replaces the stored bytes as given (already sealed), as the inner repository does.
    public func replaceStoredSecret(
        deviceID: String, keyID: String, storedSecret: Data, expected: Data
    ) async throws -> Bool {
        try await inner.replaceStoredSecret(deviceID: deviceID, keyID: keyID, storedSecret: storedSecret, expected: expected)
    }

    public func advanceSequence(deviceID: String, to sequence: Int64, batchID: UUID, at: Date) async throws -> Bool {
        try await inner.advanceSequence(deviceID: deviceID, to: sequence, batchID: batchID, at: at)
    }

    // MARK: sealing and rotation

    /// Seals, under this server key, every device key still stored in clear (from before
    /// keys were sealed); returns how many. Run at every start. Refuses before writing
    /// anything when a stored key does not open under this server key (sealed under
    /// another, or damaged): a server with the wrong key stops at start instead of
    /// failing every sync batch.
    @discardableResult
    public func sealLegacyKeys() async throws -> Int {
        let stored = try await inner.allDeviceKeys()
        let unopened = stored.filter { !Self.isClear($0.storedSecret) && !Self.opens($0, under: key) }
        guard unopened.isEmpty else { throw Self.mismatch(unopened, of: stored.count, key: key) }
        var sealed = 0
        for row in stored where Self.isClear(row.storedSecret) {
            let sealedSecret = try Self.seal(row.storedSecret, deviceID: row.deviceID, keyID: row.keyID, under: key)
            if try await inner.replaceStoredSecret(
                deviceID: row.deviceID, keyID: row.keyID, storedSecret: sealedSecret, expected: row.storedSecret)
            {
                sealed += 1
            }
        }
        return sealed
    }

    /// Re-seals every device key under `newKey` (keys in clear too); returns how many and
    /// the repository over the new key. Keys already sealed under `newKey` are left alone,
    /// so a rotation cut short is finished by running it again with the same two keys.
    /// Refuses before writing anything when a key opens under neither. Stop every server on
    /// the database first: one still running seals new keys under the old server key.
    public func rotate(to newKey: ServerKey) async throws -> (resealed: Int, repository: SealedDeviceRepository) {
        let stored = try await inner.allDeviceKeys()
        var plan: [(row: StoredDeviceSecret, secret: Data)] = []
        var unopened: [StoredDeviceSecret] = []
        for row in stored where !Self.opens(row, under: newKey) {
            guard let secret = try? Self.open(row.storedSecret, deviceID: row.deviceID, keyID: row.keyID, under: key) else {
                unopened.append(row)
                continue
            }
            plan.append((row, secret))
        }
        guard unopened.isEmpty else { throw Self.mismatch(unopened, of: stored.count, key: key) }
        var resealed = 0
        for (row, secret) in plan {
            let sealedSecret = try Self.seal(secret, deviceID: row.deviceID, keyID: row.keyID, under: newKey)
            if try await inner.replaceStoredSecret(
                deviceID: row.deviceID, keyID: row.keyID, storedSecret: sealedSecret, expected: row.storedSecret)
            {
                resealed += 1
            }
        }
        return (resealed, SealedDeviceRepository(inner: inner, key: newKey, logger: logger))
    }

    private static func opens(_ row: StoredDeviceSecret, under key: ServerKey) -> Bool {
        opens(row.storedSecret, deviceID: row.deviceID, keyID: row.keyID, under: key)
    }

    /// What to do when stored keys do not open: which server keys sealed them, by fingerprint.
    private static func mismatch(_ unopened: [StoredDeviceSecret], of total: Int, key: ServerKey) -> ServerKeyError {
        let fingerprints = Set(
            unopened.compactMap { row -> String? in
                let bytes = [UInt8](row.storedSecret)
                guard bytes.count == sealedCount, Array(bytes[0..<4]) == magic else { return nil }
                return hex(Data(bytes[4..<8]))
            }
        ).sorted()
        let sealedUnder = fingerprints.isEmpty ? "" : "; they name server key(s) \(fingerprints.joined(separator: ", "))"
        return ServerKeyError(
            "\(unopened.count) of \(total) device key(s) in the database do not open under this server key "
                + "(fingerprint \(key.fingerprintHex))\(sealedUnder). Give this server the key that sealed them "
                + "(\(ServerKey.environmentVariable) or --server-key-file: every server on one database needs the same key), "
                + "or revoke those devices and enrol them again (docs/sync.md §Device keys at rest)")
    }
}

extension ServerRepositories {
    /// These repositories with device keys sealed under `key`: keys still stored in clear
    /// are sealed now (how many: `sealed`). Throws ``ServerKeyError`` when stored keys do
    /// not open under `key`.
    public func sealingDeviceKeys(under key: ServerKey) async throws -> (repositories: ServerRepositories, sealed: Int) {
        let sealedDevices = SealedDeviceRepository(inner: devices, key: key)
        let sealed = try await sealedDevices.sealLegacyKeys()
        var repositories = self
        repositories.devices = sealedDevices
        return (repositories, sealed)
    }
}

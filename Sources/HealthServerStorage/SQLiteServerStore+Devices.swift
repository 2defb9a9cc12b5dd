import Foundation
import GRDB
import HealthServerRecords
import HealthWire

extension SQLiteServerStore: DeviceRepository {
    public func addDevice(_ device: SyncDevice, keyID: String, storedSecret: Data) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "INSERT INTO device (id, user_id, name, created_at) VALUES (?,?,?,?)",
                arguments: [device.id, device.userID, device.name, device.createdAt.timeIntervalSince1970])
            try db.execute(
                sql: "INSERT INTO device_key (device_id, key_id, secret, created_at) VALUES (?,?,?,?)",
                arguments: [device.id, keyID, storedSecret, device.createdAt.timeIntervalSince1970])
        }
    }

    public func devices(userID: String) async throws -> [SyncDevice] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "\(Self.deviceColumns) WHERE user_id = ? ORDER BY created_at, id", arguments: [userID])
                .map(Self.device)
        }
    }

    public func device(id: String) async throws -> SyncDevice? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "\(Self.deviceColumns) WHERE id = ?", arguments: [id]).map(Self.device)
        }
    }

    public func revokeDevice(id: String, userID: String, at: Date) async throws -> SyncDevice? {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE device SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL",
                arguments: [at.timeIntervalSince1970, id, userID])
            return try Row.fetchOne(db, sql: "\(Self.deviceColumns) WHERE id = ? AND user_id = ?", arguments: [id, userID])
                .map(Self.device)
        }
    }

    public func addKey(id: String, storedSecret: Data, deviceID: String, at: Date) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE device_key SET retired_at = ? WHERE device_id = ? AND retired_at IS NULL",
                arguments: [at.timeIntervalSince1970, deviceID])
            try db.execute(
                sql: "INSERT INTO device_key (device_id, key_id, secret, created_at) VALUES (?,?,?,?)",
                arguments: [deviceID, id, storedSecret, at.timeIntervalSince1970])
        }
    }

    public func allDeviceKeys() async throws -> [StoredDeviceSecret] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT device_id, key_id, secret FROM device_key ORDER BY device_id, key_id").map {
                StoredDeviceSecret(deviceID: $0[0], keyID: $0[1], storedSecret: $0[2])
            }
        }
    }

    public func replaceStoredSecret(
        deviceID: String, keyID: String, storedSecret: Data, expected: Data
    ) async throws -> Bool {
        let replaced = try await pool.write { db in
            try db.execute(
                sql: "UPDATE device_key SET secret = ? WHERE device_id = ? AND key_id = ? AND secret = ?",
                arguments: [storedSecret, deviceID, keyID, expected])
            return db.changesCount > 0
        }
        // The replaced bytes are zeroed in the file (secure_delete); the WAL still holds the
        // page as it was until it is checkpointed and truncated.
        if replaced { try? await pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) } }
        return replaced
    }

    public func keys(deviceID: String) async throws -> [DeviceKey] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT key_id, secret, created_at, retired_at FROM device_key WHERE device_id = ?
                    ORDER BY created_at DESC, retired_at IS NULL DESC
                    """, arguments: [deviceID]
            ).map { row in
                DeviceKey(
                    id: row[0], secret: row[1], createdAt: Date(timeIntervalSince1970: row[2]),
                    retiredAt: (row[3] as Double?).map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    public func advanceSequence(deviceID: String, to sequence: Int64, batchID: UUID, at: Date) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: """
                    UPDATE device SET last_sequence = ?, last_batch_id = ?, last_batch_at = ?
                    WHERE id = ? AND (last_sequence < ? OR (last_sequence = ? AND last_batch_id = ?))
                    """,
                arguments: [
                    sequence, batchID.uuidString.lowercased(), at.timeIntervalSince1970, deviceID, sequence, sequence,
                    batchID.uuidString.lowercased(),
                ])
            return db.changesCount > 0
        }
    }

    private static let deviceColumns =
        "SELECT id, user_id, name, created_at, revoked_at, last_sequence, last_batch_id, last_batch_at FROM device"

    private static func device(_ row: Row) -> SyncDevice {
        SyncDevice(
            id: row[0], userID: row[1], name: row[2], createdAt: Date(timeIntervalSince1970: row[3]),
            revokedAt: (row[4] as Double?).map(Date.init(timeIntervalSince1970:)), lastSequence: row[5],
            lastBatchID: (row[6] as String?).flatMap(UUID.init(uuidString:)),
            lastBatchAt: (row[7] as Double?).map(Date.init(timeIntervalSince1970:)))
    }
}

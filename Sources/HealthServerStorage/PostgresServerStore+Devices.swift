import Foundation
import HealthServerRecords
import HealthWire
import PostgresNIO

extension PostgresServerStore: DeviceRepository {
    public func addDevice(_ device: SyncDevice, keyID: String, storedSecret: Data) async throws {
        let created = device.createdAt.timeIntervalSince1970
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query(
                """
                INSERT INTO device (id, user_id, name, created_at)
                VALUES (\(device.id), \(device.userID), \(device.name), \(created))
                """, logger: logger)
            try await connection.query(
                """
                INSERT INTO device_key (device_id, key_id, secret, created_at)
                VALUES (\(device.id), \(keyID), \(storedSecret), \(created))
                """, logger: logger)
        }
    }

    private typealias DeviceColumns = (String, String, String, Double, Double?, Int64, String?, Double?)

    private static func device(_ columns: DeviceColumns) -> SyncDevice {
        SyncDevice(
            id: columns.0, userID: columns.1, name: columns.2, createdAt: Date(timeIntervalSince1970: columns.3),
            revokedAt: columns.4.map(Date.init(timeIntervalSince1970:)), lastSequence: columns.5,
            lastBatchID: columns.6.flatMap(UUID.init(uuidString:)), lastBatchAt: columns.7.map(Date.init(timeIntervalSince1970:)))
    }

    public func devices(userID: String) async throws -> [SyncDevice] {
        var devices: [SyncDevice] = []
        let rows = try await client.query(
            """
            SELECT id, user_id, name, created_at, revoked_at, last_sequence, last_batch_id, last_batch_at FROM device
            WHERE user_id = \(userID) ORDER BY created_at, id
            """, logger: logger)
        for try await columns in rows.decode(DeviceColumns.self) { devices.append(Self.device(columns)) }
        return devices
    }

    public func device(id: String) async throws -> SyncDevice? {
        let rows = try await client.query(
            """
            SELECT id, user_id, name, created_at, revoked_at, last_sequence, last_batch_id, last_batch_at FROM device WHERE id = \(id)
            """, logger: logger)
        for try await columns in rows.decode(DeviceColumns.self) { return Self.device(columns) }
        return nil
    }

    public func revokeDevice(id: String, userID: String, at: Date) async throws -> SyncDevice? {
        try await client.query(
            """
            UPDATE device SET revoked_at = \(at.timeIntervalSince1970)
            WHERE id = \(id) AND user_id = \(userID) AND revoked_at IS NULL
            """, logger: logger)
        guard let device = try await device(id: id), device.userID == userID else { return nil }
        return device
    }

    public func addKey(id: String, storedSecret: Data, deviceID: String, at: Date) async throws {
        let now = at.timeIntervalSince1970
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query(
                "UPDATE device_key SET retired_at = \(now) WHERE device_id = \(deviceID) AND retired_at IS NULL",
                logger: logger)
            try await connection.query(
                """
                INSERT INTO device_key (device_id, key_id, secret, created_at)
                VALUES (\(deviceID), \(id), \(storedSecret), \(now))
                """, logger: logger)
        }
    }

    public func allDeviceKeys() async throws -> [StoredDeviceSecret] {
        var stored: [StoredDeviceSecret] = []
        let rows = try await client.query(
            "SELECT device_id, key_id, secret FROM device_key ORDER BY device_id, key_id", logger: logger)
        for try await (deviceID, keyID, secret) in rows.decode((String, String, Data).self) {
            stored.append(StoredDeviceSecret(deviceID: deviceID, keyID: keyID, storedSecret: secret))
        }
        return stored
    }

    public func replaceStoredSecret(
        deviceID: String, keyID: String, storedSecret: Data, expected: Data
    ) async throws -> Bool {
        try await !client.query(
            """
            UPDATE device_key SET secret = \(storedSecret)
            WHERE device_id = \(deviceID) AND key_id = \(keyID) AND secret = \(expected) RETURNING 1
            """, logger: logger
        ).collect().isEmpty
    }

    public func keys(deviceID: String) async throws -> [DeviceKey] {
        var keys: [DeviceKey] = []
        let rows = try await client.query(
            """
            SELECT key_id, secret, created_at, retired_at FROM device_key WHERE device_id = \(deviceID)
            ORDER BY created_at DESC, (retired_at IS NULL) DESC
            """, logger: logger)
        for try await (id, secret, created, retired) in rows.decode((String, Data, Double, Double?).self) {
            keys.append(
                DeviceKey(
                    id: id, secret: secret, createdAt: Date(timeIntervalSince1970: created),
                    retiredAt: retired.map(Date.init(timeIntervalSince1970:))))
        }
        return keys
    }

    public func advanceSequence(deviceID: String, to sequence: Int64, batchID: UUID, at: Date) async throws -> Bool {
        let batch = batchID.uuidString.lowercased()
        return try await !client.query(
            """
            UPDATE device SET last_sequence = \(sequence), last_batch_id = \(batch), last_batch_at = \(at.timeIntervalSince1970)
            WHERE id = \(deviceID) AND (last_sequence < \(sequence)
                OR (last_sequence = \(sequence) AND last_batch_id = \(batch)))
            RETURNING id
            """, logger: logger
        ).collect().isEmpty
    }
}

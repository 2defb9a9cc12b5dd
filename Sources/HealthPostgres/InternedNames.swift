import Foundation
import HealthCore
import Logging
import PostgresNIO

/// Sample types, sources and devices by row id, interned for every user and cached by the
/// process: rows are never changed or deleted, so a cached id stays right. Ids interned
/// inside a write transaction are published only when it commits (``Pending``): a rolled
/// back transaction leaves no id in the cache that the database does not have.
final class InternedNames: Sendable {
    private struct Tables {
        var typeIDs: [String: Int32] = [:]
        var types: [Int32: SampleType] = [:]
        var sourceIDs: [Source: Int32] = [:]
        var sources: [Int32: Source] = [:]
        var deviceIDs: [String: Int32] = [:]
        var devices: [Int32: Device] = [:]
    }

    private let tables = Locked(Tables())

    /// Names a write transaction interned, published by ``publish(_:)`` after its commit.
    struct Pending {
        var types: [String: Int32] = [:]
        var sources: [Source: Int32] = [:]
        var devices: [String: (Int32, Device)] = [:]
    }

    func publish(_ pending: Pending) {
        tables.withLock { tables in
            for (identifier, id) in pending.types {
                tables.typeIDs[identifier] = id
                tables.types[id] = SampleType(identifier)
            }
            for (source, id) in pending.sources {
                tables.sourceIDs[source] = id
                tables.sources[id] = source
            }
            for (key, (id, device)) in pending.devices {
                tables.deviceIDs[key] = id
                tables.devices[id] = device
            }
        }
    }

    /// The id of a type already stored for someone, or `nil`.
    func cachedTypeID(_ identifier: String) -> Int32? { tables.withLock { $0.typeIDs[identifier] } }

    /// The type of row id `id`, if cached.
    func cachedType(_ id: Int32) -> SampleType? { tables.withLock { $0.types[id] } }

    /// The type of row id `id`, reloading the table when it is not cached.
    func type(_ id: Int32, client: PostgresClient, logger: Logger) async throws -> SampleType {
        if let type = cachedType(id) { return type }
        try await reload(client: client, logger: logger)
        guard let type = cachedType(id) else { throw PostgresHealthStoreError("a sample type id is not stored") }
        return type
    }

    /// The id of `type` (looked up, not created), or `nil` when no one ever stored one.
    func typeID(_ type: SampleType, client: PostgresClient, logger: Logger) async throws -> Int32? {
        if let id = cachedTypeID(type.identifier) { return id }
        try await reload(client: client, logger: logger)
        return cachedTypeID(type.identifier)
    }

    /// The type, source and device of row ids, reloading the tables for ids not cached yet.
    func resolve(
        types typeIDs: Set<Int32>, sources sourceIDs: Set<Int32>, devices deviceIDs: Set<Int32>, client: PostgresClient,
        logger: Logger
    ) async throws -> (types: [Int32: SampleType], sources: [Int32: Source], devices: [Int32: Device]) {
        func lookup() -> (types: [Int32: SampleType], sources: [Int32: Source], devices: [Int32: Device])? {
            tables.withLock { tables in
                guard typeIDs.allSatisfy({ tables.types[$0] != nil }), sourceIDs.allSatisfy({ tables.sources[$0] != nil }),
                    deviceIDs.allSatisfy({ tables.devices[$0] != nil })
                else { return nil }
                return (tables.types, tables.sources, tables.devices)
            }
        }
        if let found = lookup() { return found }
        try await reload(client: client, logger: logger)
        guard let found = lookup() else {
            throw PostgresHealthStoreError("a sample refers to a type, source or device that is not stored")
        }
        return found
    }

    /// Reads the three tables again (they are small: a few hundred rows).
    func reload(client: PostgresClient, logger: Logger) async throws {
        var pending = Pending()
        for try await (id, identifier) in try await client.query(
            "SELECT id, identifier FROM health_sample_type", logger: logger
        ).decode((Int32, String).self) {
            pending.types[identifier] = id
        }
        for try await (id, name, version) in try await client.query(
            "SELECT id, name, version FROM health_source", logger: logger
        ).decode((Int32, String, String).self) {
            pending.sources[Source(name: name, version: version.isEmpty ? nil : version)] = id
        }
        for try await row in try await client.query(
            "SELECT \(unescaped: DeviceColumns.select) FROM health_device", logger: logger)
        {
            let (id, device) = try DeviceColumns.decode(row)
            pending.devices[device.storageKey] = (id, device)
        }
        publish(pending)
    }

    /// Ids of the types, sources and devices of `samples`, interning those not stored yet
    /// on `connection` (inside the caller's transaction) into `pending`.
    func intern(
        _ samples: [Sample], into pending: inout Pending, connection: PostgresConnection, logger: Logger
    ) async throws -> [(type: Int32, source: Int32, device: Int32?)] {
        var ids: [(type: Int32, source: Int32, device: Int32?)] = []
        ids.reserveCapacity(samples.count)
        for sample in samples {
            let type = try await typeID(sample.type, pending: &pending, connection: connection, logger: logger)
            let source = try await sourceID(sample.source, pending: &pending, connection: connection, logger: logger)
            var device: Int32?
            if let value = sample.device {
                device = try await deviceID(value, pending: &pending, connection: connection, logger: logger)
            }
            ids.append((type, source, device))
        }
        return ids
    }

    func typeID(
        _ type: SampleType, pending: inout Pending, connection: PostgresConnection, logger: Logger
    ) async throws -> Int32 {
        if let id = pending.types[type.identifier] ?? cachedTypeID(type.identifier) { return id }
        let id = try await Self.upsert(
            insert: """
                INSERT INTO health_sample_type (identifier, kind) VALUES (\(type.identifier), \(type.kind.rawValue))
                ON CONFLICT (identifier) DO NOTHING RETURNING id
                """,
            select: "SELECT id FROM health_sample_type WHERE identifier = \(type.identifier)", connection: connection,
            logger: logger)
        pending.types[type.identifier] = id
        return id
    }

    private func sourceID(
        _ source: Source, pending: inout Pending, connection: PostgresConnection, logger: Logger
    ) async throws -> Int32 {
        if let id = pending.sources[source] ?? tables.withLock({ $0.sourceIDs[source] }) { return id }
        let version = source.version ?? ""
        let id = try await Self.upsert(
            insert: """
                INSERT INTO health_source (name, version) VALUES (\(source.name), \(version))
                ON CONFLICT (name, version) DO NOTHING RETURNING id
                """,
            select: "SELECT id FROM health_source WHERE name = \(source.name) AND version = \(version)",
            connection: connection, logger: logger)
        pending.sources[source] = id
        return id
    }

    func deviceID(
        _ device: Device, pending: inout Pending, connection: PostgresConnection, logger: Logger
    ) async throws -> Int32 {
        let key = device.storageKey
        if let id = pending.devices[key]?.0 ?? tables.withLock({ $0.deviceIDs[key] }) { return id }
        let id = try await Self.upsert(
            insert: """
                INSERT INTO health_device (key, name, manufacturer, model, hardware, software, firmware,
                    local_identifier, udi_device_identifier, creation_date)
                VALUES (\(key), \(device.name), \(device.manufacturer), \(device.model), \(device.hardware),
                    \(device.software), \(device.firmware), \(device.localIdentifier), \(device.udiDeviceIdentifier),
                    \(device.creationDate))
                ON CONFLICT (key) DO NOTHING RETURNING id
                """,
            select: "SELECT id FROM health_device WHERE key = \(key)", connection: connection, logger: logger)
        pending.devices[key] = (id, device)
        return id
    }

    /// Inserts a name, or finds it when another transaction has (`DO NOTHING` takes no lock
    /// on the existing row, so writers of different users never wait for each other here).
    private static func upsert(
        insert: PostgresQuery, select: PostgresQuery, connection: PostgresConnection, logger: Logger
    ) async throws -> Int32 {
        for try await id in try await connection.query(insert, logger: logger).decode(Int32.self) { return id }
        for try await id in try await connection.query(select, logger: logger).decode(Int32.self) { return id }
        throw PostgresHealthStoreError("an interned name vanished")
    }
}

/// The `health_device` columns of a ``Device``.
enum DeviceColumns {
    static let select =
        "id, name, manufacturer, model, hardware, software, firmware, local_identifier, udi_device_identifier, creation_date"

    static func decode(_ row: PostgresRow) throws -> (Int32, Device) {
        let (id, name, manufacturer, model, hardware, software, firmware, local, udi, created) = try row.decode(
            (Int32, String?, String?, String?, String?, String?, String?, String?, String?, String?).self)
        return (
            id,
            Device(
                name: name, manufacturer: manufacturer, model: model, hardware: hardware, software: software,
                firmware: firmware, localIdentifier: local, udiDeviceIdentifier: udi, creationDate: created)
        )
    }
}

/// A stored row the PostgreSQL store cannot read (never a health value in the message).
public struct PostgresHealthStoreError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

import Foundation
import HealthCore
import Logging
import PostgresNIO

/// Sample types, sources and devices by row id, shared by every user and cached by the
/// process (docs/store.md §PostgreSQL, "Names").
///
/// - New names are interned **outside** the writer's transaction: each in a short autocommit
///   statement on ``PostgresPool/autocommit`` (a pool of its own, so a transaction never
///   waits for a connection that transactions hold), types, then sources, then devices, each
///   sorted. A writer's transaction never holds an uncommitted name, so writers of different
///   users introducing the same new names in any order never wait for each other (issue 32,
///   P1: they deadlocked when names were inserted inside the transactions).
/// - Sample types are never deleted: a cached type id stays right.
/// - A source or device is deleted with the last user who used it (``deleteUnused(after:connection:logger:)``).
///   So a writer's transaction takes `FOR KEY SHARE` on every source and device row it is
///   about to use and records its use (`health_source_user`, `health_device_user`); an id that
///   is gone (another process's cache may hold it) is forgotten and interned again. A
///   deletion locks the unused names `FOR UPDATE SKIP LOCKED` — never those a writer holds —
///   and checks in a later statement that no user uses them, so a name is never deleted
///   under a writer that uses it, and a writer never keeps a deleted name's id.
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

    /// How often a writer interns and locks a name that a user deletion removed meanwhile
    /// before it gives up (``NameRaceError``: the whole write is then tried again).
    static let lockAttempts = 4

    /// The names one write transaction uses: types by id, and sources and devices that it
    /// holds `FOR KEY SHARE` (so they stay until it commits) and has recorded as used.
    struct Pending {
        var types: [String: Int32] = [:]
        var sources: [Source: Int32] = [:]
        var devices: [String: (Int32, Device)] = [:]
    }

    /// The id of a type already stored for someone, or `nil`.
    func cachedTypeID(_ identifier: String) -> Int32? { tables.withLock { $0.typeIDs[identifier] } }

    /// The cached ids of each sample's type, source and device, in order; `nil` when one of
    /// them is not cached (``use(_:userID:pending:connection:interning:logger:)`` interns it).
    func cachedIDs(of samples: [Sample]) -> [(type: Int32, source: Int32, device: Int32?)]? {
        tables.withLock { tables in
            var ids: [(type: Int32, source: Int32, device: Int32?)] = []
            ids.reserveCapacity(samples.count)
            for sample in samples {
                guard let type = tables.typeIDs[sample.type.identifier], let source = tables.sourceIDs[sample.source]
                else { return nil }
                guard let device = sample.device else {
                    ids.append((type, source, nil))
                    continue
                }
                guard let id = tables.deviceIDs[device.storageKey] else { return nil }
                ids.append((type, source, id))
            }
            return ids
        }
    }

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

    /// Reads the three tables again (they are small: a few hundred rows) and replaces the
    /// cache with them, so names deleted since (by any process) leave it.
    func reload(client: PostgresClient, logger: Logger) async throws {
        var fresh = Tables()
        for try await (id, identifier) in try await client.query(
            "SELECT id, identifier FROM health_sample_type", logger: logger
        ).decode((Int32, String).self) {
            fresh.typeIDs[identifier] = id
            fresh.types[id] = SampleType(identifier)
        }
        for try await (id, name, version) in try await client.query(
            "SELECT id, name, version FROM health_source", logger: logger
        ).decode((Int32, String, String).self) {
            let source = Source(name: name, version: version.isEmpty ? nil : version)
            fresh.sourceIDs[source] = id
            fresh.sources[id] = source
        }
        for try await row in try await client.query(
            "SELECT \(unescaped: DeviceColumns.select) FROM health_device", logger: logger)
        {
            let (id, device) = try DeviceColumns.decode(row)
            fresh.deviceIDs[device.storageKey] = id
            fresh.devices[id] = device
        }
        tables.withLock { $0 = fresh }
    }

    /// Drops sources and devices that are no longer stored (deleted with their last user)
    /// from the cache: every entry with one of these ids, whatever name maps to it (a source
    /// without a version and one with an empty version share a row).
    func forget(sources sourceIDs: [Int32], devices deviceIDs: [Int32]) {
        guard !sourceIDs.isEmpty || !deviceIDs.isEmpty else { return }
        let (goneSources, goneDevices) = (Set(sourceIDs), Set(deviceIDs))
        tables.withLock { tables in
            if !goneSources.isEmpty {
                tables.sourceIDs = tables.sourceIDs.filter { !goneSources.contains($0.value) }
                tables.sources = tables.sources.filter { !goneSources.contains($0.key) }
            }
            if !goneDevices.isEmpty {
                tables.deviceIDs = tables.deviceIDs.filter { !goneDevices.contains($0.value) }
                tables.devices = tables.devices.filter { !goneDevices.contains($0.key) }
            }
        }
    }

    // MARK: names a write transaction uses

    /// Makes the types, sources and devices of `samples` usable by `userID`'s write
    /// transaction on `connection`, into `pending`: names not stored yet are interned on
    /// `client` (autocommit, outside the transaction, sorted), then the transaction locks
    /// the sources and devices `FOR KEY SHARE` and records that `userID` uses them. An id
    /// that is not stored any more (deleted with its last user after this or another
    /// process cached it) is forgotten and its name interned again.
    func use(
        _ samples: [Sample], userID: String, pending: inout Pending, connection: PostgresConnection,
        interning client: PostgresClient, logger: Logger
    ) async throws {
        var types: [String: SampleType] = [:]
        var sources: Set<Source> = []
        var devices: [String: Device] = [:]
        for sample in samples {
            if pending.types[sample.type.identifier] == nil { types[sample.type.identifier] = sample.type }
            if pending.sources[sample.source] == nil { sources.insert(sample.source) }
            if let device = sample.device {
                let key = device.storageKey
                if pending.devices[key] == nil { devices[key] = device }
            }
        }
        for type in types.values.sorted(by: { $0.identifier < $1.identifier }) {
            pending.types[type.identifier] = try await typeID(interning: type, client: client, logger: logger)
        }
        var usedSources: [Int32] = []
        var usedDevices: [Int32] = []
        var attempt = 0
        while !sources.isEmpty || !devices.isEmpty {
            attempt += 1
            guard attempt <= Self.lockAttempts else { throw NameRaceError() }
            var sourceIDs: [(Source, Int32)] = []
            for source in sources.sorted(by: { ($0.name, $0.version ?? "") < ($1.name, $1.version ?? "") }) {
                sourceIDs.append((source, try await sourceID(interning: source, client: client, logger: logger)))
            }
            var deviceIDs: [(String, Int32)] = []
            for key in devices.keys.sorted() {
                deviceIDs.append((key, try await deviceID(interning: devices[key]!, key: key, client: client, logger: logger)))
            }
            let (lockedSources, lockedDevices) = try await Self.lock(
                sources: sourceIDs.map { $0.1 }, devices: deviceIDs.map { $0.1 }, connection: connection, logger: logger)
            var goneSources: [Int32] = []
            var goneDevices: [Int32] = []
            for (source, id) in sourceIDs {
                if lockedSources.contains(id) {
                    pending.sources[source] = id
                    sources.remove(source)
                    usedSources.append(id)
                } else {
                    goneSources.append(id)
                }
            }
            for (key, id) in deviceIDs {
                if lockedDevices.contains(id), let device = devices.removeValue(forKey: key) {
                    pending.devices[key] = (id, device)
                    usedDevices.append(id)
                } else {
                    goneDevices.append(id)
                }
            }
            forget(sources: goneSources, devices: goneDevices)
        }
        try await Self.recordUse(
            sources: usedSources, devices: usedDevices, userID: userID, connection: connection, logger: logger)
    }

    /// The id of `type`, interned on `client` (autocommit) if no one stored it yet.
    func typeID(interning type: SampleType, client: PostgresClient, logger: Logger) async throws -> Int32 {
        if let id = cachedTypeID(type.identifier) { return id }
        let id = try await Self.upsert(
            insert: """
                INSERT INTO health_sample_type (identifier, kind) VALUES (\(type.identifier), \(type.kind.rawValue))
                ON CONFLICT (identifier) DO NOTHING RETURNING id
                """,
            select: "SELECT id FROM health_sample_type WHERE identifier = \(type.identifier)", client: client,
            logger: logger)
        tables.withLock { tables in
            tables.typeIDs[type.identifier] = id
            tables.types[id] = type
        }
        return id
    }

    /// The id of `source` as cached, or interned on `client` (autocommit).
    private func sourceID(interning source: Source, client: PostgresClient, logger: Logger) async throws -> Int32 {
        if let id = tables.withLock({ $0.sourceIDs[source] }) { return id }
        let version = source.version ?? ""
        let id = try await Self.upsert(
            insert: """
                INSERT INTO health_source (name, version) VALUES (\(source.name), \(version))
                ON CONFLICT (name, version) DO NOTHING RETURNING id
                """,
            select: "SELECT id FROM health_source WHERE name = \(source.name) AND version = \(version)",
            client: client, logger: logger)
        tables.withLock { tables in
            tables.sourceIDs[source] = id
            tables.sources[id] = source
        }
        return id
    }

    /// The id of `device` (whose storage key is `key`) as cached, or interned on `client` (autocommit).
    private func deviceID(interning device: Device, key: String, client: PostgresClient, logger: Logger) async throws -> Int32 {
        if let id = tables.withLock({ $0.deviceIDs[key] }) { return id }
        let id = try await Self.upsert(
            insert: """
                INSERT INTO health_device (key, name, manufacturer, model, hardware, software, firmware,
                    local_identifier, udi_device_identifier, creation_date)
                VALUES (\(key), \(device.name), \(device.manufacturer), \(device.model), \(device.hardware),
                    \(device.software), \(device.firmware), \(device.localIdentifier), \(device.udiDeviceIdentifier),
                    \(device.creationDate))
                ON CONFLICT (key) DO NOTHING RETURNING id
                """,
            select: "SELECT id FROM health_device WHERE key = \(key)", client: client, logger: logger)
        tables.withLock { tables in
            tables.deviceIDs[key] = id
            tables.devices[id] = device
        }
        return id
    }

    /// Inserts a name, or finds it when someone has: each statement commits on its own
    /// (`client` is never a transaction's connection), so it waits at most for another
    /// such statement inserting the same name, or for a user deletion removing it. A name
    /// deleted between the insert and the look-up is inserted again.
    private static func upsert(
        insert: PostgresQuery, select: PostgresQuery, client: PostgresClient, logger: Logger
    ) async throws -> Int32 {
        for _ in 0..<lockAttempts {
            for try await id in try await client.query(insert, logger: logger).decode(Int32.self) { return id }
            for try await id in try await client.query(select, logger: logger).decode(Int32.self) { return id }
        }
        throw NameRaceError()
    }

    /// Locks the rows of `sources` in `health_source`, then of `devices` in `health_device`,
    /// `FOR KEY SHARE` for the transaction on `connection`, in one statement; returns those
    /// still stored (a row a user deletion removed is skipped once that deletion commits).
    private static func lock(
        sources: [Int32], devices: [Int32], connection: PostgresConnection, logger: Logger
    ) async throws -> (sources: Set<Int32>, devices: Set<Int32>) {
        guard !sources.isEmpty || !devices.isEmpty else { return ([], []) }
        var locked: (sources: Set<Int32>, devices: Set<Int32>) = ([], [])
        // An append runs its branches in order: sources are locked before devices, each in
        // id order, as every writer locks them.
        for try await (table, id) in try await connection.query(
            """
            SELECT 0, id FROM (SELECT id FROM health_source WHERE id = ANY(\(sources)) ORDER BY id FOR KEY SHARE) s
            UNION ALL
            SELECT 1, id FROM (SELECT id FROM health_device WHERE id = ANY(\(devices)) ORDER BY id FOR KEY SHARE) d
            """, logger: logger
        ).decode((Int32, Int32).self) {
            if table == 0 { locked.sources.insert(id) } else { locked.devices.insert(id) }
        }
        return locked
    }

    /// Records in the transaction on `connection` that `userID` uses the sources `sources`
    /// and the devices `devices`, in one statement.
    private static func recordUse(
        sources: [Int32], devices: [Int32], userID: String, connection: PostgresConnection, logger: Logger
    ) async throws {
        guard !sources.isEmpty || !devices.isEmpty else { return }
        try await connection.query(
            """
            WITH used_sources AS (
                INSERT INTO health_source_user (source_id, user_id)
                SELECT u.id, \(userID) FROM unnest(\(sources)::integer[]) AS u(id) ORDER BY u.id
                ON CONFLICT DO NOTHING
            )
            INSERT INTO health_device_user (device_id, user_id)
            SELECT u.id, \(userID) FROM unnest(\(devices)::integer[]) AS u(id) ORDER BY u.id
            ON CONFLICT DO NOTHING
            """, logger: logger)
    }

    // MARK: deleting names with their last user

    /// In the transaction on `connection` that deletes `userID`'s rows (after them): drops
    /// the user's uses of names, then deletes every source and device that no user uses —
    /// theirs, and any a failed write interned — except those a writer's transaction holds
    /// right now (`FOR UPDATE SKIP LOCKED`: a deletion never waits for a writer, and what it
    /// skips is in use). Whether a locked name is still unused is checked by a later
    /// statement, which sees every write committed before the lock was taken. Types stay.
    func deleteUnused(after userID: String, connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("DELETE FROM health_source_user WHERE user_id = \(userID)", logger: logger)
        try await connection.query("DELETE FROM health_device_user WHERE user_id = \(userID)", logger: logger)
        let sources = try await Self.deleteUnused(
            "health_source", uses: "health_source_user", column: "source_id", connection: connection, logger: logger)
        let devices = try await Self.deleteUnused(
            "health_device", uses: "health_device_user", column: "device_id", connection: connection, logger: logger)
        // This process's cache forgets them at once (other processes find them gone when
        // a writer locks them, or at their next reload).
        forget(sources: sources, devices: devices)
    }

    /// Deletes the rows of `table` that no row of `uses` names and no writer holds; returns their ids.
    private static func deleteUnused(
        _ table: String, uses: String, column: String, connection: PostgresConnection, logger: Logger
    ) async throws -> [Int32] {
        var candidates: [Int32] = []
        for try await id in try await connection.query(
            """
            SELECT n.id FROM \(unescaped: table) n
            WHERE NOT EXISTS (SELECT 1 FROM \(unescaped: uses) u WHERE u.\(unescaped: column) = n.id)
            ORDER BY n.id FOR UPDATE OF n SKIP LOCKED
            """, logger: logger
        ).decode(Int32.self) {
            candidates.append(id)
        }
        guard !candidates.isEmpty else { return [] }
        var deleted: [Int32] = []
        for try await id in try await connection.query(
            """
            DELETE FROM \(unescaped: table) n
            WHERE n.id = ANY(\(candidates))
                AND NOT EXISTS (SELECT 1 FROM \(unescaped: uses) u WHERE u.\(unescaped: column) = n.id)
            RETURNING n.id
            """, logger: logger
        ).decode(Int32.self) {
            deleted.append(id)
        }
        return deleted
    }
}

/// A source or device that user deletions removed each time a writer interned it again
/// (``InternedNames``): the write is tried again as a whole (``StoreBusyError``).
struct NameRaceError: Error, CustomStringConvertible {
    var description: String { "a name was deleted while a write was using it" }
}

/// A stored row the PostgreSQL store cannot read (never a health value in the message).
public struct PostgresHealthStoreError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

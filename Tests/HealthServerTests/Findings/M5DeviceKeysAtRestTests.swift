import Foundation
import GRDB
import HealthCore
import HealthPostgres
import HealthServer
import HealthServerRecords
import HealthServerStorage
import HealthWire
import Hummingbird
import HummingbirdTesting
import Testing

/// Finding M5 (issue 32): device keys (the 32-byte AES keys of sync) were stored in clear
/// in `server.sqlite` / PostgreSQL `device_key.secret`, so whoever read the database (a
/// copy, a dump, a backup) could open and forge every device's batches. They are sealed
/// now under a server key kept outside the database (``SealedDeviceRepository``,
/// ``ServerKey``); rows from before are read as they are and sealed at start; a rotation
/// re-seals every row under a new server key.
@Suite struct M5DeviceKeysAtRestTests {
    /// An app over the harness's store (its users, its samples) with device keys sealed
    /// under `key`, as `healthpipe serve` composes it.
    static func app(_ harness: ServerHarness, key: ServerKey) throws -> some ApplicationProtocol {
        let healthStores: any UserHealthStores =
            harness.samples.map(PostgresUserHealthStores.init(database:)) ?? SQLiteUserHealthStores(folder: harness.folder.path)
        var repositories = ServerRepositories(store: harness.store, healthStores: healthStores, dataFolder: harness.folder.path)
        repositories.devices = SealedDeviceRepository(inner: harness.store, key: key)
        return try buildApplication(configuration: ServerConfiguration(), repositories: repositories)
    }

    /// The device's key secrets exactly as the database holds them (the undecorated store).
    static func stored(_ harness: ServerHarness, deviceID: String) async throws -> [String: Data] {
        var secrets: [String: Data] = [:]
        for key in try await harness.store.keys(deviceID: deviceID) { secrets[key.id] = key.secret }
        return secrets
    }

    /// Checks, below the store, that `secret` is nowhere in the database: SQLite's file and
    /// its WAL byte for byte and the `device_key` column read by GRDB; PostgreSQL's tables
    /// as text (bytea in hex).
    static func expectNowhere(_ secret: Data, in harness: ServerHarness) async throws {
        switch harness.backend {
        case .sqlite:
            let path = harness.folder.appendingPathComponent("server.sqlite").path
            var configuration = GRDB.Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            let column = try await queue.read { db in try Data.fetchAll(db, sql: "SELECT secret FROM device_key") }
            try queue.close()
            #expect(!column.isEmpty)
            #expect(column.allSatisfy { $0 != secret && $0.range(of: secret) == nil })
            for file in [path, path + "-wal"] where FileManager.default.fileExists(atPath: file) {
                #expect(try Data(contentsOf: URL(fileURLWithPath: file)).range(of: secret) == nil)
            }
        case .postgres:
            let hex = secret.map { String(format: "%02x", $0) }.joined()
            let rows = try await harness.dumpTables()
            #expect(rows.contains { $0.hasPrefix("device_key ") })
            #expect(!rows.contains { $0.contains(hex) })
        }
    }

    /// Posts `count` step samples as one batch sealed with `device`'s key.
    static func sync(
        _ client: some TestClientProtocol, _ harness: ServerHarness, _ device: SyncRouteTests.EnrolledDevice, sequence: Int64,
        from offset: Int = 0
    ) async throws -> (HTTPResponse.Status, [String: Any]) {
        let items = SyncRouteTests.samples(2, from: offset).map { SyncItem.add(SampleWire($0)) }
        let (status, json, _) = try await SyncRouteTests.post(
            client, harness, try SyncRouteTests.envelope(items, device: device, sequence: sequence))
        return (status, json)
    }

    /// A new key for the device through `POST /v1/devices/{id}/keys`.
    static func rotateDeviceKey(
        _ client: some TestClientProtocol, _ harness: ServerHarness, _ device: SyncRouteTests.EnrolledDevice
    ) async throws -> SyncKey {
        try await client.execute(uri: "/v1/devices/\(device.id)/keys", method: .post, headers: harness.headers("alice")) {
            response in
            #expect(response.status == .created)
            return try SyncRouteTests.key(try #require(ServerHarness.json(response.body)["key"] as? [String: Any]))
        }
    }

    @Test(arguments: ServerBackend.enabled)
    func m5_enrolledAndRotatedKeysAreStoredSealedAndSyncStillWorks(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let key = ServerKey.generate()
        try await Self.app(harness, key: key).test(.router) { client in
            var device = try await SyncRouteTests.enrol(client, harness)
            // The old code kept exactly the secret the enrolment answered.
            let first = try await Self.stored(harness, deviceID: device.id)
            let sealed = try #require(first[device.key.id])
            #expect(sealed != device.key.secret)
            #expect(sealed.count == 68 && sealed.prefix(4) == Data("HPK1".utf8))
            #expect(sealed.range(of: device.key.secret) == nil)
            try await Self.expectNowhere(device.key.secret, in: harness)
            // Only the server key opens it, and only as this device's key.
            let opened = try SealedDeviceRepository.open(sealed, deviceID: device.id, keyID: device.key.id, under: key)
            #expect(opened == device.key.secret)
            #expect(throws: ServerKeyError.self) {
                try SealedDeviceRepository.open(sealed, deviceID: device.id, keyID: device.key.id, under: ServerKey.generate())
            }
            #expect(throws: ServerKeyError.self) {
                try SealedDeviceRepository.open(sealed, deviceID: "another-device", keyID: device.key.id, under: key)
            }
            #expect(throws: ServerKeyError.self) {
                try SealedDeviceRepository.open(sealed, deviceID: device.id, keyID: "k-another", under: key)
            }
            // A batch sealed with the device's key is accepted.
            let (status, answer) = try await Self.sync(client, harness, device, sequence: 1)
            #expect(status == .ok && answer["added"] as? Int == 2)
            // A rotated key is sealed too, and works.
            device.key = try await Self.rotateDeviceKey(client, harness, device)
            let second = try #require(try await Self.stored(harness, deviceID: device.id)[device.key.id])
            #expect(second != device.key.secret && second.count == 68)
            try await Self.expectNowhere(device.key.secret, in: harness)
            let (again, answered) = try await Self.sync(client, harness, device, sequence: 2, from: 2)
            #expect(again == .ok && answered["added"] as? Int == 2)
            // Nothing stored in clear is left to seal.
            #expect(try await SealedDeviceRepository(inner: harness.store, key: key).sealLegacyKeys() == 0)
        }
    }

    @Test(arguments: ServerBackend.enabled)
    func m5_aKeyStoredInClearBeforeIsReadThenSealedAtStart(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        // A device enrolled by the old code: its key in clear in the database.
        let legacy = SyncKey.generate()
        let aliceID = try #require(harness.ids["alice"])
        let deviceID = UUID().uuidString.lowercased()
        try await harness.store.addDevice(
            SyncDevice(id: deviceID, userID: aliceID, name: "Old phone", createdAt: Date()), key: legacy)
        #expect(try await Self.stored(harness, deviceID: deviceID)[legacy.id] == legacy.secret)
        let device = SyncRouteTests.EnrolledDevice(id: deviceID, userID: aliceID, key: legacy)
        let key = ServerKey.generate()
        let sealing = SealedDeviceRepository(inner: harness.store, key: key)
        try await Self.app(harness, key: key).test(.router) { client in
            // Read as it is.
            let status1 = try await Self.sync(client, harness, device, sequence: 1).0
            #expect(status1 == .ok)
            // What serve does at start: sealed, once.
            #expect(try await sealing.sealLegacyKeys() == 1)
            #expect(try await sealing.sealLegacyKeys() == 0)
            let sealed = try #require(try await Self.stored(harness, deviceID: deviceID)[legacy.id])
            #expect(sealed != legacy.secret && sealed.count == 68)
            try await Self.expectNowhere(legacy.secret, in: harness)
            // And still the device's key.
            #expect(try await sealing.keys(deviceID: deviceID).map(\.secret) == [legacy.secret])
            let status2 = try await Self.sync(client, harness, device, sequence: 2, from: 2).0
            #expect(status2 == .ok)
        }
        // The same start through ServerRepositories, as `serve` calls it: nothing left to seal.
        let repositories = ServerRepositories(
            store: harness.store, healthStores: harness.repositories().healthStores, dataFolder: harness.folder.path)
        #expect(try await repositories.sealingDeviceKeys(under: key).sealed == 0)
    }

    @Test(arguments: ServerBackend.enabled)
    func m5_rotationReSealsEveryKeyUnderTheNewServerKey(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let old = ServerKey.generate()
        let new = ServerKey.generate()
        // Two devices, one of them with a rotated key, and one key still in clear: four rows.
        let (first, second) = try await Self.app(harness, key: old).test(.router) { client in
            var first = try await SyncRouteTests.enrol(client, harness)
            first.key = try await Self.rotateDeviceKey(client, harness, first)
            let second = try await SyncRouteTests.enrol(client, harness)
            let status3 = try await Self.sync(client, harness, first, sequence: 1).0
            #expect(status3 == .ok)
            return (first, second)
        }
        let legacy = SyncKey.generate()
        let aliceID = try #require(harness.ids["alice"])
        let legacyDevice = SyncRouteTests.EnrolledDevice(id: UUID().uuidString.lowercased(), userID: aliceID, key: legacy)
        try await harness.store.addDevice(
            SyncDevice(id: legacyDevice.id, userID: aliceID, name: "Old phone", createdAt: Date()), key: legacy)
        let rows = try await harness.store.allDeviceKeys()
        #expect(rows.count == 4)

        let (resealed, rotated) = try await SealedDeviceRepository(inner: harness.store, key: old).rotate(to: new)
        #expect(resealed == 4)
        #expect(rotated.key.fingerprint == new.fingerprint)
        for row in try await harness.store.allDeviceKeys() {
            #expect(row.storedSecret.count == 68)
            // The old server key opens nothing any more; the new one opens every key.
            #expect(throws: ServerKeyError.self) {
                try SealedDeviceRepository.open(row.storedSecret, deviceID: row.deviceID, keyID: row.keyID, under: old)
            }
            let secret = try SealedDeviceRepository.open(row.storedSecret, deviceID: row.deviceID, keyID: row.keyID, under: new)
            let before = try #require(rows.first { $0.deviceID == row.deviceID && $0.keyID == row.keyID })
            let expected =
                try SealedDeviceRepository.isClear(before.storedSecret)
                ? before.storedSecret
                : SealedDeviceRepository.open(before.storedSecret, deviceID: row.deviceID, keyID: row.keyID, under: old)
            #expect(secret == expected)
        }
        // Run again (a rotation cut short): nothing left to do.
        #expect(try await SealedDeviceRepository(inner: harness.store, key: old).rotate(to: new).resealed == 0)
        // A server still on the old key refuses to start, naming the key it needs…
        await #expect(throws: ServerKeyError.self) {
            try await SealedDeviceRepository(inner: harness.store, key: old).sealLegacyKeys()
        }
        // …and, had it started, answers a batch 500 without a byte of a key.
        try await Self.app(harness, key: old).test(.router) { client in
            let (status, problem) = try await Self.sync(client, harness, second, sequence: 1)
            #expect(status == .internalServerError)
            #expect(problem["detail"] as? String == "the server key does not open this device's key")
        }
        // On the new key, sync goes on for every device.
        #expect(try await rotated.sealLegacyKeys() == 0)
        try await Self.app(harness, key: new).test(.router) { client in
            let status4 = try await Self.sync(client, harness, first, sequence: 2, from: 2).0
            #expect(status4 == .ok)
            let status5 = try await Self.sync(client, harness, second, sequence: 1, from: 4).0
            #expect(status5 == .ok)
            let status6 = try await Self.sync(client, harness, legacyDevice, sequence: 1, from: 6).0
            #expect(status6 == .ok)
        }
    }

    @Test func m5_aSealedKeyMovedToAnotherRowDoesNotOpen() async throws {
        let key = ServerKey.generate()
        let secret = SyncKey.generate().secret
        let sealed = try SealedDeviceRepository.seal(secret, deviceID: "d-1", keyID: "k-1", under: key)
        #expect(try SealedDeviceRepository.open(sealed, deviceID: "d-1", keyID: "k-1", under: key) == secret)
        // A fresh nonce each time: the same secret never seals to the same bytes.
        #expect(try SealedDeviceRepository.seal(secret, deviceID: "d-1", keyID: "k-1", under: key) != sealed)
        func opens(_ stored: Data, device: String = "d-1", key keyID: String = "k-1") -> Bool {
            (try? SealedDeviceRepository.open(stored, deviceID: device, keyID: keyID, under: key)) != nil
        }
        #expect(opens(sealed))
        #expect(!opens(sealed, device: "d-2"))
        #expect(!opens(sealed, key: "k-2"))
        var damaged = sealed
        damaged[damaged.startIndex + 30] ^= 0x01
        #expect(!opens(damaged))
        // Neither 32 bytes in clear nor the sealed form.
        #expect(throws: ServerKeyError.self) {
            try SealedDeviceRepository.open(Data(repeating: 1, count: 40), deviceID: "d-1", keyID: "k-1", under: key)
        }
    }

    @Test func m5_theServerKeyFileIsMade0600RefusedWhenOthersMayReadItAndTheEnvironmentWins() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("healthpipe-m5-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("keys/server.key").path
        func mode() throws -> Int {
            let attributes = try FileManager.default.attributesOfItem(atPath: file)
            return try #require(attributes[.posixPermissions] as? Int) & 0o777
        }

        // Missing: made, 0600, with a key; read back the same afterwards.
        let (made, origin) = try ServerKey.load(file: file, environment: [:])
        #expect(origin == .created(file))
        #expect(try mode() == 0o600)
        let (read, readOrigin) = try ServerKey.load(file: file, environment: [:])
        #expect(readOrigin == .file(file) && read.bytes == made.bytes)
        let again = try ServerKey.create(file: file)
        #expect(again?.bytes == nil)  // never over an existing key
        #expect(try ServerKey.read(file: file).bytes == made.bytes)

        // Group or others may read it: refused, with what to do.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        do {
            _ = try ServerKey.load(file: file, environment: [:])
            Issue.record("a server key file others may read was used")
        } catch let error as ServerKeyError {
            #expect(error.description.contains("chmod 600"))
            #expect(!error.description.contains(made.base64))
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file)
        #expect(throws: ServerKeyError.self) { try ServerKey.load(file: file, environment: [:]) }

        // The environment wins over the file (which is not even read).
        let fromEnvironment = ServerKey.generate()
        let (loaded, loadedOrigin) = try ServerKey.load(
            file: file, environment: [ServerKey.environmentVariable: fromEnvironment.base64])
        #expect(loadedOrigin == .environment && loaded.bytes == fromEnvironment.bytes)
        // …and with it set, a missing file is not made.
        let elsewhere = folder.appendingPathComponent("other.key").path
        _ = try ServerKey.load(file: elsewhere, environment: [ServerKey.environmentVariable: fromEnvironment.base64])
        #expect(!FileManager.default.fileExists(atPath: elsewhere))
        #expect(throws: ServerKeyError.self) {
            try ServerKey.load(file: file, environment: [ServerKey.environmentVariable: "bm90IGEga2V5"])
        }

        // A 0600 file that does not hold 32 bytes of base64.
        try FileManager.default.removeItem(atPath: file)
        _ = FileManager.default.createFile(
            atPath: file, contents: Data("not a key\n".utf8), attributes: [.posixPermissions: 0o600])
        #expect(try mode() == 0o600)
        #expect(throws: ServerKeyError.self) { try ServerKey.load(file: file, environment: [:]) }
        try FileManager.default.removeItem(atPath: file)
        _ = FileManager.default.createFile(
            atPath: file, contents: Data(Data(repeating: 7, count: 16).base64EncodedString().utf8),
            attributes: [.posixPermissions: 0o600])
        #expect(throws: ServerKeyError.self) { try ServerKey.load(file: file, environment: [:]) }
    }
}

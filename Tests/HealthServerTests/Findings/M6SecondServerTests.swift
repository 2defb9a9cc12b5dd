import Foundation
import HealthCore
import HealthPostgres
import HealthServer
import HealthServerRecords
import HealthServerStorage
import HealthWire
import Hummingbird
import HummingbirdTesting
import Testing

/// Finding M6 (issue 32): a second `healthpipe serve` on one SQLite data folder started,
/// and the result of a sync batch's sequence check-and-advance was ignored. Now the folder
/// is locked for the server's life, and the advance is one conditional update that counts
/// (inside the batch's transaction on PostgreSQL).
@Suite struct M6SecondServerTests {
    static func temporaryFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("healthpipe-m6-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.path
    }

    /// Two locks on one folder (or one server file) in one process: the second is refused
    /// naming the folder; once the first is gone, the folder can be locked again.
    @Test func m6_aSecondLockOnOneFolderIsRefused() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = (folder as NSString).appendingPathComponent("server.sqlite")
        let locks = [
            (path: (folder as NSString).appendingPathComponent(DataFolderLock.fileName), guarded: folder),
            (path: database + ".lock", guarded: database),
        ]
        do {
            let first = try DataFolderLock(folder: folder)
            let file = try DataFolderLock(path: database + ".lock", guarding: database)
            #expect(first.guarded == folder && file.guarded == database)
            for lock in locks {
                do {
                    _ = try DataFolderLock(path: lock.path, guarding: lock.guarded)
                    Issue.record("a second lock on \(lock.path) was granted")
                } catch let error as DataFolderInUse {
                    #expect(error.path == lock.guarded)
                    #expect(error.description == "another healthpipe serve is using \(lock.guarded)")
                }
            }
            withExtendedLifetime((first, file)) {}
        }
        // The first holder is gone (as a stopped or killed server's lock): granted again.
        // Another test of this process may be starting a child process: between its fork and
        // its exec the child holds a copy of every descriptor (O_CLOEXEC acts at the exec),
        // so the lock can outlive our close by that instant. Asked again for up to a second.
        var again: DataFolderLock?
        for _ in 0..<100 where again == nil {
            again = try? DataFolderLock(folder: folder)
            if again == nil { Thread.sleep(forTimeInterval: 0.01) }
        }
        #expect(again?.guarded == folder)
    }

    /// End to end: while one `healthpipe serve` runs on a folder, a second one on it exits 2
    /// naming the folder, and `users delete` refuses too.
    @Test(.timeLimit(.minutes(3))) func m6_aSecondServeOnOneFolderExitsWithTwo() async throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = (folder as NSString).appendingPathComponent("server.sqlite")
        let firstLog = URL(fileURLWithPath: folder).appendingPathComponent("first.log")
        let secondLog = URL(fileURLWithPath: folder).appendingPathComponent("second.log")
        let ports = (try FaultProxy.freePort(), try FaultProxy.freePort())
        let first = try ChildProcess(["serve", "--server-db", database, "--port", "\(ports.0)"], log: firstLog)
        defer { first.kill() }
        // Its banner comes after it has taken the lock.
        let deadline = Date().addingTimeInterval(120)
        while first.isRunning, Date() < deadline {
            if (try? String(contentsOf: firstLog, encoding: .utf8))?.contains("healthpipe serve:") == true { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let started = (try? String(contentsOf: firstLog, encoding: .utf8)) ?? ""
        try #require(first.isRunning, "the first server did not start: \(started)")
        let second = try ChildProcess(["serve", "--server-db", database, "--port", "\(ports.1)"], log: secondLog)
        let status = await second.wait(seconds: 60)
        second.kill()
        let said = (try? String(contentsOf: secondLog, encoding: .utf8)) ?? ""
        #expect(status == 2, "\(said)")
        #expect(said.contains("another healthpipe serve is using \(folder)"), "\(said)")
        do {
            _ = try ChildProcess.output(["users", "delete", "nobody", "--server-db", database, "--yes"])
            Issue.record("users delete ran beside the server")
        } catch let error as ChaosError {
            #expect(error.description.contains("healthpipe serve is running on \(folder)"), "\(error)")
        }
        first.terminate()
        #expect(await first.wait(seconds: 30) != nil)
    }

    /// Request slots that are always free (a slot left stale, or servers that do not share
    /// them): only the sequence's own check stands between two batches.
    struct AlwaysFreeSlots: InFlightSlots {
        func begin(_ slot: String) async throws -> Bool { true }
        func end(_ slot: String) async {}
    }

    /// Two batches of one device with the same sequence and different batch ids, at once,
    /// 50 times: exactly one is applied (200), the other is refused, and only the first's
    /// samples are stored. On PostgreSQL with no request slot, one batch to each of two
    /// servers (the check is the conditional update in the batch's transaction); on SQLite
    /// through the one server and its device slot (409, or 422 once the other has ended).
    @Test(.timeLimit(.minutes(10)), arguments: ServerBackend.enabled)
    func m6_twoBatchesWithOneSequenceNeverBothCommit(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        var repositories = harness.repositories()
        var other: (store: PostgresServerStore, samples: PostgresHealthDatabase)?
        var otherRepositories = repositories
        if backend == .postgres {
            repositories.inFlight = AlwaysFreeSlots()
            let store = try await PostgresServerStore(url: ServerBackend.postgresURL!, schema: harness.schema!)
            let samples = try await PostgresHealthDatabase(pool: store.pool)
            other = (store, samples)
            otherRepositories = ServerRepositories(
                store: store, healthStores: PostgresUserHealthStores(database: samples),
                dataFolder: harness.folder.appendingPathComponent("second").path)
            otherRepositories.inFlight = AlwaysFreeSlots()
        }
        let first = try buildApplication(configuration: ServerConfiguration(), repositories: repositories)
        var otherApp: (any ApplicationProtocol)?
        if backend == .postgres {
            otherApp = try buildApplication(configuration: ServerConfiguration(), repositories: otherRepositories)
        }
        let second = otherApp
        // Refused: by the sequence alone on PostgreSQL; on SQLite also by the device's slot.
        let refusals: Set<HTTPResponse.Status> =
            backend == .postgres ? [.unprocessableContent] : [.conflict, .unprocessableContent]
        let perBatch = 3
        try await first.test(.router) { client in
            let device = try await SyncRouteTests.enrol(client, harness)
            let run: @Sendable (any TestClientProtocol) async throws -> Set<String> = { otherClient in
                var stored = Set<String>()
                for sequence in 1...50 {
                    let a = SyncRouteTests.samples(perBatch, from: sequence * 2 * perBatch)
                    let b = SyncRouteTests.samples(perBatch, from: sequence * 2 * perBatch + perBatch)
                    let envelopeA = try SyncRouteTests.envelope(
                        a.map { .add(SampleWire($0)) }, device: device, sequence: Int64(sequence))
                    let envelopeB = try SyncRouteTests.envelope(
                        b.map { .add(SampleWire($0)) }, device: device, sequence: Int64(sequence))
                    async let statusA = Self.post(client, harness, envelopeA)
                    async let statusB = Self.post(otherClient, harness, envelopeB)
                    let answerA = try await statusA
                    let answerB = try await statusB
                    let answers = [answerA, answerB]
                    #expect(answers.filter { $0 == .ok }.count == 1, "sequence \(sequence): \(answers)")
                    #expect(answers.filter { refusals.contains($0) }.count == 1, "sequence \(sequence): \(answers)")
                    if answerA == .ok { stored.formUnion(a.map(\.uuid.uuidString)) }
                    if answerB == .ok { stored.formUnion(b.map(\.uuid.uuidString)) }
                }
                return stored
            }
            // The batches' samples that were answered 200.
            let stored: Set<String>
            if let second {
                stored = try await second.test(.router) { otherClient in try await run(otherClient) }
            } else {
                stored = try await run(client)
            }
            try await client.execute(
                uri: "/v1/changes?type=HKQuantityTypeIdentifierStepCount&limit=10000", method: .get,
                headers: harness.headers("alice")
            ) { response in
                let entries = ServerHarness.json(response.body)["changes"] as? [[String: Any]] ?? []
                #expect(Set(entries.compactMap { $0["uuid"] as? String }) == stored)
                #expect(entries.count == 50 * perBatch)
            }
            try await client.execute(uri: "/v1/devices", method: .get, headers: harness.headers("alice")) { response in
                let devices = ServerHarness.json(response.body)["devices"] as? [[String: Any]]
                #expect(devices?.first?["last_sequence"] as? Int == 50)
            }
        }
        if let other {
            await other.samples.close()
            await other.store.close()
        }
    }

    /// Posts a batch as Alice; its status.
    static func post(
        _ client: some TestClientProtocol, _ harness: ServerHarness, _ envelope: SyncEnvelope
    ) async throws -> HTTPResponse.Status {
        try await client.execute(
            uri: "/v1/sync/batches?tz=Europe/Paris", method: .post,
            headers: harness.headers("alice", idempotencyKey: envelope.batchID.uuidString.lowercased()),
            body: ByteBuffer(bytes: try envelope.encoded())
        ) { $0.status }
    }
}

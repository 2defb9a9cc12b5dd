import Foundation
import HealthCore
import HealthImport
import HealthPostgres
import HealthSynth
import HealthWire
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import HealthServer
@testable import HealthServerRecords
@testable import HealthServerStorage

/// Finding L7 (issue 32): an upload of a few kilobytes could inflate to gigabytes, a user
/// could queue any number of uploads, and one import at a time ran for everyone, so one
/// user's export held up every other user's. Now an upload inflates to 50 times its size
/// at most (16 GiB at most), a user has at most 2 imports in flight (429 past it), and the
/// imports of different users run side by side, a user's own one after another.
@Suite struct L7ZipBombTests {
    // MARK: zip bombs

    /// Little-endian fields and a deflate stream written bit by bit.
    struct Bits {
        var bytes: [UInt8] = []
        private var buffer: UInt32 = 0
        private var used = 0

        /// `count` bits of `value`, least significant first (block headers).
        mutating func write(_ value: UInt32, count: Int) {
            buffer |= value << UInt32(used)
            used += count
            while used >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: buffer))
                buffer >>= 8
                used -= 8
            }
        }

        /// A Huffman code of `length` bits, most significant first.
        mutating func code(_ code: UInt32, length: Int) {
            var reversed: UInt32 = 0
            for index in 0..<length { reversed |= ((code >> UInt32(index)) & 1) << UInt32(length - 1 - index) }
            write(reversed, count: length)
        }

        /// A byte below 144 as a literal of the fixed Huffman codes: 0x30 + byte, 8 bits.
        mutating func literal(_ byte: UInt8) { code(0x30 + UInt32(byte), length: 8) }

        /// The bytes, the last one padded with zero bits.
        mutating func finish() -> [UInt8] {
            if used > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
            buffer = 0
            used = 0
            return bytes
        }

        mutating func u16(_ value: Int) {
            for shift in [0, 8] { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
        }

        mutating func u32(_ value: Int) {
            for shift in [0, 8, 16, 24] { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
        }
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var table = [UInt32](repeating: 0, count: 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            table[index] = value
        }
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    /// A zip bomb: one entry, `apple_health_export/export.xml`, a valid export of one step
    /// record padded with `1 + 258 × runs` spaces, deflated by hand with the fixed Huffman
    /// codes (each run of 258 spaces is one 13-bit back-reference): it inflates some 156
    /// times its size. 16,000 runs: 26 KB inflating to 4 MB.
    static func zipBomb(runs: Int) -> [UInt8] {
        let head = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2024-03-01 09:00:00 +0100"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" \
            startDate="2024-02-29 07:00:00 +0100" endDate="2024-02-29 07:10:00 +0100" value="412"/>

            """.utf8)
        let tail = Array("</HealthData>\n".utf8)
        var deflate = Bits()
        deflate.write(1, count: 1)  // the last block
        deflate.write(1, count: 2)  // of fixed Huffman codes
        for byte in head { deflate.literal(byte) }
        deflate.literal(0x20)
        for _ in 0..<runs {
            deflate.code(0b1100_0101, length: 8)  // length 258 (symbol 285, no extra bits)
            deflate.code(0, length: 5)  // distance 1 (code 0, no extra bits)
        }
        for byte in tail { deflate.literal(byte) }
        deflate.code(0, length: 7)  // end of block (symbol 256)
        let data = deflate.finish()
        let content = head + [UInt8](repeating: 0x20, count: 1 + 258 * runs) + tail
        let crc = Int(crc32(content))
        let name = Array("apple_health_export/export.xml".utf8)
        var zip = Bits()
        zip.u32(0x0403_4B50)
        for value in [20, 0, 8, 0, 0] { zip.u16(value) }
        for value in [crc, data.count, content.count] { zip.u32(value) }
        zip.u16(name.count)
        zip.u16(0)
        zip.bytes += name + data
        let directory = zip.bytes.count
        zip.u32(0x0201_4B50)
        for value in [0x031E, 20, 0, 8, 0, 0] { zip.u16(value) }
        for value in [crc, data.count, content.count] { zip.u32(value) }
        for value in [name.count, 0, 0, 0, 0] { zip.u16(value) }
        zip.u32(0o100644 << 16)
        zip.u32(0)
        zip.bytes += name
        let directorySize = zip.bytes.count - directory
        zip.u32(0x0605_4B50)
        for value in [0, 0, 1, 1] { zip.u16(value) }
        zip.u32(directorySize)
        zip.u32(directory)
        zip.u16(0)
        return zip.bytes
    }

    /// With the server's defaults (50 times the upload): the job fails with the zip bomb's
    /// reason, naming the entry and not the server's folders, and nothing is stored.
    @Test(arguments: ServerBackend.enabled) func l7_aZipBombUploadFailsAsAZipBombAndStoresNothing(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let bomb = Self.zipBomb(runs: 16_000)
        #expect(bomb.count < 30_000)
        try await harness.app.test(.router) { client in
            let id = try await client.execute(
                uri: "/v1/imports", method: .post, headers: harness.upload("alice"), body: ByteBuffer(bytes: bomb)
            ) { response in
                #expect(response.status == .accepted)
                return ServerHarness.json(response.body)["id"] as? String ?? ""
            }
            let job = try await ImportsRouteTests.finished(id, client, harness.headers("alice"))
            #expect(job["state"] as? String == "failed")
            let reason = job["error"] as? String ?? ""
            for words in [
                "the upload: apple_health_export/export.xml: the zip entry inflates past", "× its compressed size",
                "refused as a zip bomb",
            ] {
                #expect(reason.contains(words), "\(reason) lacks \(words)")
            }
            #expect(!reason.contains(harness.folder.path))
        }
        #expect(harness.uploadFiles().isEmpty)
        let alice = try #require(harness.ids["alice"])
        let store = try await harness.repositories().healthStores.store(for: alice)
        #expect(try await store.storedSpan() == nil)
    }

    /// The server's cap: 50 times the upload, 16 GiB at most.
    @Test func l7_theCapIsFiftyTimesTheUploadAndSixteenGiBAtMost() {
        let limits = ImportRunner.Limits(ServerConfiguration())
        #expect(limits.inflationCap(uploadBytes: 200 << 20) == 50 * (200 << 20))
        #expect(limits.inflationCap(uploadBytes: 1 << 30) == 16 << 30)
        #expect(limits.inflationCap(uploadBytes: .max) == 16 << 30)
        #expect(limits.concurrency == 2)
        #expect(limits.perUser == 2)
    }

    // MARK: uploads in flight per user

    /// Two of Alice's imports in flight (queued or running, on PostgreSQL seen by every
    /// server): a third upload is a 429 that says why, and nothing of it is stored; Bob
    /// uploads all the same; once one of Alice's has ended she may upload again.
    @Test(arguments: ServerBackend.enabled) func l7_aThirdUploadWhileTwoAreInFlightIs429(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        let started = Date()
        try await harness.store.saveImport(
            ImportJob(id: "l7-queued", state: .queued, uploadBytes: 10, createdAt: started), userID: alice)
        let running = ImportJob(id: "l7-running", state: .running, uploadBytes: 10, createdAt: started)
        try await harness.store.saveImport(running, userID: alice)
        try await harness.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/imports", method: .post, headers: harness.upload("alice"), body: ByteBuffer(string: "PK a third")
            ) { response in
                #expect(response.status == .tooManyRequests)
                #expect(response.headers[.retryAfter] == "30")
                let detail = ServerHarness.json(response.body)["detail"] as? String ?? ""
                #expect(detail.contains("2 imports of yours are queued, running or being uploaded"), "\(detail)")
                #expect(detail.contains("--max-imports-per-user"))
            }
            #expect(harness.uploadFiles().isEmpty)
            try await client.execute(
                uri: "/v1/imports", method: .post, headers: harness.upload("bob"), body: ByteBuffer(string: "PK bob's")
            ) { response in
                #expect(response.status == .accepted)
            }
            try await harness.store.saveImport(running.failed("ended"), userID: alice)
            try await client.execute(
                uri: "/v1/imports", method: .post, headers: harness.upload("alice"), body: ByteBuffer(string: "PK again")
            ) { response in
                #expect(response.status == .accepted)
            }
        }
    }

    /// Uploads still being received count too: a user cannot start a third while two
    /// stream in.
    @Test(arguments: ServerBackend.enabled) func l7_uploadsBeingReceivedCountAsInFlight(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        let bob = try #require(harness.ids["bob"])
        let runner = ImportRunner(repositories: harness.repositories(), logger: Logger(label: "l7"))
        #expect(try await runner.beginUpload(of: alice))
        #expect(try await runner.beginUpload(of: alice))
        #expect(try await runner.beginUpload(of: alice) == false)
        #expect(try await runner.beginUpload(of: bob))
        await runner.endUpload(of: alice)
        #expect(try await runner.beginUpload(of: alice))
        // A recorded job counts in the upload's place.
        await runner.endUpload(of: alice)
        try await harness.store.saveImport(
            ImportJob(id: "l7-recorded", state: .queued, uploadBytes: 10, createdAt: Date()), userID: alice)
        #expect(try await runner.beginUpload(of: alice) == false)
    }

    // MARK: imports side by side

    /// Users' stores whose imports are counted as they start, and the next import into an
    /// armed user's store pauses before it starts until released.
    final class ImportPausingStores: UserHealthStores, @unchecked Sendable {
        let inner: any UserHealthStores
        private let lock = NSLock()
        private var pauses: [String: Pause] = [:]
        private var started: [String: Int] = [:]

        init(_ inner: any UserHealthStores) { self.inner = inner }

        func arm(_ userID: String) -> Pause {
            let pause = Pause()
            lock.withLock { pauses[userID] = pause }
            return pause
        }

        /// Imports into `userID`'s store that have started.
        func importsStarted(_ userID: String) -> Int { lock.withLock { started[userID, default: 0] } }

        func importStarting(_ userID: String) async {
            let pause = lock.withLock { () -> Pause? in
                started[userID, default: 0] += 1
                return pauses.removeValue(forKey: userID)
            }
            await pause?.arrive()
        }

        func store(for userID: String) async throws -> any UserHealthStore {
            ImportPausingStore(inner: try await inner.store(for: userID), userID: userID, stores: self)
        }

        func deleteStore(for userID: String) async throws -> (samples: Int, bytes: Int64) {
            try await inner.deleteStore(for: userID)
        }
        func usersWithDirtySpans() async throws -> [String] { try await inner.usersWithDirtySpans() }
    }

    struct ImportPausingStore: ForwardingUserHealthStore {
        let inner: any UserHealthStore
        let userID: String
        let stores: ImportPausingStores

        func importExport(
            path: String, options: HealthImporter.Options, progress: @escaping @Sendable (ImportProgress) -> Void
        ) async throws -> ImportSummary {
            await stores.importStarting(userID)
            return try await inner.importExport(path: path, options: options, progress: progress)
        }
    }

    /// A runner over the harness's stores, the users' stores counting and pausing imports,
    /// and its service running until ``stop()``.
    struct Runner {
        let runner: ImportRunner
        let service: Task<Void, any Error>
        let stores: ImportPausingStores
        let repositories: ServerRepositories
        let export: URL

        init(_ harness: ServerHarness, concurrency: Int) async throws {
            let inner: any UserHealthStores =
                harness.samples.map(PostgresUserHealthStores.init(database:))
                ?? SQLiteUserHealthStores(folder: harness.folder.path)
            let stores = ImportPausingStores(inner)
            let repositories = ServerRepositories(
                store: harness.store, healthStores: stores, dataFolder: harness.folder.path)
            var limits = ImportRunner.Limits()
            limits.concurrency = concurrency
            var configuration = SyntheticExport.Configuration(days: 2, seed: 7)
            configuration.heartRatePerHour = 2
            let export = harness.folder.appendingPathComponent("l7-export.zip")
            try await SyntheticExport(configuration: configuration).write(to: export)
            self.stores = stores
            self.repositories = repositories
            self.export = export
            let runner = ImportRunner(repositories: repositories, limits: limits, logger: Logger(label: "l7"))
            self.runner = runner
            service = Task { try await ImportService(runner: runner, claims: nil).run() }
        }

        /// Stops the service by cancelling it (the tests call it once their jobs have ended).
        func stop() async throws {
            service.cancel()
            try await service.value
        }

        /// Records a queued job of `user` for a copy of the export and starts it; its id.
        func start(_ user: String, _ harness: ServerHarness) async throws -> String {
            let id = UUID().uuidString.lowercased()
            let file = harness.folder.appendingPathComponent("\(id).zip")
            try FileManager.default.copyItem(at: export, to: file)
            let size = try #require(FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber).int64Value
            let job = ImportJob(id: id, state: .queued, uploadBytes: size, createdAt: Date())
            let users = try await harness.store.users()
            let owner = try #require(users.first { $0.name == user })
            try await repositories.imports.saveImport(job, userID: owner.id)
            runner.start(job, file: file.path, user: owner, zone: .gmt) { _ in (0, UpsertCounts()) }
            return id
        }

        /// The job once it has ended (at most 120 s).
        func finished(_ id: String, of user: String, _ harness: ServerHarness) async throws -> ImportJob? {
            let userID = try #require(harness.ids[user])
            return try await SharedImportQueueTests.poll(harness.store, id: id, user: userID) {
                $0.state == .succeeded || $0.state == .failed
            }
        }
    }

    /// Alice's import is held mid-way: Bob's runs and ends meanwhile; Alice's second waits
    /// for her first without starting, and both end once it is released.
    @Test(.timeLimit(.minutes(5)), arguments: ServerBackend.enabled)
    func l7_importsOfTwoUsersRunSideBySideAUsersOwnOneAfterAnother(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let runner = try await Runner(harness, concurrency: 2)
        let alice = try #require(harness.ids["alice"])
        let pause = runner.stores.arm(alice)
        let first = try await runner.start("alice", harness)
        #expect(await pause.waitForArrival())
        let bobs = try await runner.start("bob", harness)
        let done = try await runner.finished(bobs, of: "bob", harness)
        #expect(done?.state == .succeeded, "\(done?.error ?? "")")
        #expect((done?.added ?? 0) > 0)
        let second = try await runner.start("alice", harness)
        try await Task.sleep(for: .milliseconds(800))
        #expect(runner.stores.importsStarted(alice) == 1)
        #expect(try await harness.store.importJob(id: second, userID: alice)?.state == .queued)
        let held = try await harness.store.importJob(id: first, userID: alice)?.state
        #expect(held == .queued || held == .running)
        await pause.release()
        for id in [first, second] {
            let job = try await runner.finished(id, of: "alice", harness)
            #expect(job?.state == .succeeded, "\(job?.error ?? "")")
        }
        #expect(runner.stores.importsStarted(alice) == 2)
        try await runner.stop()
    }

    /// At most `importConcurrency` imports run at once: with one, Bob's waits for Alice's.
    @Test(.timeLimit(.minutes(5)), arguments: ServerBackend.enabled)
    func l7_atMostImportConcurrencyImportsRunAtOnce(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let runner = try await Runner(harness, concurrency: 1)
        let alice = try #require(harness.ids["alice"])
        let bob = try #require(harness.ids["bob"])
        let pause = runner.stores.arm(alice)
        let first = try await runner.start("alice", harness)
        #expect(await pause.waitForArrival())
        let bobs = try await runner.start("bob", harness)
        try await Task.sleep(for: .milliseconds(800))
        #expect(runner.stores.importsStarted(bob) == 0)
        #expect(try await harness.store.importJob(id: bobs, userID: bob)?.state == .queued)
        await pause.release()
        #expect(try await runner.finished(first, of: "alice", harness)?.state == .succeeded)
        #expect(try await runner.finished(bobs, of: "bob", harness)?.state == .succeeded)
        try await runner.stop()
    }
}

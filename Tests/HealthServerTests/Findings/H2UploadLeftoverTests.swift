import Foundation
import HealthServer
import HealthServerRecords
import HealthServerStorage
import HealthWire
import Hummingbird
import HummingbirdTesting
import Testing

/// Finding H2 (issue 32): `DELETE /v1/me` during an upload left the export in `uploads/`
/// forever. Now an upload whose job is not recorded is removed at once, a deletion waits
/// for (or refuses) the import, and `serve` sweeps at start what no job and no user owns.
@Suite struct H2UploadLeftoverTests {
    struct Refused: Error {}

    /// Import jobs that cannot be recorded.
    struct FailingSaves: ImportJobRepository {
        let inner: any ImportJobRepository

        func saveImport(_ job: ImportJob, userID: String) async throws { throw Refused() }
        func importJob(id: String, userID: String) async throws -> ImportJob? {
            try await inner.importJob(id: id, userID: userID)
        }
        func unfinishedImports() async throws -> [(userID: String, job: ImportJob)] {
            try await inner.unfinishedImports()
        }
    }

    /// A shared import queue that queues nothing (and claims nothing: its loop ends at once).
    struct FailingQueue: SharedImportQueue {
        func enqueue(_ job: ImportJob, userID: String, zone: String, file: String) async throws { throw Refused() }
        func claimNextImport(into folder: String, _ work: (ClaimedImport) async -> Void) async throws -> Bool {
            throw CancellationError()
        }
    }

    /// The job cannot be recorded (SQLite's `import_job`, PostgreSQL's queue): the answer
    /// is the error, and the upload is gone.
    @Test(arguments: ServerBackend.enabled) func h2_anUploadWhoseJobIsNotRecordedIsRemoved(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        var repositories = harness.repositories()
        if repositories.importQueue == nil {
            repositories.imports = FailingSaves(inner: harness.store)
        } else {
            repositories.importQueue = FailingQueue()
        }
        let app = try buildApplication(configuration: ServerConfiguration(), repositories: repositories)
        try await app.test(.router) { client in
            try await client.execute(
                uri: "/v1/imports", method: .post, headers: harness.upload("alice"),
                body: ByteBuffer(string: "PK this is an upload")
            ) { #expect($0.status == .internalServerError) }
        }
        #expect(harness.uploadFiles().isEmpty)
    }

    /// The user is deleted while the upload streams in (the token was checked before): a
    /// 401, the upload removed, no job, no store.
    @Test(arguments: ServerBackend.enabled) func h2_anUploadOfAUserDeletedMeanwhileIsRemoved(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let (ghost, token) = try await harness.store.addUser(name: "ghost", scopes: Scope.parse("read,write")!)
        _ = try await harness.store.deleteUser(id: ghost.id)
        var repositories = harness.repositories()
        repositories.users = StaleAuthentication(inner: harness.store, token: token, user: ghost)
        let app = try buildApplication(configuration: ServerConfiguration(), repositories: repositories)
        try await app.test(.router) { client in
            try await client.execute(
                uri: "/v1/imports", method: .post, headers: harness.upload(token.text),
                body: ByteBuffer(string: "PK this is an upload")
            ) { #expect($0.status == .unauthorized) }
        }
        #expect(harness.uploadFiles().isEmpty)
        #expect(harness.storeFiles(of: ghost.id).isEmpty)
        #expect(try await harness.dumpTables().filter { $0.contains(ghost.id) }.isEmpty)
    }

    /// An upload and `DELETE /v1/me` at once, 20 times: the deletion is refused while the
    /// import is unfinished (409) or the upload is refused (401); once the job has ended and
    /// the person is deleted, no upload, store or row of theirs is left.
    @Test(.timeLimit(.minutes(10)), arguments: ServerBackend.enabled)
    func h2_anUploadRacingTheDeletionLeavesNothing(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let repositories = harness.repositories()
        let app = try buildApplication(configuration: ServerConfiguration(), repositories: repositories)
        try await app.test(.router) { client in
            for iteration in 0..<H1DeletionRaceTests.iterations {
                let (victim, token) = try await harness.store.addUser(
                    name: "uploader-\(iteration)", scopes: Scope.parse("read,write")!)
                async let upload = client.execute(
                    uri: "/v1/imports", method: .post, headers: harness.upload(token.text),
                    body: ByteBuffer(string: "PK not a zip \(iteration)")
                ) { $0.status }
                try await Task.sleep(for: .milliseconds(Int.random(in: 0...5)))
                var deleted = try await client.execute(
                    uri: "/v1/me", method: .delete, headers: harness.deletionHeaders(token.text)
                ) { $0.status }
                let uploaded = try await upload
                #expect(uploaded == .accepted || uploaded == .unauthorized, "iteration \(iteration): \(uploaded)")
                #expect(deleted == .ok || deleted == .conflict, "iteration \(iteration): \(deleted)")
                // The job (a failure: not a zip) ends; then the person can be deleted.
                let deadline = Date().addingTimeInterval(60)
                while deleted == .conflict, Date() < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                    let unfinished = try await repositories.imports.unfinishedImports()
                    guard !unfinished.contains(where: { $0.userID == victim.id }) else { continue }
                    deleted = try await client.execute(
                        uri: "/v1/me", method: .delete, headers: harness.deletionHeaders(token.text)
                    ) { $0.status }
                }
                #expect(deleted == .ok, "iteration \(iteration)")
                #expect(harness.storeFiles(of: victim.id).isEmpty, "iteration \(iteration): a store file is left")
                let left = try await harness.dumpTables().filter { $0.contains(victim.id) }
                #expect(left.isEmpty, "iteration \(iteration): \(left.prefix(3))")
            }
        }
        #expect(harness.uploadFiles().isEmpty)
    }

    /// At start (`serve`): uploads of no unfinished job and the store files of users that do
    /// not exist are removed; an unfinished job's upload, a user's store and other files stay.
    /// Sharing PostgreSQL, only uploads a day old go (another server may be importing).
    @Test(arguments: ServerBackend.enabled) func h2_theStartupSweepRemovesWhatNoJobAndNoUserOwns(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        try await harness.app.test(.router) { client in try await harness.postSampleBatch(client, user: "alice") }
        let files = FileManager.default
        let uploads = harness.folder.appendingPathComponent("uploads")
        let users = harness.folder.appendingPathComponent("users")
        try files.createDirectory(at: uploads, withIntermediateDirectories: true)
        try files.createDirectory(at: users, withIntermediateDirectories: true)
        try await harness.store.saveImport(
            ImportJob(id: "kept", state: .queued, uploadBytes: 2, createdAt: Date()), userID: alice)
        for name in ["kept.zip", "stray.zip", "claimed-old.zip"] {
            try Data("PK".utf8).write(to: uploads.appendingPathComponent(name))
        }
        try files.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-2 * 86400)],
            ofItemAtPath: uploads.appendingPathComponent("claimed-old.zip").path)
        let nobody = UUID().uuidString.lowercased()
        for suffix in [".sqlite", ".sqlite-wal"] {
            try Data("SQLite".utf8).write(to: users.appendingPathComponent(nobody + suffix))
        }
        try Data("notes".utf8).write(to: users.appendingPathComponent("README"))

        let swept = try await ServerMaintenance.sweep(
            repositories: harness.repositories(), dataFolder: harness.folder.path)
        let left = Set(harness.uploadFiles())
        let stores = Set((try? files.contentsOfDirectory(atPath: users.path)) ?? [])
        switch backend {
        case .sqlite:
            #expect(swept == ServerMaintenance.Swept(uploads: 2, stores: 1))
            #expect(left == ["kept.zip"])
            #expect(stores.isSuperset(of: [alice + ".sqlite", "README"]))
            #expect(harness.storeFiles(of: nobody).isEmpty)
        case .postgres:
            #expect(swept == ServerMaintenance.Swept(uploads: 1, stores: 0))
            #expect(left == ["kept.zip", "stray.zip"])
            #expect(stores.isSuperset(of: [nobody + ".sqlite", nobody + ".sqlite-wal", "README"]))
        }
        // Alice's store still answers.
        try await harness.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/changes?type=HKQuantityTypeIdentifierStepCount", method: .get,
                headers: harness.headers("alice")
            ) { #expect((ServerHarness.json($0.body)["changes"] as? [Any])?.count == 2) }
        }
    }
}

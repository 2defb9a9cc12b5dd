import Foundation
import HealthCore
import HealthDaily
import HealthImport
import HealthMetrics
import HealthSQLite
import HealthServer
import HealthServerRecords
import HealthServerStorage
import HealthSynth
import HealthWire
import Hummingbird
import HummingbirdTesting
import Testing

/// `POST /v1/imports`: an export.zip uploaded, imported in the background, its progress and
/// result at `GET /v1/imports/{id}`, and the days it holds recomputed.
@Suite struct ImportsRouteTests {
    /// A generated 14-day export, and what the CLI pipeline makes of it locally.
    struct Expected {
        let zip: Data
        let added: Int
        let records: Int
        let days: [NormalizedDailyMetrics]
        let first: String
        let last: String
    }

    static let zone = TimeZone(identifier: "America/Los_Angeles")!

    static func expected() async throws -> Expected {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("healthpipe-upload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = SyntheticExport.Configuration(days: 14, seed: 11)
        configuration.startDate = "2024-03-01"
        configuration.heartRatePerHour = 2
        let export = folder.appendingPathComponent("export.zip")
        let truth = try await SyntheticExport(configuration: configuration).write(to: export)
        let database = try HealthDatabase(path: folder.appendingPathComponent("health.sqlite").path)
        let summary = try await HealthImporter(database: database).run(path: export.path)
        var settings = DailyNormalizer.Configuration()
        settings.homeZone = zone
        let first = truth.days[0].date
        let last = truth.days[13].date
        let days = try await DailyNormalizer(store: database.store, configuration: settings, now: { Date() })
            .metrics(from: LocalDate(first)!, through: LocalDate(last)!)
        return Expected(
            zip: try Data(contentsOf: export), added: summary.totalAdded, records: summary.recordsRead, days: days,
            first: first, last: last)
    }

    /// Polls the job until it has finished (or 120 s have passed).
    static func finished(_ id: String, _ client: some TestClientProtocol, _ headers: HTTPFields) async throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            let job = try await client.execute(uri: "/v1/imports/\(id)", method: .get, headers: headers) { response in
                #expect(response.status == .ok)
                return ServerHarness.json(response.body)
            }
            if ["succeeded", "failed"].contains(job["state"] as? String) { return job }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("import \(id) did not finish in 120 s")
        return [:]
    }

    @Test(arguments: ServerBackend.enabled) func anUploadIsImportedAndItsDaysRecomputed(_ backend: ServerBackend) async throws {
        let expected = try await Self.expected()
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let upload = harness.upload("alice")
        try await harness.app.test(.router) { client in
            let id = try await client.execute(
                uri: "/v1/imports?tz=America/Los_Angeles", method: .post, headers: upload, body: ByteBuffer(data: expected.zip)
            ) { response in
                #expect(response.status == .accepted)
                let job = ServerHarness.json(response.body)
                #expect(job["state"] as? String == "queued")
                #expect(job["upload_bytes"] as? Int == expected.zip.count)
                #expect(response.headers[.location] == "/v1/imports/\(job["id"] as? String ?? "")")
                return job["id"] as? String ?? ""
            }
            let job = try await Self.finished(id, client, harness.headers("alice"))
            #expect(job["state"] as? String == "succeeded")
            #expect(job["error"] == nil)
            #expect(job["added"] as? Int == expected.added)
            #expect(job["records"] as? Int == expected.records)
            #expect(job["already_imported"] as? Bool == false)
            #expect((job["bytes_read"] as? Int ?? 0) > expected.zip.count)  // the XML, unpacked
            #expect(job["total_bytes"] as? Int == job["bytes_read"] as? Int)
            // 14 days plus the ones the span's edges touch in Los Angeles.
            #expect((job["days_recomputed"] as? Int ?? 0) >= 14)
            // The server's days are the CLI pipeline's days, value for value.
            try await client.execute(
                uri: "/v1/daily-metrics?from=\(expected.first)&to=\(expected.last)", method: .get,
                headers: harness.headers("alice")
            ) { response in
                let days = try NormalizedDailyMetrics.backendDecoder().decode(
                    [NormalizedDailyMetrics].self, from: Data(response.body.readableBytesView))
                #expect(days.count == 14)
                #expect(days.map(\.localDate) == expected.days.map(\.localDate))
                #expect(days.map(\.stepsNormalized) == expected.days.map(\.stepsNormalized))
                #expect(days.map(\.sleepHours) == expected.days.map(\.sleepHours))
                #expect(days.map(\.restingHRBpm) == expected.days.map(\.restingHRBpm))
                #expect(days.map(\.hrvMs) == expected.days.map(\.hrvMs))
                #expect(days.map(\.activeEnergyKcal) == expected.days.map(\.activeEnergyKcal))
                #expect(days.map(\.timezoneIdentifier) == expected.days.map(\.timezoneIdentifier))
            }
            // Another user cannot see the job.
            try await client.execute(uri: "/v1/imports/\(id)", method: .get, headers: harness.headers("bob")) { response in
                #expect(response.status == .notFound)
            }
            // The same export again is recognised without re-parsing and adds nothing.
            let again = try await client.execute(
                uri: "/v1/imports", method: .post, headers: upload, body: ByteBuffer(data: expected.zip)
            ) { ServerHarness.json($0.body)["id"] as? String ?? "" }
            let second = try await Self.finished(again, client, harness.headers("alice"))
            #expect(second["state"] as? String == "succeeded")
            #expect(second["already_imported"] as? Bool == true)
            #expect(second["added"] as? Int == 0)
        }
        // Uploads are deleted once imported.
        let uploads = harness.folder.appendingPathComponent("uploads").path
        #expect(try FileManager.default.contentsOfDirectory(atPath: uploads).isEmpty)
    }

    @Test(arguments: ServerBackend.enabled) func badUploadsAreRefusedOrFailWithAReason(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend) { $0.maxUploadBytes = 1000 }
        defer { harness.cleanUp() }
        let upload = harness.upload("alice")
        try await harness.app.test(.router) { client in
            let cases: [(HTTPFields, ByteBuffer, HTTPResponse.Status, String)] = [
                (harness.headers("alice"), ByteBuffer(string: "{}"), .unsupportedMediaType, "Content-Type: application/zip"),
                (upload, ByteBuffer(repeating: 0x50, count: 2000), .contentTooLarge, "larger than the 1000 bytes"),
                (upload, ByteBuffer(), .badRequest, "the body is empty"),
            ]
            for (headers, body, status, detail) in cases {
                try await client.execute(uri: "/v1/imports", method: .post, headers: headers, body: body) { response in
                    #expect(response.status == status)
                    #expect((ServerHarness.json(response.body)["detail"] as? String ?? "").contains(detail))
                }
            }
            try await client.execute(
                uri: "/v1/imports", method: .post, headers: harness.upload("reader"), body: ByteBuffer(string: "PK")
            ) {
                #expect($0.status == .forbidden)
            }
            // Not a zip: accepted, then failed with a reason that names no server path.
            let id = try await client.execute(
                uri: "/v1/imports", method: .post, headers: upload, body: ByteBuffer(string: "this is not a zip")
            ) { ServerHarness.json($0.body)["id"] as? String ?? "" }
            let job = try await Self.finished(id, client, harness.headers("alice"))
            #expect(job["state"] as? String == "failed")
            let reason = job["error"] as? String ?? ""
            #expect(reason.contains("the upload"))
            #expect(!reason.contains(harness.folder.path))
            try await client.execute(uri: "/v1/imports/nope", method: .get, headers: harness.headers("alice")) {
                #expect($0.status == .notFound)
            }
        }
    }

    /// At start-up, a job a stopped server left queued or running is marked failed; a
    /// finished one is left alone.
    @Test(arguments: ServerBackend.enabled) func unfinishedJobsAreFailedAtStart(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let alice = harness.ids["alice"]!
        let started = Date(timeIntervalSince1970: 1_700_000_000)
        var running = ImportJob(id: "running", state: .running, uploadBytes: 10, createdAt: started)
        running.records = 5
        let done = ImportJob(id: "done", state: .succeeded, uploadBytes: 10, createdAt: started)
        try await harness.store.saveImport(running, userID: alice)
        try await harness.store.saveImport(done, userID: alice)
        #expect(try await harness.store.failUnfinishedImports(reason: "stopped") == 1)
        let failed = try await harness.store.importJob(id: "running", userID: alice)
        #expect(failed?.state == .failed)
        #expect(failed?.error == "stopped")
        #expect(failed?.records == 5)
        #expect(try await harness.store.importJob(id: "done", userID: alice) == done)
        #expect(try await harness.store.failUnfinishedImports(reason: "stopped") == 0)
    }
}

/// Several servers on one PostgreSQL database share the import queue: an upload taken by a
/// server that dies mid-import is imported by another.
@Suite(.enabled(if: ServerBackend.postgresURL != nil, "needs HEALTHPIPE_TEST_POSTGRES_URL"))
struct SharedImportQueueTests {
    @Test func anImportWhoseServerDiesIsFinishedByAnother() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("healthpipe-takeover-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = SyntheticExport.Configuration(days: 45, seed: 5)
        configuration.startDate = "2024-05-01"
        configuration.heartRatePerHour = 6
        let export = folder.appendingPathComponent("export.zip")
        _ = try await SyntheticExport(configuration: configuration).write(to: export)
        let reference = try HealthDatabase(path: folder.appendingPathComponent("reference.sqlite").path)
        let expected = try await HealthImporter(database: reference).run(path: export.path)

        let first = try await ServerHarness(.postgres)
        defer { first.cleanUp() }
        let alice = try #require(first.ids["alice"])
        let id = try await first.app.test(.router) { client in
            let id = try await client.execute(
                uri: "/v1/imports?tz=Europe/Paris", method: .post, headers: first.upload("alice"),
                body: ByteBuffer(data: try Data(contentsOf: export))
            ) { ServerHarness.json($0.body)["id"] as? String ?? "" }
            // Server 1 has claimed the job and is importing: it dies (its connections close,
            // and with them its claim and its import's transaction) while it runs, before its
            // import service would wait for the import at a graceful shutdown.
            let running = try await Self.poll(first.store, id: id, user: alice) { $0.state == .running && $0.bytesRead > 0 }
            #expect(running?.state == .running)
            await first.samples?.close()
            await first.store.close()
            return id
        }

        let second = try await first.anotherServer()
        defer { second.close() }
        // The second server up (its import service claims the job) until the job has ended.
        let done = try await second.app.test(.router) { _ in
            try await Self.poll(second.store, id: id, user: alice) { $0.state == .succeeded || $0.state == .failed }
        }
        #expect(done?.state == .succeeded && done?.error == nil)
        #expect(done?.added == expected.totalAdded && done?.alreadyImported == false)
        let samples = try await second.samples.store(for: alice).sampleInventory().map(\.count).reduce(0, +)
        #expect(samples == (try reference.counts()["sample"]))
        #expect(try await second.store.unfinishedImports().isEmpty)
    }

    /// Polls the job until `done` holds (at most 120 s).
    static func poll(
        _ store: any ServerStore, id: String, user: String, until done: (ImportJob) -> Bool
    ) async throws -> ImportJob? {
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            if let job = try await store.importJob(id: id, userID: user), done(job) { return job }
            try await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }
}

import Foundation
import HealthCore
import HealthWire
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HealthServer
@testable import HealthServerRecords
@testable import HealthServerStorage

/// The imports run as a service of the server's service group, woken by doorbells rather
/// than a polling loop (issue 34 §2).
struct ImportServiceTests {
    // MARK: the doorbell

    // Bounds of an hour: a wait that ends within the test's time limit was ended by the
    // ring or the cancellation, however loaded the machine.

    @Test(.timeLimit(.minutes(2))) func aRingAfterTheCountReadEndsTheWait() async {
        let doorbell = Doorbell()
        let seen = doorbell.rings
        doorbell.ring()
        await doorbell.wait(after: seen, atMost: .seconds(3600))
        // A wait past the latest count lasts until its bound.
        let again = ContinuousClock.now
        await doorbell.wait(after: doorbell.rings, atMost: .milliseconds(200))
        #expect(ContinuousClock.now - again >= .milliseconds(190))
    }

    @Test(.timeLimit(.minutes(2))) func aRingEndsEveryWaitPastTheCountBeforeIt() async {
        let doorbell = Doorbell()
        let seen = doorbell.rings
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<3 { group.addTask { await doorbell.wait(after: seen, atMost: .seconds(3600)) } }
            try? await Task.sleep(for: .milliseconds(100))
            doorbell.ring()
        }
    }

    @Test(.timeLimit(.minutes(2))) func aCancelledWaitEnds() async {
        let doorbell = Doorbell()
        let waiting = Task { await doorbell.wait(after: doorbell.rings, atMost: .seconds(3600)) }
        try? await Task.sleep(for: .milliseconds(100))
        waiting.cancel()
        await waiting.value
    }

    // MARK: the service

    /// A graceful shutdown waits for the import under way: once the application has stopped,
    /// the job has ended and its samples are stored (an import left behind would be failed
    /// at the next start instead).
    @Test(.timeLimit(.minutes(5)), arguments: ServerBackend.enabled)
    func aGracefulShutdownWaitsForTheImportUnderWay(_ backend: ServerBackend) async throws {
        let export = try await ImportsRouteTests.expected()
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        let id = try await harness.app.test(.router) { client in
            let id = try await client.execute(
                uri: "/v1/imports?tz=Europe/Paris", method: .post, headers: harness.upload("alice"),
                body: ByteBuffer(data: export.zip)
            ) { response in
                #expect(response.status == .accepted)
                return ServerHarness.json(response.body)["id"] as? String ?? ""
            }
            // Under way (on PostgreSQL a job not yet claimed is left in the queue for the
            // next server), then the shutdown.
            _ = try await SharedImportQueueTests.poll(harness.store, id: id, user: alice) { $0.state != .queued }
            return id
        }
        let job = try await harness.store.importJob(id: id, userID: alice)
        #expect(job?.state == .succeeded, "\(job?.state.rawValue ?? "no job")")
        #expect(job?.added == export.added)
    }

    /// The same application run twice (a server restarted in one process, or a test driving
    /// it twice): the second run imports what it is handed, as the first did.
    @Test(.timeLimit(.minutes(5))) func anApplicationRunAgainStillImports() async throws {
        let export = try await ImportsRouteTests.expected()
        let harness = try await ServerHarness(.sqlite)
        defer { harness.cleanUp() }
        for round in 0..<2 {
            try await harness.app.test(.router) { client in
                let id = try await client.execute(
                    uri: "/v1/imports?tz=Europe/Paris", method: .post, headers: harness.upload("alice"),
                    body: ByteBuffer(data: export.zip)
                ) { ServerHarness.json($0.body)["id"] as? String ?? "" }
                let job = try await ImportsRouteTests.finished(id, client, harness.headers("alice"))
                #expect(job["state"] as? String == "succeeded", "round \(round)")
            }
        }
    }

    /// With several servers on one database, a job this server queues is claimed at once:
    /// the doorbell wakes the claimers, not the next poll (here two minutes away).
    @Test(.timeLimit(.minutes(5)), .enabled(if: ServerBackend.postgresURL != nil, "needs HEALTHPIPE_TEST_POSTGRES_URL"))
    func aJobQueuedHereIsClaimedWithoutWaitingForThePoll() async throws {
        let export = try await ImportsRouteTests.expected()
        let harness = try await ServerHarness(.postgres)
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        let queue = try #require(harness.repositories().importQueue)
        let runner = ImportRunner(repositories: harness.repositories(), logger: .init(label: "import-service-test"))
        let service = Task {
            try await ImportService(
                runner: runner,
                claims: .init(queue: queue, poll: .seconds(120)) { _ in { _ in (0, UpsertCounts()) } }
            ).run()
        }
        // Both claimers look at the empty queue, then wait for two minutes or a ring.
        try await Task.sleep(for: .milliseconds(500))
        let upload = harness.folder.appendingPathComponent("queued.zip")
        try export.zip.write(to: upload)
        let job = ImportJob(
            id: UUID().uuidString.lowercased(), state: .queued, uploadBytes: Int64(export.zip.count), createdAt: Date())
        let queued = ContinuousClock.now
        try await queue.enqueue(job, userID: alice, zone: "Europe/Paris", file: upload.path)
        runner.ring()
        let done = try await SharedImportQueueTests.poll(harness.store, id: job.id, user: alice) {
            $0.state == .succeeded || $0.state == .failed
        }
        #expect(done?.state == .succeeded)
        #expect(ContinuousClock.now - queued < .seconds(60), "claimed by the poll, not the doorbell")
        service.cancel()
        try await service.value
    }

    /// `serve --import-shutdown-grace` takes 0 to 86,400 seconds and says so otherwise,
    /// before anything is opened.
    @Test func serveRefusesAShutdownGraceOutOfRange() throws {
        for value in ["-1", "nan", "86401", "inf"] {
            let run = try CommandLine33.run([
                "serve", "--import-shutdown-grace=\(value)", "--server-db", "/nonexistent/server.sqlite",
            ])
            #expect(run.status != 0, "\(value)")
            #expect(run.err.contains("--import-shutdown-grace must be 0 to 86400 seconds"), "\(value): \(run.err)")
        }
    }
}

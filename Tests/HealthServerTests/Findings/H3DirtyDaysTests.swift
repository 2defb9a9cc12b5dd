import Foundation
import HealthCore
import HealthMetrics
import HealthPostgres
import HealthSQLite
import HealthServer
import HealthServerRecords
import HealthServerStorage
import HealthWire
import Hummingbird
import HummingbirdTesting
import Testing

/// Findings H3, P2 and P3 (issue 32): imports and ingests committed their samples, then
/// computed the days; a failure after the commit was answered "the request changed
/// nothing", a re-upload was then `already_imported` with its days never computed, and two
/// concurrent writes of one person could store days read before the other's commit. Now
/// the spans are marked dirty in the samples' transaction and computed until clean.
@Suite struct H3DirtyDaysTests {
    /// Days storage whose upserts fail while `failing` is set: a server that stops between
    /// the commit of the samples and the upsert of their days.
    struct FlakyDays: DailyMetricsRepository {
        let inner: any DailyMetricsRepository
        let failing: Locked<Bool>
        /// Upserts refused so far.
        var refused = Locked(0)
        struct Down: Error {}
        func upsert(_ days: [NormalizedDailyMetrics], userID: String) async throws -> UpsertCounts {
            if failing.withLock({ $0 }) {
                refused.withLock { $0 += 1 }
                throw Down()
            }
            return try await inner.upsert(days, userID: userID)
        }
        func dailyMetrics(
            userID: String, from first: LocalDate, through last: LocalDate, version: NormalizationVersion
        ) async throws
            -> [NormalizedDailyMetrics]
        {
            try await inner.dailyMetrics(userID: userID, from: first, through: last, version: version)
        }
        func dailyRowCounts() async throws -> [String: Int] { try await inner.dailyRowCounts() }
        func deleteDays(
            userID: String, version: NormalizationVersion, overlapping interval: DateInterval,
            outside dates: ClosedRange<LocalDate>
        ) async throws -> Int {
            try await inner.deleteDays(userID: userID, version: version, overlapping: interval, outside: dates)
        }
        func ping() async throws { try await inner.ping() }
    }

    static func app(
        _ harness: ServerHarness, failing: Locked<Bool>, refused: Locked<Int> = Locked(0)
    ) throws -> some ApplicationProtocol {
        let healthStores: any UserHealthStores =
            harness.samples.map(PostgresUserHealthStores.init(database:)) ?? SQLiteUserHealthStores(folder: harness.folder.path)
        var repositories = ServerRepositories(store: harness.store, healthStores: healthStores, dataFolder: harness.folder.path)
        repositories.dailyMetrics = FlakyDays(inner: harness.store, failing: failing, refused: refused)
        return try buildApplication(configuration: ServerConfiguration(), repositories: repositories)
    }

    static func steps(
        _ client: some TestClientProtocol, _ harness: ServerHarness, user: String = "alice"
    ) async throws
        -> [Int?]
    {
        try await client.execute(
            uri: "/v1/daily-metrics?from=2024-06-01&to=2024-06-01", method: .get, headers: harness.headers(user)
        ) { response in
            #expect(response.status == .ok)
            return try NormalizedDailyMetrics.backendDecoder().decode(
                [NormalizedDailyMetrics].self, from: Data(response.body.readableBytesView)
            ).map(\.stepsNormalized)
        }
    }

    @Test(arguments: ServerBackend.enabled) func h3_aFailureAfterTheCommitSaysSoAndTheDaysFollow(
        _ backend: ServerBackend
    )
        async throws
    {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let failing = Locked(true)
        let refused = Locked(0)
        /// Until the day service has tried and failed `count` times in all.
        @Sendable func failed(_ count: Int) async throws {
            for _ in 0..<200 where refused.withLock({ $0 }) < count { try await Task.sleep(for: .milliseconds(25)) }
            #expect(refused.withLock { $0 } >= count)
        }
        try await Self.app(harness, failing: failing, refused: refused).test(.router) { client in
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "h3"),
                body: ByteBuffer(string: SamplesRouteTests.batch)
            ) { response in
                // Stored: 200 with what was committed, and the days said to be pending.
                #expect(response.status == .ok)
                let answer = ServerHarness.json(response.body)
                #expect(answer["added"] as? Int == 4)
                #expect(answer["days_pending"] as? Bool == true && answer["days_recomputed"] as? Int == 0)
            }
            // The day service's computation after the answer fails; the spans stay dirty.
            try await failed(1)
            failing.withLock { $0 = false }
            // The next read computes the days left dirty first.
            #expect(try await Self.steps(client, harness) == [1500])
            // A deletion whose days fail: 200, pending; the next read has them right.
            failing.withLock { $0 = true }
            let uuid = try await client.execute(
                uri: "/v1/changes?type=HKQuantityTypeIdentifierStepCount&since=0", method: .get,
                headers: harness.headers("alice")
            ) { response in
                ((ServerHarness.json(response.body)["changes"] as? [[String: Any]])?.first?["uuid"] as? String) ?? ""
            }
            let refusedBefore = refused.withLock { $0 }
            try await client.execute(
                uri: "/v1/samples", method: .delete, headers: harness.headers("alice", idempotencyKey: "h3-delete"),
                body: ByteBuffer(string: #"{"uuids": ["\#(uuid)"]}"#)
            ) { response in
                #expect(response.status == .ok)
                #expect(ServerHarness.json(response.body)["days_pending"] as? Bool == true)
            }
            try await failed(refusedBefore + 1)
            failing.withLock { $0 = false }
            #expect(try await Self.steps(client, harness) == [700])
        }
    }

    /// P2: an import whose days were not computed (the server died after its commit) and the
    /// same export uploaded again: `already_imported`, and the days computed all the same.
    @Test(arguments: ServerBackend.enabled) func p2_anImportAlreadyStoredStillGetsItsDays(
        _ backend: ServerBackend
    )
        async throws
    {
        // The flaky days are the harness's own server's: with PostgreSQL a second server on
        // the harness would race its import claimer for the job (and compute the days).
        let failing = Locked(true)
        let harness = try await ServerHarness(
            backend, adjust: { $0.dailyMetrics = FlakyDays(inner: $0.dailyMetrics, failing: failing) })
        defer { harness.cleanUp() }
        let export = try await ImportsRouteTests.expected()
        try await harness.app.test(.router) { client in
            func upload() async throws -> [String: Any] {
                let id = try await client.execute(
                    uri: "/v1/imports?tz=America/Los_Angeles", method: .post, headers: harness.upload("alice"),
                    body: ByteBuffer(data: export.zip)
                ) { response in ServerHarness.json(response.body)["id"] as? String ?? "" }
                return try await ImportsRouteTests.finished(id, client, harness.headers("alice"))
            }
            let first = try await upload()
            #expect(first["state"] as? String == "succeeded")
            #expect(first["days_pending"] as? Bool == true && first["days_recomputed"] as? Int == 0)
            failing.withLock { $0 = false }
            let again = try await upload()
            #expect(again["already_imported"] as? Bool == true)
            #expect((again["days_recomputed"] as? Int ?? 0) >= 14)
            try await client.execute(
                uri: "/v1/daily-metrics?from=\(export.first)&to=\(export.last)", method: .get,
                headers: harness.headers("alice")
            ) { response in
                let days = try NormalizedDailyMetrics.backendDecoder().decode(
                    [NormalizedDailyMetrics].self, from: Data(response.body.readableBytesView))
                #expect(days.map(\.stepsNormalized) == export.days.map(\.stepsNormalized))
            }
        }
    }

    /// P3: two writes of one person at once (on two servers with PostgreSQL): the stored day
    /// always holds every sample committed, whichever write stored its days last.
    @Test(arguments: ServerBackend.enabled) func p3_concurrentWritesOfOnePersonNeverLeaveStaleDays(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let other = backend == .postgres ? try await harness.anotherServer() : nil
        defer { other?.close() }
        let apps: [any ApplicationProtocol] = [harness.app] + (other.map { [$0.app] } ?? [harness.app])
        var expected = 0
        for round in 0..<12 {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, app) in apps.enumerated() {
                    let minute = round * 2 + index
                    let value = 100 + round * 10 + index
                    expected += value
                    let body =
                        #"{"samples": [{"type": "HKQuantityTypeIdentifierStepCount", "start": "2024-06-01T10:\#(String(format: "%02d", minute)):00Z", "end": "2024-06-01T10:\#(String(format: "%02d", minute)):30Z", "value": \#(value), "unit": "count", "source": "Jane’s Apple Watch"}]}"#
                    group.addTask {
                        try await app.test(.router) { client in
                            try await client.execute(
                                uri: "/v1/samples", method: .post,
                                headers: harness.headers("alice", idempotencyKey: "p3-\(round)-\(index)"),
                                body: ByteBuffer(string: body)
                            ) { response in #expect(response.status == .ok) }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let total = expected
            // The days follow the answers: settled by a read (which computes what is dirty).
            try await harness.app.test(.router) { client in try await harness.settleDays(client, user: "alice") }
            let stored = try await harness.store.dailyMetrics(
                userID: harness.ids["alice"]!, from: LocalDate("2024-06-01")!, through: LocalDate("2024-06-01")!, version: .v1)
            #expect(stored.map(\.stepsNormalized) == [total], "round \(round)")
        }
    }

    /// A sample replaced by its UUID with a new time: the day it left is computed again too.
    @Test(arguments: ServerBackend.enabled) func h3_aReplacedSampleLeavesNoStaleDay(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        @Sendable func body(_ day: String) -> String {
            #"{"samples": [{"uuid": "6F1C2A8E-3B5D-4E0A-9C7B-2D4E6F8A0B1C", "type": "HKQuantityTypeIdentifierStepCount", "start": "\#(day)T10:00:00Z", "end": "\#(day)T10:10:00Z", "value": 900, "unit": "count", "source": "Jane’s Apple Watch"}]}"#
        }
        try await harness.app.test(.router) { client in
            for (key, day) in [("r1", "2024-06-01"), ("r2", "2024-06-05")] {
                try await client.execute(
                    uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: key),
                    body: ByteBuffer(string: body(day))
                ) { response in #expect(response.status == .ok) }
            }
            // The first day lost its only sample: no steps left there.
            #expect(try await Self.steps(client, harness) == [nil])
        }
    }

    /// A read while an import is unfinished leaves the import's span to its runner: the
    /// days computed then would be those before the import's samples commit.
    @Test(arguments: ServerBackend.enabled) func h3_aReadDuringAnImportLeavesItsSpan(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let alice = harness.ids["alice"]!
        let job = ImportJob(id: UUID().uuidString, state: .running, uploadBytes: 1, createdAt: Date())
        try await harness.store.saveImport(job, userID: alice)
        let store: any DirtySpanTracking =
            if let samples = harness.samples {
                samples.store(for: alice)
            } else {
                try HealthDatabase(path: harness.folder.appendingPathComponent("users/\(alice).sqlite").path)
            }
        try await store.markDirty([DirtySpan.everything], zone: "UTC")
        try await harness.app.test(.router) { client in
            _ = try await Self.steps(client, harness)
            #expect(try await store.dirtySpans().map(\.isEverything) == [true])
            var finished = job
            finished.state = .succeeded
            try await harness.store.saveImport(finished, userID: alice)
            _ = try await Self.steps(client, harness)
            #expect(try await store.dirtySpans().isEmpty)
        }
    }
}

import Foundation
import HealthCore
import HealthPostgres
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import Testing

/// Findings L1 and L2 (issue 32): a request that looked its Idempotency-Key up before the
/// first request remembered its answer, and took the slot after it ended, ran a second time;
/// keys were shared by every method and route and never expired.
@Suite struct L1L2IdempotencyTests {
    /// What the two requests have done so far.
    final class Progress: Sendable {
        let lookUps = Locked(0)
        let slotsEnded = Locked(0)

        /// Waits (at most 10 s) until `condition` holds.
        func wait(until condition: @Sendable () -> Bool) async throws {
            for _ in 0..<1000 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        }
    }

    /// Remembers the first request's answer only once the second has looked the key up.
    struct SlowRemember: IdempotencyRepository {
        let inner: any IdempotencyRepository
        let progress: Progress
        func remembered(userID: String, key: String, since: Date) async throws -> RememberedResponse? {
            progress.lookUps.withLock { $0 += 1 }
            return try await inner.remembered(userID: userID, key: key, since: since)
        }
        func remember(userID: String, key: String, response: RememberedResponse, at: Date) async throws {
            try await progress.wait { progress.lookUps.withLock { $0 } >= 2 }
            try await inner.remember(userID: userID, key: key, response: response, at: at)
        }
    }

    /// Gives the second request its slot only once the first has given it back.
    final class LateSlots: InFlightSlots {
        let inner = LocalInFlightSlots()
        let calls = Locked(0)
        let progress: Progress
        init(progress: Progress) { self.progress = progress }
        func begin(_ slot: String) async throws -> Bool {
            let call = calls.withLock { count in
                count += 1
                return count
            }
            if call > 1 { try await progress.wait { self.progress.slotsEnded.withLock { $0 } >= 1 } }
            return try await inner.begin(slot)
        }
        func end(_ slot: String) async {
            await inner.end(slot)
            progress.slotsEnded.withLock { $0 += 1 }
        }
    }

    static func app(_ harness: ServerHarness, clock: @escaping @Sendable () -> Date = { Date() }) -> some ApplicationProtocol {
        let healthStores: any UserHealthStores =
            harness.samples.map(PostgresUserHealthStores.init(database:)) ?? SQLiteUserHealthStores(folder: harness.folder.path)
        var repositories = ServerRepositories(store: harness.store, healthStores: healthStores, dataFolder: harness.folder.path)
        let progress = Progress()
        repositories.idempotency = SlowRemember(inner: harness.store, progress: progress)
        repositories.inFlight = LateSlots(progress: progress)
        var configuration = ServerConfiguration()
        configuration.clock = clock
        return try! buildApplication(configuration: configuration, repositories: repositories)
    }

    @Test(arguments: ServerBackend.enabled) func l1_aKeyRacingItsFirstRequestIsReplayedNotRunAgain(
        _ backend: ServerBackend
    )
        async throws
    {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await Self.app(harness).test(.router) { client in
            async let first = client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "race"),
                body: ByteBuffer(string: SamplesRouteTests.batch)
            ) { response in
                (response.status, String(buffer: response.body), response.headers[.init("Idempotent-Replayed")!])
            }
            let second = try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "race"),
                body: ByteBuffer(string: SamplesRouteTests.batch)
            ) { response in
                (response.status, String(buffer: response.body), response.headers[.init("Idempotent-Replayed")!])
            }
            let one = try await first
            // Whichever took the slot first ran; the other is its answer, replayed.
            #expect(one.0 == .ok && second.0 == .ok)
            #expect([one.2, second.2].compactMap { $0 } == ["true"], "the request ran twice")
            #expect(second.1 == one.1)
        }
    }

    @Test(arguments: ServerBackend.enabled) func l2_keysBelongToTheirRouteAndExpireAfterADay(
        _ backend: ServerBackend
    )
        async throws
    {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let now = Locked(Date(timeIntervalSince1970: 1_717_272_000))
        let app = try buildApplication(
            configuration: {
                var configuration = ServerConfiguration()
                configuration.clock = { now.withLock { $0 } }
                return configuration
            }(),
            repositories: ServerRepositories(
                store: harness.store,
                healthStores: harness.samples.map(PostgresUserHealthStores.init(database:))
                    ?? SQLiteUserHealthStores(folder: harness.folder.path),
                dataFolder: harness.folder.path))
        try await app.test(.router) { client in
            func post(_ uri: String, _ method: HTTPRequest.Method, _ body: String) async throws -> (HTTPResponse.Status, String?)
            {
                try await client.execute(
                    uri: uri, method: method, headers: harness.headers("alice", idempotencyKey: "k1"),
                    body: ByteBuffer(string: body)
                ) { response in (response.status, response.headers[.init("Idempotent-Replayed")!]) }
            }
            let first = try await post("/v1/samples", .post, SamplesRouteTests.batch)
            #expect(first.0 == .ok && first.1 == nil)
            // The same key on another route is another request, not a 422 "reused".
            let deletion = try await post("/v1/samples", .delete, #"{"uuids": ["6F1C2A8E-3B5D-4E0A-9C7B-2D4E6F8A0B1C"]}"#)
            #expect(deletion.0 == .ok && deletion.1 == nil)
            let replay = try await post("/v1/samples", .post, SamplesRouteTests.batch)
            #expect(replay.0 == .ok && replay.1 == "true")
            // A day later the key is new again: another body under it runs.
            now.withLock { $0 = $0.addingTimeInterval(24 * 3600 + 1) }
            let later = try await post("/v1/samples", .post, #"{"samples": []}"#)
            #expect(later.0 == .ok && later.1 == nil)
        }
    }
}

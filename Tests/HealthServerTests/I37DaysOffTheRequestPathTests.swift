import Foundation
import HealthCore
import HealthMetrics
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HealthServer

/// Issue 37 §4 (and 34 §4, one recomputer service): a write answers once its samples
/// commit; the server's day service computes their days after the answer, without any
/// read asking for them; a read right after a write is never stale.
@Suite struct I37DaysOffTheRequestPathTests {
    /// One step sample of `steps` at `minute` past 08:00 UTC on 2024-06-01.
    static func batch(steps: Int, minute: Int) -> String {
        let start = String(format: "2024-06-01T08:%02d:00Z", minute)
        let end = String(format: "2024-06-01T08:%02d:30Z", minute)
        return
            #"{"samples": [{"type": "HKQuantityTypeIdentifierStepCount", "start": "\#(start)", "end": "\#(end)", "value": \#(steps), "unit": "count", "source": "Jane’s Apple Watch"}]}"#
    }

    /// Posts ``batch(steps:minute:)`` for alice under `key`: the status and the answer.
    static func post(
        _ client: some TestClientProtocol, _ harness: ServerHarness, steps: Int, minute: Int, key: String
    ) async throws -> (HTTPResponse.Status, [String: Any]) {
        try await client.execute(
            uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: key),
            body: ByteBuffer(string: batch(steps: steps, minute: minute))
        ) { ($0.status, ServerHarness.json($0.body)) }
    }

    @Test(arguments: ServerBackend.enabled)
    func i37_theDaysOfAWriteAreComputedAfterItsAnswerWithoutARead(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        try await harness.app.test(.router) { client in
            let (status, answer) = try await Self.post(client, harness, steps: 1234, minute: 0, key: "one")
            #expect(status == .ok)
            #expect(answer["days_pending"] as? Bool == true)
            // Nobody reads through the API: the service alone stores the day (and the next).
            var stored: [NormalizedDailyMetrics] = []
            for _ in 0..<200 where stored.count < 2 {
                stored = try await harness.repositories.dailyMetrics.dailyMetrics(
                    userID: alice, from: LocalDate("2024-06-01")!, through: LocalDate("2024-06-02")!, version: .v1)
                if stored.count < 2 { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(stored.map(\.localDate) == ["2024-06-01", "2024-06-02"])
            #expect(stored.first?.stepsNormalized == 1234)
            var spans = 1
            for _ in 0..<100 where spans > 0 {
                spans = try await harness.repositories.readableStore(alice).dirtySpans().count
                if spans > 0 { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(spans == 0)
        }
    }

    /// Writes and reads back to back, twenty times: each read has every write before it.
    @Test(arguments: ServerBackend.enabled)
    func i37_aReadRightAfterAWriteIsNeverStale(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            var total = 0
            for round in 1...20 {
                let (status, _) = try await Self.post(client, harness, steps: round * 10, minute: round, key: "w\(round)")
                #expect(status == .ok)
                total += round * 10
                #expect(try await ChangesAndDeletionRouteTests.steps(client, harness) == total, "round \(round)")
            }
        }
    }
}

extension I37DaysOffTheRequestPathTests {
    /// A day posted after a sample write's answer is the day kept: the write's days, still
    /// pending, are computed before the posted one is stored, not after it.
    @Test(arguments: ServerBackend.enabled)
    func i37_aDayPostedAfterAWriteIsNotReplacedByItsComputation(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let (status, _) = try await Self.post(client, harness, steps: 1234, minute: 0, key: "one")
            #expect(status == .ok)
            let day =
                #"[{"local_date": "2024-06-01", "timezone": "UTC", "utc_day_start": "2024-06-01T00:00:00Z", "utc_day_end": "2024-06-02T00:00:00Z", "steps_normalized": 4321, "normalization_version": "norm_v1", "created_at": "2024-06-02T00:00:00Z"}]"#
            try await client.execute(
                uri: "/v1/daily-metrics", method: .post, headers: harness.headers("alice"), body: ByteBuffer(string: day)
            ) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
            }
            // Whatever the day service does meanwhile, and a read that computes what is dirty.
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await ChangesAndDeletionRouteTests.steps(client, harness) == 4321)
        }
    }
}

extension I37DaysOffTheRequestPathTests {
    /// Each person once, in the order of their first mark; taken a few at a time.
    @Test func i37_theQueueHoldsEachPersonOnceInOrder() {
        let queue = DayQueue()
        let rings = queue.doorbell.rings
        for user in ["b", "a", "b", "c", "a"] { queue.add(user) }
        #expect(queue.doorbell.rings == rings + 5)
        #expect(queue.take(atMost: 2) == ["b", "a"])
        queue.add("b")
        #expect(queue.take() == ["c", "b"])
        #expect(queue.take().isEmpty)
    }
}

extension I37DaysOffTheRequestPathTests {
    /// Days a stopped server left dirty (written, answered, the server gone before its day
    /// service ran) are computed when a server starts, without a read asking for them.
    @Test(arguments: ServerBackend.enabled)
    func i37_aServerStartingComputesTheDaysAStoppedOneLeftDirty(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        let user = try await I34UseCasesTests.user(harness, "alice")
        // Written by a server whose day queue is lost: the spans are dirty, nobody is queued.
        let lost = DayQueue()
        let report = try await SampleIntake(repositories: harness.repositories, days: lost)
            .add(SyncRouteTests.samples(3).map(HealthRecord.sample), user: user, zone: .gmt)
        #expect(report.added == 3 && report.daysPending == true)
        #expect(try await harness.repositories.readableStore(alice).dirtySpans().isEmpty == false)
        if backend == .sqlite {
            // Files in users/ that are not a person's store are passed over.
            let users = harness.folder.appendingPathComponent("users")
            try Data("x".utf8).write(to: users.appendingPathComponent("notes.txt"))
            try Data("not sqlite".utf8).write(to: users.appendingPathComponent("0123abcd.sqlite"))
            // A FIFO named like a store: opened, it would wait for a writer forever.
            #expect(mkfifo(users.appendingPathComponent("0123abce.sqlite").path, 0o600) == 0)
        }
        #expect(try await harness.repositories.healthStores.usersWithDirtySpans() == [alice])
        try await harness.app.test(.router) { _ in
            var spans = 1
            for _ in 0..<200 where spans > 0 {
                spans = try await harness.repositories.readableStore(alice).dirtySpans().count
                if spans > 0 { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(spans == 0)
            let stored = try await harness.repositories.dailyMetrics.dailyMetrics(
                userID: alice, from: LocalDate("2024-06-01")!, through: LocalDate("2024-06-02")!, version: .v1)
            // 100 + 101 + 102 steps at 08:00, 08:10 and 08:20 UTC on the 1st; the 2nd is empty.
            #expect(stored.map(\.localDate) == ["2024-06-01", "2024-06-02"])
            #expect(stored.first?.stepsNormalized == 303)
        }
    }
}

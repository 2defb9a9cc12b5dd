import Foundation
import HealthCore
import HealthMetrics
import HealthServer
import HealthServerRecords
import HealthServerStorage
import HealthWire
import Hummingbird
import HummingbirdTesting
import Testing

/// Finding P2 (issue 32): a server killed after an import's commit left its days
/// uncomputed; the server that took the job over found the export already imported,
/// skipped the days and reported `succeeded, added 0` — every day of the export wrong.
@Suite(.enabled(if: ServerBackend.postgresURL != nil, "needs HEALTHPIPE_TEST_POSTGRES_URL"))
struct P2KilledServerTests {
    /// Days storage that stops at its first upsert, after saying so: the server is past the
    /// import's commit and is computing its days when it is killed. It fails once `killed`
    /// is set, so that this process's own locks (one process plays both servers here) are
    /// let go as a dead process's would be; by then the server's connections are closed.
    struct StoppingDays: DailyMetricsRepository {
        let inner: any DailyMetricsRepository
        let reached: Locked<Bool>
        let killed: Locked<Bool>
        struct Killed: Error {}
        func upsert(_ days: [NormalizedDailyMetrics], userID: String) async throws -> UpsertCounts {
            reached.withLock { $0 = true }
            while !killed.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
            throw Killed()
        }
        func dailyMetrics(
            userID: String, from first: LocalDate, through last: LocalDate, version: NormalizationVersion
        ) async throws -> [NormalizedDailyMetrics] {
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

    @Test func p2_aServerKilledAfterAnImportsCommitLeavesTheDaysToTheNext() async throws {
        let export = try await ImportsRouteTests.expected()
        let (reached, killed) = (Locked(false), Locked(false))
        let first = try await ServerHarness(
            .postgres,
            adjust: { repositories in
                repositories.dailyMetrics = StoppingDays(inner: repositories.dailyMetrics, reached: reached, killed: killed)
            })
        defer { first.cleanUp() }
        let alice = try #require(first.ids["alice"])
        let (id, samples) = try await first.app.test(.router) { client in
            let id = try await client.execute(
                uri: "/v1/imports?tz=America/Los_Angeles", method: .post, headers: first.upload("alice"),
                body: ByteBuffer(data: export.zip)
            ) { ServerHarness.json($0.body)["id"] as? String ?? "" }
            // The import has committed its samples and is computing their days: the server dies
            // (its connections close, with them its claim of the job and its locks) while it
            // runs, before its import service would wait for the import at a graceful shutdown.
            let deadline = Date().addingTimeInterval(120)
            while !reached.withLock({ $0 }) && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(reached.withLock { $0 }, "the import never reached its days")
            let samples = try await #require(first.samples).store(for: alice).sampleInventory().map(\.count).reduce(0, +)
            #expect(samples > 8000)
            await first.samples?.close()
            await first.store.close()
            killed.withLock { $0 = true }
            return (id, samples)
        }

        // Another server takes the job over: the export is stored already, its days are not.
        let second = try await first.anotherServer()
        defer { second.close() }
        // The second server up (its import service claims the job) until the job has ended.
        let done = try await second.app.test(.router) { _ in
            try await SharedImportQueueTests.poll(second.store, id: id, user: alice) {
                $0.state == .succeeded || $0.state == .failed
            }
        }
        #expect(done?.state == .succeeded && done?.error == nil)
        #expect(done?.alreadyImported == true && done?.added == 0)
        // Nothing stored twice; every day computed, as a server that never died computes them.
        #expect(try await second.samples.store(for: alice).sampleInventory().map(\.count).reduce(0, +) == samples)
        #expect((done?.daysRecomputed ?? 0) >= export.days.count)
        let days = try await second.store.dailyMetrics(
            userID: alice, from: LocalDate(export.first)!, through: LocalDate(export.last)!, version: .v1)
        #expect(days.count == export.days.count)
        #expect(days.map(\.stepsNormalized) == export.days.map(\.stepsNormalized))
        #expect(days.map(\.sleepHours) == export.days.map(\.sleepHours))
        #expect(try await second.store.unfinishedImports().isEmpty)
    }
}

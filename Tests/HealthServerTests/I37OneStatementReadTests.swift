import Foundation
import HealthCore
import HealthMetrics
import HealthPostgres
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 37 §3: on PostgreSQL a read of days (`GET /v1/daily-metrics`, `GET /v1/readiness`)
/// asks one statement for the user's existence, their dirty spans and the days, where it
/// asked three (`userExists`, the spans, the days). It must answer what the steps answer.
@Suite struct I37OneStatementReadTests {
    let version = NormalizationVersion.v1
    let first = LocalDate("2024-06-01")!
    let last = LocalDate("2024-06-20")!

    static func days(_ offsets: [Int]) -> [NormalizedDailyMetrics] {
        offsets.map { offset in
            ServerHarness.day(
                ServerHarness.date(offset), steps: offset % 3 == 0 ? nil : 5_000 + offset * 37,
                sleep: offset % 4 == 0 ? nil : 6.5 + Double(offset) / 8, restingHR: 50 + Double(offset % 5))
        }
    }

    @Test(arguments: ServerBackend.enabled)
    func i37_theServerReadsDaysInOneStatementOnlyWhereRecordsAndSamplesShareADatabase(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        #expect((harness.repositories.currentDays != nil) == (backend == .postgres))
        guard backend == .postgres, let store = harness.store as? PostgresServerStore else { return }
        // Samples reached through another pool (as a test's stand-in could be): read in steps.
        let elsewhere = try await PostgresServerStore(url: ServerBackend.postgresURL!, schema: harness.schema!)
        let samples = try await PostgresHealthDatabase(pool: elsewhere.pool)
        #expect(store.currentDaysReader(with: PostgresUserHealthStores(database: samples)) == nil)
        #expect(store.currentDaysReader(with: SQLiteUserHealthStores(folder: harness.folder.path)) == nil)
        await samples.close()
        await elsewhere.close()
    }

    /// The one statement against the steps, in every state a user's days can be in: no day,
    /// some days, a dirty span (nothing read), another user's dirty span (no effect), the
    /// user gone.
    @Test(.enabled(if: ServerBackend.postgresURL != nil, "needs HEALTHPIPE_TEST_POSTGRES_URL"))
    func i37_oneStatementAnswersWhatTheStepsAnswer() async throws {
        let harness = try await ServerHarness(.postgres)
        defer { harness.cleanUp() }
        let reader = try #require(harness.repositories.currentDays)
        let (store, samples) = (harness.store, try #require(harness.samples))
        let (alice, bob) = (try #require(harness.ids["alice"]), try #require(harness.ids["bob"]))

        func read(
            _ user: String, _ from: LocalDate = first, _ to: LocalDate = last
        ) async throws -> (
            days: CurrentDays<[NormalizedDailyMetrics]>, figures: CurrentDays<[DailyFigures]>
        ) {
            (
                try await reader.currentDailyMetrics(userID: user, from: from, through: to, version: version),
                try await reader.currentDailyFigures(userID: user, from: from, through: to, version: version)
            )
        }
        func expectCurrent(_ user: String, _ from: LocalDate = first, _ to: LocalDate = last) async throws {
            let (days, figures) = try await read(user, from, to)
            let steps = try await store.dailyMetrics(userID: user, from: from, through: to, version: version)
            let stepFigures = try await store.dailyFigures(userID: user, from: from, through: to, version: version)
            guard case .current(let read) = days, case .current(let readFigures) = figures else {
                Issue.record("not current: \(days), \(figures)")
                return
            }
            #expect(read == steps)
            #expect(readFigures == stepFigures)
        }

        // No day yet: current, empty.
        guard case .current(let none) = try await read(alice).days else { throw Unexpected() }
        #expect(none.isEmpty)
        _ = try await store.upsert(Self.days([0, 1, 2, 3, 5, 8, 13, 19, 25]), userID: alice)
        _ = try await store.upsert(Self.days([2, 4]), userID: bob)
        try await expectCurrent(alice)
        guard case .current(let aliceDays) = try await read(alice).days else { throw Unexpected() }
        #expect(aliceDays.map(\.localDate) == (Self.days([0, 1, 2, 3, 5, 8, 13, 19]).map(\.localDate)))
        try await expectCurrent(alice, LocalDate("2024-06-09")!, LocalDate("2024-06-12")!)  // none in range
        try await expectCurrent(alice, LocalDate("2024-06-14")!, LocalDate("2024-06-14")!)  // one

        // A dirty span of Alice's: nothing read for her; Bob's days are current.
        let span = DateInterval(start: Date(timeIntervalSince1970: 1_717_300_000), duration: 600)
        try await samples.store(for: alice).markDirty([span], zone: "Europe/Amsterdam")
        let dirty = try await read(alice)
        #expect(dirty.days.isDaysDirty && dirty.figures.isDaysDirty)
        try await expectCurrent(bob)
        let spans = try await samples.store(for: alice).dirtySpans()
        try await samples.store(for: alice).clearDirty(ids: spans.map(\.id))
        try await expectCurrent(alice)

        // Gone: an unknown id, and Alice once deleted.
        #expect(try await read("no-such-user").days.isUserGone)
        _ = try await store.deleteUser(id: alice)
        let gone = try await read(alice)
        #expect(gone.days.isUserGone && gone.figures.isUserGone)
        try await expectCurrent(bob)
    }

    /// Through the routes: a day written in samples is computed before it is read (the dirty
    /// span sends the read to the steps), and a readiness read answers the same figures
    /// whichever way it read them.
    @Test(arguments: ServerBackend.enabled)
    func i37_aReadAfterAWriteSeesItsDays(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "i37"),
                body: ByteBuffer(string: SamplesRouteTests.batch)
            ) { #expect($0.status == .ok) }
            // No settling first: the read itself must find the span and compute the day.
            try await client.execute(
                uri: "/v1/daily-metrics?from=2024-06-01&to=2024-06-01", method: .get, headers: harness.headers("alice")
            ) { response in
                #expect(response.status == .ok)
                let days = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]]
                #expect(days?.count == 1)
                #expect(days?.first?["steps_normalized"] as? Int != nil)
            }
            try await client.execute(
                uri: "/v1/readiness?date=2024-06-01", method: .get, headers: harness.headers("alice")
            ) { #expect($0.status == .ok) }
        }
    }

    struct Unexpected: Error {}
}

extension CurrentDays {
    var isDaysDirty: Bool {
        if case .daysDirty = self { return true }
        return false
    }

    var isUserGone: Bool {
        if case .userGone = self { return true }
        return false
    }
}

/// Found by the attack on the one-statement read (issue 37): a person deleted between the
/// read's check and its computation of dirty days got a 200 with their emptied days; now
/// the 401 of their token, on both stores.
@Suite struct I37DeletedDuringADirtyReadTests {
    /// Deletes the person's rows the first time their store is opened (the read's check of
    /// dirty spans): the computation that follows finds them gone.
    final class DeletingOnOpen: UserHealthStores, @unchecked Sendable {
        let inner: any UserHealthStores
        let records: any UserRepository
        let victim = Locked<String?>(nil)

        init(_ inner: any UserHealthStores, records: any UserRepository) {
            self.inner = inner
            self.records = records
        }

        func store(for userID: String) async throws -> any UserHealthStore {
            let store = try await inner.store(for: userID)
            let armed = victim.withLock { value -> Bool in
                guard value == userID else { return false }
                value = nil
                return true
            }
            if armed { _ = try await records.deleteUser(id: userID) }
            return store
        }

        func deleteStore(for userID: String) async throws -> (samples: Int, bytes: Int64) {
            try await inner.deleteStore(for: userID)
        }

        func usersWithDirtySpans() async throws -> [String] { try await inner.usersWithDirtySpans() }
    }

    @Test(arguments: ServerBackend.enabled)
    func i37_aPersonDeletedWhileTheirDirtyDaysAreComputedIsA401(_ backend: ServerBackend) async throws {
        var deleting: DeletingOnOpen?
        let harness = try await ServerHarness(backend) { _ in
        } adjust: { repositories in
            let stores = DeletingOnOpen(repositories.healthStores, records: repositories.users)
            deleting = stores
            repositories.healthStores = stores
        }
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        let stores = try #require(deleting)
        _ = try await harness.store.upsert([ServerHarness.day("2024-06-01")], userID: alice)
        let store = try #require(try await stores.inner.store(for: alice) as? any DirtySpanTracking)
        try await store.markDirty(
            [DateInterval(start: Date(timeIntervalSince1970: 1_717_200_000), duration: 60)], zone: "Europe/Amsterdam")
        stores.victim.withLock { $0 = alice }
        try await harness.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/daily-metrics?from=2024-06-01&to=2024-06-02", method: .get, headers: harness.headers("alice")
            ) { response in
                #expect(response.status == .unauthorized, "\(String(buffer: response.body))")
            }
        }
    }
}

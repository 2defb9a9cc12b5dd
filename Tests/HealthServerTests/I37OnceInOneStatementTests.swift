import Foundation
import HealthCore
import HealthPostgres
import PostgresNIO
import Testing

@testable import HealthServer
@testable import HealthServerRecords
@testable import HealthServerStorage

/// Issue 37 §2: on PostgreSQL an `Idempotency-Key`'s steps take one round trip before the
/// work (`healthpipe_begin_once`: the slot, then the answer) and one after (the answer kept,
/// the slot given back), where they took five. A key must still run once across servers.
@Suite(.enabled(if: ServerBackend.postgresURL != nil, "needs HEALTHPIPE_TEST_POSTGRES_URL"))
struct I37OnceInOneStatementTests {
    static func slots(_ store: PostgresServerStore) async throws -> Int {
        try await store.client.query("SELECT count(*) FROM in_flight", logger: store.logger).collect()
            .first!.decode(Int.self)
    }

    @Test func i37_theSlotAndTheAnswerInOneStatementEach() async throws {
        let harness = try await ServerHarness(.postgres)
        defer { harness.cleanUp() }
        let store = try #require(harness.store as? PostgresServerStore)
        #expect(harness.repositories.onceInOneStatement != nil)
        let alice = try #require(harness.ids["alice"])
        let since = Date().addingTimeInterval(-60)
        let answer = RememberedResponse(requestHash: Data([7, 7]), status: 200, body: Data("{}".utf8))

        #expect(try await store.beginOnce(slot: "s", userID: alice, key: "k", since: since) == .taken)
        #expect(try await store.beginOnce(slot: "s", userID: alice, key: "k", since: since) == .held)
        try await store.remember(userID: alice, key: "k", response: answer, at: Date(), ending: "s")
        #expect(try await Self.slots(store) == 0)
        // Remembered: the answer, and the slot it took for the look-up given back.
        #expect(try await store.beginOnce(slot: "s", userID: alice, key: "k", since: since) == .remembered(answer))
        #expect(try await Self.slots(store) == 0)
        // Held by another request and remembered (a replay in between): the answer.
        #expect(try await store.begin("s"))
        #expect(try await store.beginOnce(slot: "s", userID: alice, key: "k", since: since) == .remembered(answer))
        #expect(try await Self.slots(store) == 1)
        await store.end("s")
        // Too old: not remembered; another user's key of the same name is theirs.
        #expect(try await store.beginOnce(slot: "t", userID: alice, key: "k", since: Date().addingTimeInterval(60)) == .taken)
        #expect(try await store.beginOnce(slot: "u", userID: harness.ids["bob"]!, key: "k", since: since) == .taken)
        // A slot left by a server that died is taken again once stale.
        try await store.client.query("UPDATE in_flight SET taken_at = taken_at - 301", logger: store.logger)
        #expect(try await store.beginOnce(slot: "t", userID: alice, key: "other", since: since) == .taken)
    }

    /// Eight requests with one key at once, half on each of two servers (two pools), 25 keys:
    /// each key's work runs once, every other request is replayed or told it is in progress,
    /// and no slot is left. On the old steps, without the look-up after the slot, a request
    /// that took the slot just freed would run the work again.
    @Test(.timeLimit(.minutes(5))) func i37_aKeyRunsOnceAcrossTwoServers() async throws {
        let harness = try await ServerHarness(.postgres)
        defer { harness.cleanUp() }
        let first = try #require(harness.store as? PostgresServerStore)
        let second = try await PostgresServerStore(url: ServerBackend.postgresURL!, schema: harness.schema!)
        let alice = try #require(harness.ids["alice"])
        let onces = [first, second].map { store in
            RequestOnce(remembered: store, slots: store, clock: { Date() }, inOneStatement: store)
        }
        let runs = Locked<[String: Int]>([:])
        for round in 0..<25 {
            let key = "key-\(round)"
            let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
                for request in 0..<8 {
                    group.addTask {
                        do {
                            let answer = try await onces[request % 2].run(
                                userID: alice, key: key, requestHash: Data([1])
                            ) {
                                runs.withLock { $0[key, default: 0] += 1 }
                                try await Task.sleep(for: .milliseconds(Int.random(in: 0...3)))
                                return Data("answer \(request)".utf8)
                            }
                            if case .ran = answer { return "ran" }
                            return "replayed"
                        } catch RequestOnce.Refusal.inProgress {
                            return "in progress"
                        }
                    }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == "ran" }.count == 1, "round \(round): \(outcomes)")
            #expect(runs.withLock { $0[key] } == 1, "round \(round)")
        }
        #expect(try await Self.slots(first) == 0)
        await second.close()
    }

    /// Found by the attack: with a database or role whose default is REPEATABLE READ, the
    /// function's look-up shared the snapshot taken before its slot, and a key ran twice.
    /// Every connection of the pools is READ COMMITTED whatever the default.
    @Test func i37_everyConnectionIsReadCommittedWhateverTheDefault() async throws {
        let admin = try await PostgresPool(url: ServerBackend.postgresURL!)
        let role = "hp_rr_\(UUID().uuidString.prefix(8).lowercased())"
        try await admin.client.query("CREATE ROLE \(unescaped: role) LOGIN", logger: admin.logger)
        try await admin.client.query(
            "ALTER ROLE \(unescaped: role) SET default_transaction_isolation = 'repeatable read'", logger: admin.logger)
        var url = URLComponents(string: ServerBackend.postgresURL!)!
        url.user = role
        let pool = try await PostgresPool(url: url.string!)
        let isolation = try await pool.client.query("SHOW transaction_isolation", logger: pool.logger).collect()
            .first!.decode(String.self)
        #expect(isolation == "read committed")
        await pool.close()
        try await admin.client.query("DROP ROLE \(unescaped: role)", logger: admin.logger)
        await admin.close()
    }

    /// Found by the attack: a key reused after its answer expired was never remembered (the
    /// insert met the expired row the same statement was deleting), so its retry ran again.
    @Test(arguments: ServerBackend.enabled)
    func i37_aKeyReusedAfterItsAnswerExpiredIsRememberedAgain(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        let t0 = Date()
        let (old, new) = (
            RememberedResponse(requestHash: Data([1]), status: 200, body: Data("old".utf8)),
            RememberedResponse(requestHash: Data([2]), status: 200, body: Data("new".utf8))
        )
        try await harness.store.remember(userID: alice, key: "k", response: old, at: t0.addingTimeInterval(-25 * 3600))
        try await harness.store.remember(userID: alice, key: "other", response: old, at: t0.addingTimeInterval(-25 * 3600))
        try await harness.store.remember(userID: alice, key: "k", response: new, at: t0)
        let since = t0.addingTimeInterval(-24 * 3600)
        #expect(try await harness.store.remembered(userID: alice, key: "k", since: since) == new)
        // A live answer is never replaced: the first of two wins.
        try await harness.store.remember(userID: alice, key: "k", response: old, at: t0.addingTimeInterval(1))
        #expect(try await harness.store.remembered(userID: alice, key: "k", since: since) == new)
        // The user's other expired answers are gone.
        #expect(try await harness.store.remembered(userID: alice, key: "other", since: .distantPast) == nil)
    }
}

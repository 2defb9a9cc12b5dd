import Foundation
import HealthCore
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import HealthPostgres
@testable import HealthServer
@testable import HealthServerRecords
@testable import HealthServerStorage

/// Findings P1 and P4 (issue 32), on the PostgreSQL store (the tests return at once on SQLite).
///
/// P1: names (types, sources, devices) were interned inside each user's write transaction,
/// so two users bringing the same new names in opposite orders deadlocked (each a 500).
/// Names are now interned outside it; a transaction PostgreSQL still ends for a deadlock or
/// a serialization failure is tried again, and answered 503 with `Retry-After` if it keeps
/// failing.
///
/// P4: sources and devices ("Jane’s Apple Watch") outlived the person. They are now deleted
/// with the last user who used them, and no process keeps a deleted name's id.
@Suite struct P1P4PostgresNamesTests {
    /// One sample as `POST /v1/samples` takes it, `minutes` after 2024-06-01T00:00Z.
    static func sample(
        _ type: String = "HKQuantityTypeIdentifierStepCount", minutes: Int, value: Int = 100, unit: String = "count",
        source: String, software: String? = nil
    ) -> String {
        let formatter = ISO8601DateFormatter()
        let start = Date(timeIntervalSince1970: 1_717_200_000 + Double(minutes) * 60)
        var fields = [
            #""type": "\#(type)""#, #""start": "\#(formatter.string(from: start))""#,
            #""end": "\#(formatter.string(from: start + 60))""#, #""value": \#(value)"#, #""unit": "\#(unit)""#,
            #""source": "\#(source)""#,
        ]
        if let software {
            fields.append(
                #""device": {"name": "Apple Watch", "manufacturer": "Apple Inc.", "model": "Watch", "hardware": "Watch6,2", "software": "\#(software)"}"#
            )
        }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    static func batch(_ samples: [String]) -> ByteBuffer {
        ByteBuffer(string: #"{"samples": ["# + samples.joined(separator: ", ") + "]}")
    }

    /// Posts `body` as `user` (a harness name or a token); the status and the `added` count.
    static func post(
        _ client: some TestClientProtocol, _ harness: ServerHarness, _ user: String, _ body: ByteBuffer, key: String
    ) async throws -> (HTTPResponse.Status, Int?) {
        try await client.execute(
            uri: "/v1/samples", method: .post, headers: harness.headers(user, idempotencyKey: key), body: body
        ) { response in
            (response.status, ServerHarness.json(response.body)["added"] as? Int)
        }
    }

    /// `user`'s step samples from the change feed (a 200 is expected: every name resolves).
    static func samples(
        _ client: some TestClientProtocol, _ harness: ServerHarness, _ user: String
    ) async throws -> [[String: Any]] {
        try await client.execute(
            uri: "/v1/changes?type=HKQuantityTypeIdentifierStepCount&since=0&limit=100", method: .get,
            headers: harness.headers(user)
        ) { response in
            #expect(response.status == .ok)
            let changes = ServerHarness.json(response.body)["changes"] as? [[String: Any]] ?? []
            return changes.compactMap { $0["sample"] as? [String: Any] }
        }
    }

    /// The rows of the names tables (`health_source`, `health_device`) and their uses, as text.
    static func nameRows(_ harness: ServerHarness) async throws -> [String] {
        try await harness.dumpTables().filter {
            $0.hasPrefix("health_source ") || $0.hasPrefix("health_device ") || $0.hasPrefix("health_source_user ")
                || $0.hasPrefix("health_device_user ")
        }
    }

    // MARK: P1

    /// Two users on two servers write, 20 times at once, batches whose samples bring the
    /// same new sources and devices (and, the first time, types) in opposite orders: every
    /// write succeeds, and each name is stored once.
    @Test(arguments: ServerBackend.enabled) func p1_sameNewNamesInOppositeOrdersNeverDeadlock(
        _ backend: ServerBackend
    ) async throws {
        guard backend == .postgres else { return }
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let second = try await harness.anotherServer()
        defer { second.close() }
        let rounds = 20
        let letters = ["A", "B", "C"]
        try await harness.app.test(.router) { first in
            try await second.app.test(.router) { other in
                for round in 0..<rounds {
                    func steps(offset: Int) -> [String] {
                        letters.enumerated().map { index, letter in
                            Self.sample(
                                minutes: round * 60 + offset + index, source: "P1 Watch r\(round) \(letter)",
                                software: "11.\(round).\(letter)")
                        }
                    }
                    let water = Self.sample(
                        "HKQuantityTypeIdentifierDietaryWater", minutes: round * 60, value: 250, unit: "mL",
                        source: "P1 Bottle")
                    let alice = Self.batch(steps(offset: 0) + [water])
                    let bob = Self.batch([water] + steps(offset: 20).reversed())
                    let answers = try await withThrowingTaskGroup(of: (String, HTTPResponse.Status, Int?).self) { group in
                        group.addTask {
                            let (status, added) = try await Self.post(first, harness, "alice", alice, key: "p1-a-\(round)")
                            return ("alice", status, added)
                        }
                        group.addTask {
                            let (status, added) = try await Self.post(other, harness, "bob", bob, key: "p1-b-\(round)")
                            return ("bob", status, added)
                        }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                    for (user, status, added) in answers {
                        #expect(status == .ok, "round \(round), \(user)")
                        #expect(added == 4, "round \(round), \(user)")
                    }
                }
            }
        }
        let rows = try await Self.nameRows(harness)
        for round in 0..<rounds {
            for letter in letters {
                let sources = rows.filter { $0.hasPrefix("health_source ") && $0.contains("\"P1 Watch r\(round) \(letter)\"") }
                #expect(sources.count == 1, "P1 Watch r\(round) \(letter)")
                let devices = rows.filter { $0.hasPrefix("health_device ") && $0.contains("11.\(round).\(letter)") }
                #expect(devices.count == 1, "11.\(round).\(letter)")
            }
        }
        #expect(rows.filter { $0.hasPrefix("health_source ") && $0.contains("\"P1 Bottle\"") }.count == 1)
    }

    /// A transaction PostgreSQL ends for a deadlock is run again, body and all, and succeeds.
    @Test(arguments: ServerBackend.enabled) func p1_aDeadlockedWriteIsTriedAgain(_ backend: ServerBackend) async throws {
        guard backend == .postgres else { return }
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let results = try await Self.deadlock(harness, attempts: PostgresHealthStore.writeAttempts)
        #expect(results.added == [1, 1])
        #expect(results.busy == 0)
        // Three runs of the two bodies: the deadlock's victim ran twice.
        #expect(results.runs == 3)
    }

    /// Tried once (as an import is), a deadlock is a ``StoreBusyError`` — never the raw error.
    @Test(arguments: ServerBackend.enabled) func p1_aDeadlockOnEveryTryIsStoreBusy(_ backend: ServerBackend) async throws {
        guard backend == .postgres else { return }
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let results = try await Self.deadlock(harness, attempts: 1)
        #expect(results.added == [1])
        #expect(results.busy == 1)
        #expect(results.runs == 2)
    }

    /// `StoreBusyError` is a 503 with `Retry-After`, in problem+json.
    @Test func p1_storeBusyIs503WithRetryAfter() async throws {
        let router = Router(context: HealthRequestContext.self)
        router.add(middleware: ProblemMiddleware(routes: []))
        router.get("busy") { _, _ -> String in throw StoreBusyError() }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/busy", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "1")
                #expect(response.headers[.contentType] == "application/problem+json")
            }
        }
    }

    /// Alice's and Bob's writes each take one advisory lock, meet, then take the other's:
    /// PostgreSQL ends one of them for the deadlock. The bodies lock only on their first run.
    static func deadlock(
        _ harness: ServerHarness, attempts: Int
    ) async throws -> (added: [Int], busy: Int, runs: Int) {
        let database = try #require(harness.samples)
        let keys = (Int64.random(in: 1_000_000...Int64.max / 2), Int64.random(in: 1_000_000...Int64.max / 2))
        let meeting = Counter()
        let runs = Counter()
        let logger = Logger(label: "p1-deadlock")
        let users = [(harness.ids["alice"]!, keys.0, keys.1, 0), (harness.ids["bob"]!, keys.1, keys.0, 1)]
        return try await withThrowingTaskGroup(of: Int?.self) { group in
            for (user, first, then, minute) in users {
                let store = database.store(for: user)
                group.addTask {
                    var locked = false
                    do {
                        return try await store.write(attempts: attempts) { writer in
                            await runs.increment()
                            if !locked {
                                locked = true
                                // Rows read to the end: postgres-nio reports a statement's error
                                // (the deadlock) while its rows are read.
                                _ = try await writer.connection.query(
                                    "SELECT pg_advisory_xact_lock(\(first))", logger: logger
                                ).collect()
                                // Both hold their first lock before either asks for its second.
                                await meeting.increment()
                                while await meeting.value < 2 { try await Task.sleep(for: .milliseconds(5)) }
                                _ = try await writer.connection.query(
                                    "SELECT pg_advisory_xact_lock(\(then))", logger: logger
                                ).collect()
                            }
                            let sample = Sample(
                                type: .stepCount, start: Date(timeIntervalSince1970: 1_717_200_000 + Double(minute) * 60),
                                end: Date(timeIntervalSince1970: 1_717_200_060 + Double(minute) * 60),
                                value: .quantity(100, unit: "count"), source: Source(name: "P1 deadlock"))
                            try await writer.write([.sample(sample)])
                            try await writer.flush()
                            return writer.added[.sample] ?? 0
                        }
                    } catch is StoreBusyError {
                        return nil
                    }
                }
            }
            var added: [Int] = []
            var busy = 0
            for try await result in group {
                if let result { added.append(result) } else { busy += 1 }
            }
            let total = await runs.value
            return (added, busy, total)
        }
    }

    actor Counter {
        var value = 0
        func increment() { value += 1 }
    }

    // MARK: P4

    /// Alice's own source and device go with her; the source Bob uses too stays; Bob can
    /// then write a source named like hers, also through a server that had cached her ids.
    @Test(arguments: ServerBackend.enabled) func p4_namesGoWithTheLastPersonUsingThem(_ backend: ServerBackend) async throws {
        guard backend == .postgres else { return }
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let second = try await harness.anotherServer()
        defer { second.close() }
        let jane = "Jane’s Apple Watch"
        let software = "10.1 (21S64)"
        try await harness.app.test(.router) { first in
            try await second.app.test(.router) { other in
                let alice = Self.batch([
                    Self.sample(minutes: 0, source: jane, software: software),
                    Self.sample(minutes: 10, source: jane, software: software),
                    Self.sample(minutes: 20, source: "Health"),
                ])
                var answer = try await Self.post(first, harness, "alice", alice, key: "p4-a")
                #expect(answer.0 == .ok && answer.1 == 3)
                answer = try await Self.post(
                    first, harness, "bob", Self.batch([Self.sample(minutes: 30, source: "Health")]), key: "p4-b1")
                #expect(answer.0 == .ok && answer.1 == 1)
                // The second server reads Alice's samples: its cache now holds her source's and device's ids.
                try await other.execute(
                    uri: "/v1/changes?type=HKQuantityTypeIdentifierStepCount&since=0", method: .get,
                    headers: harness.headers("alice")
                ) { response in
                    #expect(response.status == .ok)
                    let changes = ServerHarness.json(response.body)["changes"] as? [[String: Any]] ?? []
                    #expect(changes.count == 3)
                }
                let before = try await Self.nameRows(harness)
                #expect(before.contains { $0.hasPrefix("health_source ") && $0.contains(jane) })
                #expect(before.contains { $0.hasPrefix("health_device ") && $0.contains(software) })

                try await first.execute(
                    uri: "/v1/me", method: .delete,
                    headers: {
                        var headers = harness.headers("alice")
                        headers[.init("Confirm-Delete")!] = "all-my-data"
                        return headers
                    }()
                ) { response in
                    #expect(response.status == .ok)
                }
                let after = try await Self.nameRows(harness)
                #expect(!after.contains { $0.contains(jane) }, "\(after)")
                #expect(!after.contains { $0.contains(software) }, "\(after)")
                #expect(!after.contains { $0.contains(harness.ids["alice"]!) }, "\(after)")
                #expect(after.contains { $0.hasPrefix("health_source ") && $0.contains(",Health,") }, "\(after)")

                // Bob writes a source named like Alice's old one through the server whose cache
                // held her deleted ids, then through the one that deleted them.
                answer = try await Self.post(
                    other, harness, "bob", Self.batch([Self.sample(minutes: 40, source: jane, software: software)]),
                    key: "p4-b2")
                #expect(answer.0 == .ok && answer.1 == 1)
                answer = try await Self.post(
                    first, harness, "bob", Self.batch([Self.sample(minutes: 50, source: jane, software: software)]),
                    key: "p4-b3")
                #expect(answer.0 == .ok && answer.1 == 1)
                let fromFirst = try await Self.samples(first, harness, "bob")
                let fromOther = try await Self.samples(other, harness, "bob")
                for samples in [fromFirst, fromOther] {
                    #expect(samples.compactMap { $0["source"] as? String } == ["Health", jane, jane])
                    #expect(
                        samples.compactMap { ($0["device"] as? [String: Any])?["software"] as? String } == [
                            software, software,
                        ])
                }
                let rows = try await Self.nameRows(harness)
                #expect(rows.filter { $0.hasPrefix("health_source ") && $0.contains(jane) }.count == 1)
                #expect(rows.filter { $0.hasPrefix("health_device ") && $0.contains(software) }.count == 1)
            }
        }
    }

    /// A person deletes themselves while Bob, on another server, writes for the first time a
    /// source and device only they had used: Bob's write succeeds, and every sample of his
    /// reads back with its names (none refers to a deleted row), round after round.
    @Test(arguments: ServerBackend.enabled) func p4_aDeletionRacingAWriteOfTheSameNamesLosesNothing(
        _ backend: ServerBackend
    ) async throws {
        guard backend == .postgres else { return }
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let second = try await harness.anotherServer()
        defer { second.close() }
        let rounds = 8
        try await harness.app.test(.router) { first in
            try await second.app.test(.router) { other in
                for round in 0..<rounds {
                    let (_, token) = try await harness.store.addUser(
                        name: "racer\(round)", scopes: Scope.parse("read,write")!)
                    let racer = token.text
                    let source = "Race source r\(round)"
                    let software = "race.\(round)"
                    let own = try await Self.post(
                        first, harness, racer, Self.batch([Self.sample(minutes: round, source: source, software: software)]),
                        key: "p4-r-\(round)")
                    #expect(own.0 == .ok && own.1 == 1)
                    // The second server caches the racer's names, as a reader of theirs would.
                    try await other.execute(
                        uri: "/v1/changes?type=HKQuantityTypeIdentifierStepCount&since=0", method: .get,
                        headers: harness.headers(racer)
                    ) { response in #expect(response.status == .ok) }
                    let bob = Self.batch([Self.sample(minutes: 100 + round, source: source, software: software)])
                    let statuses = try await withThrowingTaskGroup(of: (String, HTTPResponse.Status).self) { group in
                        group.addTask {
                            try await first.execute(
                                uri: "/v1/me", method: .delete,
                                headers: {
                                    var headers = harness.headers(racer)
                                    headers[.init("Confirm-Delete")!] = "all-my-data"
                                    return headers
                                }()
                            ) { ("delete", $0.status) }
                        }
                        group.addTask {
                            let (status, _) = try await Self.post(other, harness, "bob", bob, key: "p4-rb-\(round)")
                            return ("bob", status)
                        }
                        return try await group.reduce(into: []) { $0.append($1) }
                    }
                    for (what, status) in statuses { #expect(status == .ok, "round \(round), \(what)") }
                }
                let fromFirst = try await Self.samples(first, harness, "bob")
                let fromOther = try await Self.samples(other, harness, "bob")
                for samples in [fromFirst, fromOther] {
                    #expect(samples.compactMap { $0["source"] as? String } == (0..<rounds).map { "Race source r\($0)" })
                    #expect(
                        samples.compactMap { ($0["device"] as? [String: Any])?["software"] as? String }
                            == (0..<rounds).map { "race.\($0)" })
                }
            }
        }
        let rows = try await Self.nameRows(harness)
        for round in 0..<rounds {
            #expect(rows.filter { $0.hasPrefix("health_source ") && $0.contains("\"Race source r\(round)\"") }.count == 1)
            #expect(rows.filter { $0.hasPrefix("health_device ") && $0.contains("race.\(round)") }.count == 1)
        }
    }
}

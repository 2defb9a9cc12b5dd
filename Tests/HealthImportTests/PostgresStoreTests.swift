import Foundation
import HealthBasics
import HealthCore
import HealthDaily
import HealthImport
import HealthSQLite
import HealthTestSupport
import PropertyBased
import Testing

@testable import HealthPostgres

/// The PostgreSQL store against the same references as the SQLite store: the in-memory
/// store's answers, the change feed's property, the rules of identity and deletion, and
/// observation — here across two "servers" on one database.
@Suite(.enabled(if: PostgresTestDatabase.url != nil, "needs HEALTHPIPE_TEST_POSTGRES_URL"))
struct PostgresStoreTests {
    static let t0 = SQLiteStoreTests.t0

    /// A store with ``SQLiteStoreTests/samples()`` written one record at a time, and the reference.
    static func stores(_ test: PostgresTestDatabase) async throws -> (PostgresHealthStore, InMemoryHealthStore) {
        let samples = SQLiteStoreTests.samples()
        let store = test.database.store(for: UUID().uuidString.lowercased())
        try await store.write { writer in try await writer.write(samples.map(HealthRecord.sample)) }
        return (store, InMemoryHealthStore(samples: samples))
    }

    @Test func overlapQueriesMatchTheReference() async throws {
        let test = try await PostgresTestDatabase.make("overlap")
        let (store, reference) = try await Self.stores(test)
        try await SQLiteStoreTests.expectOverlapsMatch(store, reference)
        await test.close()
    }

    /// Issue 37: several reads in one statement answer what each read alone answers, in its
    /// order — requests of types stored and not, the same type twice, empty and instant spans.
    @Test func i37_severalReadsInOneStatementAnswerAsEachAlone() async throws {
        let test = try await PostgresTestDatabase.make("batchedreads")
        let (store, reference) = try await Self.stores(test)
        var state: UInt64 = 7
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let types: [SampleType] = [.stepCount, .heartRate, .sleepAnalysis, .bloodPressure]
        var answered = 0
        for round in 0..<40 {
            let requests = (0..<(1 + round % 6)).map { _ in
                let start = Self.t0.addingTimeInterval(Double(next(90_000)) - 1_000)
                return (type: types[next(types.count)], interval: DateInterval(start: start, duration: Double(next(4) * 20_000)))
            }
            let together = try await store.samples(of: requests)
            #expect(together.count == requests.count)
            for (request, answer) in zip(requests, together) {
                let alone = try await store.samples(of: request.type, overlapping: request.interval)
                #expect(answer.map(\.uuid) == alone.map(\.uuid), "round \(round)")
                #expect(answer == alone, "round \(round)")
                #expect(
                    Set(answer.map(\.uuid))
                        == Set(try await reference.samples(of: request.type, overlapping: request.interval).map(\.uuid)))
                answered += answer.count
            }
        }
        #expect(answered > 500)
        await test.close()
    }

    @Test func latestAndStatisticsMatchTheReference() async throws {
        let test = try await PostgresTestDatabase.make("latest")
        let (store, reference) = try await Self.stores(test)
        try await SQLiteStoreTests.expectLatestAndStatisticsMatch(store, reference)
        await test.close()
    }

    @Test func i34_port_inventoryMatchesTheReference() async throws {
        let test = try await PostgresTestDatabase.make("inventory")
        let (store, reference) = try await Self.stores(test)
        try await SQLiteStoreTests.expectInventoryMatches(store, reference)
        await test.close()
    }

    /// The records of ``SQLiteStoreTests/batchedWritesStoreWhatOneByOneWritesStore()`` —
    /// duplicates inside a run, a correlation with a stored and a new member, beats — give
    /// the same counts and the same feeds as in SQLite.
    @Test func writesCountAndStoreWhatSQLiteDoes() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let test = try await PostgresTestDatabase.make("writes")
        var samples = SQLiteStoreTests.samples()
        samples[5].beats = [
            HeartbeatInstant(time: Self.t0, beatsPerMinute: 61), HeartbeatInstant(time: Self.t0 + 1.5, beatsPerMinute: 63),
        ]
        var records: [HealthRecord] = samples.prefix(20).map { .sample($0) }
        for (index, sample) in samples.enumerated() {
            records.append(.sample(sample))
            if index % 7 == 3 { records.append(.sample(sample)) }
            if index == 200 {
                var member = samples[10]
                member.type = .bloodPressureDiastolic
                records.append(
                    .correlation(
                        Correlation(
                            type: .bloodPressure, start: sample.start, end: sample.start, source: sample.source,
                            objects: [samples[9], member])))
            }
        }
        records += samples[100..<140].map { .sample($0) }
        let sqlite = try Fixtures.database(in: folder)
        let expected = try sqlite.write { writer in
            try writer.write(RecordWriter.prepare(records))
            return (writer.added, writer.duplicates, writer.addedByType)
        }
        let store = test.database.store(for: "writes")
        let got = try await store.write { writer in
            // In two calls, so that the second finds the first's rows stored.
            try await writer.write(Array(records[..<250]))
            try await writer.write(Array(records[250...]))
            try await writer.flush()
            return (writer.added, writer.duplicates, writer.addedByType)
        }
        #expect(got.0 == expected.0 && got.1 == expected.1 && got.2 == expected.2)
        for type in [SampleType.stepCount, .heartRate, .sleepAnalysis, .bloodPressure, .bloodPressureDiastolic] {
            let want = try await sqlite.store.changes(of: type, since: .initial, limit: 1000).samples
            let have = try await store.changes(of: type, since: .initial, limit: 1000).samples
            #expect(have == want, "\(type)")
            #expect(!have.isEmpty)
        }
        let everything = DateInterval(start: Self.t0 - 86400, duration: 3 * 86400)
        let pressure = try await store.correlations(of: .bloodPressure, overlapping: everything)
        let reference = try await sqlite.store.correlations(of: .bloodPressure, overlapping: everything)
        #expect(pressure.map(\.correlation) == reference.map(\.correlation))
        #expect(pressure.map(\.members) == reference.map(\.members) && pressure.first?.members.count == 2)
        // Deleting the correlation deletes its members (no other correlation holds them).
        let report = try await store.delete(uuids: [pressure[0].correlation.uuid])
        #expect(report.deleted == [pressure[0].correlation.uuid] + pressure[0].members.map(\.uuid))
        #expect(try await store.correlations(of: .bloodPressure, overlapping: everything).isEmpty)
        await test.close()
    }

    /// ``IdentityAndDeletionTests/givenUUIDsAreKeptReplacedAndResent()`` on PostgreSQL, and a
    /// UUID named again as another type is refused with nothing written.
    @Test func givenUUIDsAreKeptReplacedResentAndOfOneType() async throws {
        let test = try await PostgresTestDatabase.make("identity")
        let store = test.database.store(for: "identity")
        let id = UUID()
        func steps(_ value: Double, uuid: UUID? = id) -> Sample {
            Sample(
                type: .stepCount, start: Self.t0, end: Self.t0 + 60, value: .quantity(value, unit: "count"),
                source: Source(name: "Phone"), uuid: uuid)
        }
        #expect(try await store.add([steps(10)]) == 1)
        #expect(try await store.add([steps(10)]) == 0)
        // Same content, another writer-given UUID: another sample (issue 32, M7), and sent
        // again a duplicate.
        let other = UUID()
        #expect(try await store.add([steps(10, uuid: other)]) == 1)
        #expect(try await store.add([steps(10, uuid: other)]) == 0)
        #expect(try await store.delete(uuids: [other]).deleted == [other])
        var feed = try await store.changes(of: .stepCount, since: .initial, limit: 100)
        #expect(feed.samples.map(\.uuid) == [id])
        let first = feed.nextAnchor
        #expect(try await store.add([steps(12)]) == 1)
        feed = try await store.changes(of: .stepCount, since: first, limit: 100)
        #expect(feed.deletedObjects.map(\.uuid) == [id])
        #expect(feed.samples.map(\.value.number) == [12])
        #expect(try await store.delete(uuids: [id]).deleted == [id])
        #expect(try await store.add([steps(12)]) == 1)
        feed = try await store.changes(of: .stepCount, since: .initial, limit: 100)
        #expect(feed.deletedObjects.map(\.uuid) == [other, id, id])
        #expect(feed.samples.map(\.uuid) == [id])
        #expect(feed.changes.map(\.anchor) == feed.changes.map(\.anchor).sorted())

        let before = try await store.latestAnchor()
        var pulse = Sample(
            type: .heartRate, start: Self.t0, end: Self.t0, value: .quantity(60, unit: "count/min"),
            source: Source(name: "Watch"), uuid: id)
        await #expect(throws: SampleIdentityError.self) {
            try await store.add([steps(1, uuid: UUID()), pulse])
        }
        #expect(try await store.latestAnchor() == before)
        pulse.givenUUID = nil
        #expect(try await store.add([pulse]) == 1)
        let unknown = UUID()
        #expect(try await store.delete(uuids: [unknown]).unknown == [unknown])
        await test.close()
    }

    /// One database, many users: a user's reads, feeds and deletions never reach another's samples.
    @Test func usersAreIsolated() async throws {
        let test = try await PostgresTestDatabase.make("users")
        let alice = test.database.store(for: "alice")
        let bob = test.database.store(for: "bob")
        let sample = SQLiteStoreTests.samples()[0]
        try await alice.add([sample])
        try await bob.add([sample])  // the same content for both: stored for each
        let day = DateInterval(start: Self.t0 - 86400, duration: 3 * 86400)
        #expect(try await bob.samples(of: sample.type, overlapping: day).count == 1)
        #expect(try await bob.delete(uuids: [sample.uuid]).deleted == [sample.uuid])
        #expect(try await alice.samples(of: sample.type, overlapping: day) == [sample.withUUID])
        #expect(try await bob.samples(of: sample.type, overlapping: day).isEmpty)
        #expect(try await alice.latestAnchor() == QueryAnchor(1))
        #expect(try await bob.latestAnchor() == QueryAnchor(2))
        try await PostgresAppData(store: bob).saveDailyLog(try DailyLogEntry(date: LocalDate("2024-01-02")!, mood: 3))
        #expect(try await test.database.deleteUser("bob") == 0)
        #expect(try await PostgresAppData(store: bob).dailyLog(on: LocalDate("2024-01-02")!) == nil)
        #expect(try await bob.changes(of: sample.type, since: .initial, limit: 10).changes.isEmpty)
        #expect(try await alice.changes(of: sample.type, since: .initial, limit: 10).samples.count == 1)
        await test.close()
    }

    /// Each committed write is heard once by an observer — also when another server (another
    /// pool on the same database) writes — and another user's writes are not heard.
    @Test func observersHearEveryServersCommitsOnce() async throws {
        let test = try await PostgresTestDatabase.make("observe")
        let other = try await test.another()
        let notices = test.database.store(for: "alice").observe(nil)
        let heartOnly = test.database.store(for: "alice").observe([.heartRate])
        var next = notices.makeAsyncIterator()
        let steps = SQLiteStoreTests.samples().filter { $0.type == .stepCount }
        let pulse = SQLiteStoreTests.samples().first { $0.type == .heartRate }!

        try await other.database.store(for: "bob").add([steps[0]])  // another user: not heard
        try await other.database.store(for: "alice").add([steps[0]])
        let first = try #require(await next.next())
        #expect(first.types == [.stepCount] && first.lastAnchor == QueryAnchor(1))
        try await test.database.store(for: "alice").add([steps[0]])  // a duplicate: no notice
        _ = try await other.database.store(for: "alice").delete(uuids: [steps[0].uuid])
        let deleted = try #require(await next.next())
        #expect(deleted.types == [.stepCount] && deleted.lastAnchor == QueryAnchor(2))
        try await test.database.store(for: "alice").add([pulse])
        #expect(try #require(await next.next()) == ChangeNotice(types: [.heartRate], lastAnchor: QueryAnchor(3)))
        var heart = heartOnly.makeAsyncIterator()
        #expect(try #require(await heart.next()) == ChangeNotice(types: [.heartRate], lastAnchor: QueryAnchor(3)))
        notices.finish()
        #expect(await next.next() == nil)
        await other.close(drop: false)
        await test.close()
    }

    @Test func aReplicaFromTheFeedEqualsTheStoreOnPostgres() async throws {
        let test = try await PostgresTestDatabase.make("feed")
        await propertyCheck(count: 150, input: ChangeFeedPropertyTests.histories) { steps, reading in
            let agreed = try await ChangeFeedPropertyTests.run(
                steps, reading: reading, on: Self.target(test.database.store(for: UUID().uuidString)))
            #expect(agreed, "\(steps)")
        }
        // The history the property check found on SQLite and in memory (2026-11-26).
        #expect(
            try await ChangeFeedPropertyTests.run(
                ChangeFeedPropertyTests.sentBackWhileAnotherHoldsTheContent, reading: [0],
                on: Self.target(test.database.store(for: UUID().uuidString))))
        let history: [ChangeFeedPropertyTests.Step] = [.init(kind: 0, a: 0, b: 11, c: 0), .init(kind: 3, a: 1, b: 2, c: 0)]
        let store = test.database.store(for: UUID().uuidString)
        #expect(try await !ChangeFeedPropertyTests.run(history, reading: [3], on: Self.target(store), dropTombstones: true))
        await test.close()
    }

    /// Samples stored before `health-v3` move into the partitions whole: every user's feed
    /// and range reads answer as before, and later writes carry on from the same anchors.
    @Test func samplesStoredBeforePartitioningMoveOver() async throws {
        let schema = "t_v3_\(UUID().uuidString.prefix(8).lowercased())"
        let pool = try await PostgresPool(url: PostgresTestDatabase.url!, schema: schema)
        let before = try await PostgresHealthDatabase(
            pool: pool, migrations: PostgresHealthSchema.migrations.filter { $0.id != "health-v3" })
        let samples = SQLiteStoreTests.samples()
        let users = ["alice", "bob", "carol"]
        var feeds: [[[SampleChange]]] = []
        for (index, user) in users.enumerated() {
            let store = before.store(for: user)
            try await Self.target(store).importRecords(Array(samples.dropFirst(index * 50)))
            _ = try await store.delete(uuids: [samples[index * 50 + 1].uuid])
            feeds.append(try await Self.feeds(store))
        }
        #expect(try await Self.partitions(pool) == 0)
        await before.close()

        let after = try await PostgresHealthDatabase(pool: pool)
        #expect(try await Self.partitions(pool) == PostgresHealthSchema.samplePartitions)
        for (index, user) in users.enumerated() {
            let store = after.store(for: user)
            #expect(try await Self.feeds(store) == feeds[index], "\(user)")
            let reference = InMemoryHealthStore(
                samples: samples.dropFirst(index * 50).filter { $0.uuid != samples[index * 50 + 1].uuid })
            try await SQLiteStoreTests.expectOverlapsMatch(store, reference)
        }
        let carol = after.store(for: "carol")
        let last = try await carol.latestAnchor()
        try await carol.add([samples[0]])
        #expect(try await carol.latestAnchor() == QueryAnchor(last.rawValue + 1))
        await after.close()
        _ = try? await pool.client.query("DROP SCHEMA \(unescaped: schema) CASCADE", logger: pool.logger)
        await pool.close()
    }

    /// Every type's whole feed, from the start.
    static func feeds(_ store: PostgresHealthStore) async throws -> [[SampleChange]] {
        var feeds: [[SampleChange]] = []
        for type in Set(SQLiteStoreTests.samples().map(\.type)).sorted(by: { $0.identifier < $1.identifier }) {
            feeds.append(try await store.changes(of: type, since: .initial, limit: 10_000).changes)
        }
        return feeds
    }

    /// How many partitions `health_sample` has in the pool's schema (0: not partitioned).
    static func partitions(_ pool: PostgresPool) async throws -> Int {
        let rows = try await pool.client.query(
            """
            SELECT count(i.inhrelid)::int FROM pg_class c LEFT JOIN pg_inherits i ON i.inhparent = c.oid
            WHERE c.relname = 'health_sample' AND c.relnamespace = current_schema()::regnamespace
            """, logger: pool.logger)
        for try await count in rows.decode(Int.self) { return count }
        return -1
    }

    /// An export's records go through the writer's batch path.
    static func target(_ store: PostgresHealthStore) -> ChangeFeedPropertyTests.Target {
        ChangeFeedPropertyTests.Target(store: store) { samples in
            try await store.write { writer in try await writer.write(samples.map(HealthRecord.sample)) }
        }
    }
}

extension Sample {
    /// The sample as a store reads it back: its UUID given.
    var withUUID: Sample {
        var copy = self
        copy.givenUUID = uuid
        return copy
    }
}

/// A generated export imported into PostgreSQL and into SQLite: the same counts, the same
/// daily metrics field for field, the same feeds (anchors 1…n), and a second import
/// recognised without being read.
@Suite(.enabled(if: PostgresTestDatabase.url != nil, "needs HEALTHPIPE_TEST_POSTGRES_URL"))
struct PostgresImportTests {
    @Test func aGeneratedExportGivesTheSameDaysAsSQLite() async throws {
        let export = try await GeneratedStores.generated(days: 45, seed: 11, start: "2024-03-01", heartRatePerHour: 6)
        defer { try? FileManager.default.removeItem(at: export.deletingLastPathComponent()) }
        let sqlite = try HealthDatabase(path: export.deletingLastPathComponent().appendingPathComponent("h.sqlite").path)
        let expected = try await HealthImporter(database: sqlite).run(path: export.path)
        let test = try await PostgresTestDatabase.make("import")
        let store = test.database.store(for: "generated")
        let summary = try await HealthImporter(store: store).run(path: export.path)
        #expect(summary.added == expected.added && summary.duplicates == expected.duplicates)
        #expect(summary.addedByType == expected.addedByType)
        #expect(summary.recordsRead == expected.recordsRead && summary.totalAdded > 10_000)
        #expect(summary.added[.workout] ?? 0 > 0)

        let zone = TimeZone(identifier: "America/Los_Angeles")!
        var configuration = DailyNormalizer.Configuration()
        configuration.homeZone = zone
        configuration.version = .v2
        let first = LocalDate("2024-02-28")!
        let last = LocalDate("2024-04-16")!
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let fromSQLite = try await DailyNormalizer(store: sqlite.store, configuration: configuration, now: { now })
            .metrics(from: first, through: last)
        let fromPostgres = try await DailyNormalizer(store: store, configuration: configuration, now: { now })
            .metrics(from: first, through: last)
        #expect(fromPostgres == fromSQLite)
        #expect(fromSQLite.count == 49 && fromSQLite.filter { $0.stepsNormalized != nil }.count >= 44)
        let everything = DateInterval(start: Date(timeIntervalSince1970: 1_700_000_000), duration: 86400 * 365)
        let routes = try await store.workoutRoutes(overlapping: everything, maxPoints: 50)
        #expect(routes == (try await sqlite.store.workoutRoutes(overlapping: everything, maxPoints: 50)))
        #expect(try await store.sampleInventory() == (try await sqlite.store.sampleInventory()))
        // The same feeds, in the same order; one import's anchors without gaps: a duplicate
        // inside it (a copy of a record, a correlation's member stored already as a record of
        // its own) takes none. (SQLite's AUTOINCREMENT may count a skipped duplicate.)
        #expect(try await store.latestAnchor() == QueryAnchor(Int64(summary.addedByType.values.reduce(0, +))))
        for type in [SampleType.bloodPressureSystolic, .heartRate, .stepCount] {
            let feed = try await store.changes(of: type, since: .initial, limit: 100_000).samples
            #expect(feed == (try await sqlite.store.changes(of: type, since: .initial, limit: 100_000).samples), "\(type)")
        }

        let again = try await HealthImporter(store: store).run(path: export.path)
        #expect(again.alreadyImported?.recordsAdded == summary.totalAdded)
        await test.close()
    }
}

import Foundation
import HealthCore
import HealthSynth
import HealthTestSupport
import HealthWire
import PostgresNIO
import Testing

@testable import HealthPostgres
@testable import HealthServerRecords
@testable import HealthServerStorage

/// Issue 37 §2: a PostgreSQL write of samples that are all new is one statement
/// (`health_add_new_samples`), which must store exactly what the writer stores — the same
/// rows, anchors, longest durations, dirty spans and name uses — and write nothing whenever
/// the writer's identity rules have something to decide.
@Suite(.enabled(if: PostgresTestDatabase.url != nil, "needs HEALTHPIPE_TEST_POSTGRES_URL"))
struct I37OneStatementWriteTests {
    static let t0 = Date(timeIntervalSince1970: 1_717_200_000)

    static func steps(_ minute: Int, _ value: Double, uuid: UUID? = UUID(), source: String = "Phone") -> HealthRecord {
        let start = t0.addingTimeInterval(Double(minute) * 60)
        return .sample(
            Sample(
                type: .stepCount, start: start, end: start + 60 * Double(1 + minute % 4), value: .quantity(value, unit: "count"),
                source: Source(name: source, version: "17.1"),
                device: minute % 3 == 0 ? Device(name: "Apple Watch", hardware: "Watch6,1") : nil,
                metadata: minute % 2 == 0 ? [MetadataEntry(key: "HKTimeZone", value: "Europe/Paris")] : [],
                utcOffsetSeconds: 7200, uuid: uuid))
    }

    static func workout(_ minute: Int, uuid: UUID? = UUID()) -> HealthRecord {
        let start = t0.addingTimeInterval(Double(minute) * 60)
        return .workout(
            Workout(
                activityType: "HKWorkoutActivityTypeRunning", start: start, end: start + 1800, duration: 30,
                durationUnit: "min", source: Source(name: "Watch"), utcOffsetSeconds: 7200,
                statistics: [WorkoutStatistic(type: .heartRate, average: 151.5, unit: "count/min")], uuid: uuid))
    }

    /// Everything stored of `user` but their id, as text: samples, tombstones, longest
    /// durations, last anchor, dirty spans, name uses.
    static func stored(_ test: PostgresTestDatabase, _ user: String) async throws -> [String] {
        var lines: [String] = []
        for table in [
            "(to_jsonb(s) - 'user_id')::text FROM health_sample s WHERE user_id = $1 ORDER BY anchor",
            "(to_jsonb(t) - 'user_id')::text FROM health_tombstone t WHERE user_id = $1 ORDER BY anchor",
            "type_id || ' ' || max_duration FROM health_type_span WHERE user_id = $1 ORDER BY type_id",
            "'last ' || last_anchor FROM health_store WHERE user_id = $1",
            "start || ' ' || \"end\" || ' ' || coalesce(zone, '-') FROM health_dirty_span WHERE user_id = $1 ORDER BY id",
            "'source ' || source_id FROM health_source_user WHERE user_id = $1 ORDER BY source_id",
            "'device ' || device_id FROM health_device_user WHERE user_id = $1 ORDER BY device_id",
        ] {
            let query = PostgresQuery(unsafeSQL: "SELECT " + table, binds: PostgresBindings(texts: user))
            for try await line in try await test.pool.client.query(query, logger: test.pool.logger).decode(String.self) {
                lines.append(line)
            }
        }
        return lines
    }

    /// `writes` applied by the writer alone (``UserHealthStore/apply(_:check:)`` without its
    /// one-statement path), as the reference.
    static func applyWithTheWriter(_ writes: [HealthWrite], to store: PostgresHealthStore) async throws -> HealthWriteReport {
        try await store.write { writer in
            var report = HealthWriteReport()
            for write in writes {
                switch write {
                case .records(let records): try await writer.write(records)
                case .delete(let uuids, _): report.deletions.append(try await writer.delete(uuids: uuids))
                default: break
                }
            }
            try await writer.flush()
            report.added = writer.added.values.reduce(0, +)
            report.duplicates = writer.duplicates.values.reduce(0, +)
            if let zone = HealthWrite.dirtyZone(writes) {
                try await writer.markDirty(
                    HealthWrite.touched(writes, deletions: report.deletions) + writer.replacedSpans, zone: zone)
            }
            return report
        }
    }

    @Test func i37_newSamplesAreWrittenInOneStatementAsTheWriterWritesThem() async throws {
        let test = try await PostgresTestDatabase.make("onestatement")
        let (fast, slow) = (test.database.store(for: "fast"), test.database.store(for: "slow"))
        // The names are interned by a first write (the one statement takes cached names only).
        let first: [HealthRecord] = [Self.steps(0, 10), Self.steps(3, 11), Self.workout(10)]
        for store in [fast, slow] { _ = try await store.apply([.records(first), .markDirty(zone: "Europe/Paris")]) }
        let batch: [HealthRecord] =
            (1...40).map { Self.steps(100 + $0, Double($0) + 0.25, uuid: $0 % 4 == 0 ? nil : UUID()) } + [Self.workout(300)]
        let intervals = HealthWrite.touched([.records(batch)], deletions: [])
        #expect(try await fast.addNewSamples(batch, dirty: (intervals, "Europe/Paris"), guard: nil) == 41)
        let reference = try await Self.applyWithTheWriter([.records(batch), .markDirty(zone: "Europe/Paris")], to: slow)
        #expect(reference.added == 41)
        let (stored, expected) = (try await Self.stored(test, "fast"), try await Self.stored(test, "slow"))
        #expect(stored.count > 44)
        #expect(stored == expected)
        await test.close()
    }

    @Test func i37_aBatchTheWriterMustDecideWritesNothingInOneStatement() async throws {
        let test = try await PostgresTestDatabase.make("onestatementno")
        let store = test.database.store(for: "u")
        let kept = UUID()
        let deleted = UUID()
        let twice = UUID()
        _ = try await store.apply([
            .records([Self.steps(0, 10, uuid: kept), Self.steps(1, 11, uuid: deleted), Self.steps(2, 12, uuid: nil)])
        ])
        _ = try await store.apply([.delete([deleted])])
        let before = try await Self.stored(test, "u")
        let cases: [(String, [HealthRecord])] = [
            ("a stored UUID with other content", [Self.steps(5, 99, uuid: kept)]),
            ("a stored content without a UUID", [Self.steps(2, 12, uuid: nil)]),
            ("a deleted UUID", [Self.steps(6, 13, uuid: deleted)]),
            ("two alike", [Self.steps(7, 14, uuid: nil), Self.steps(7, 14, uuid: nil)]),
            ("one UUID twice", [Self.steps(8, 1, uuid: twice), Self.steps(9, 2, uuid: twice)]),
            ("a name never stored", [Self.steps(10, 15, source: "Scale")]),
            (
                "a correlation",
                [.correlation(Correlation(type: .bloodPressure, start: Self.t0, end: Self.t0, source: Source(name: "Phone")))]
            ),
            ("nothing", []),
        ]
        for (name, records) in cases {
            let written = try await store.addNewSamples(records, dirty: nil, guard: nil)
            #expect(written == nil, "\(name)")
            #expect(try await Self.stored(test, "u") == before, "\(name)")
        }
        // A guard that changes no row refuses the batch; one that does lets it through.
        let refused = PostgresWriteGuard(sql: "SELECT 1 WHERE $1[1] = 'yes'", arguments: ["no"])
        await #expect(throws: PostgresWriteGuardRefused.self) {
            _ = try await store.addNewSamples([Self.steps(20, 1)], dirty: nil, guard: refused)
        }
        #expect(try await Self.stored(test, "u") == before)
        let passed = PostgresWriteGuard(sql: "SELECT 1 WHERE $1[1] = 'yes'", arguments: ["yes"])
        #expect(try await store.addNewSamples([Self.steps(20, 1)], dirty: nil, guard: passed) == 1)
        await test.close()
    }

    /// Random batches — new samples, samples sent again, a UUID with new content, content
    /// without UUIDs, workouts, deletions, a UUID named as another type — applied through
    /// the server's path and by the writer alone give the same answers and the same rows.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func i37_randomBatchesStoreTheSameThroughBothPaths(seed: UInt64) async throws {
        let test = try await PostgresTestDatabase.make("onestatementrandom")
        let (fast, slow) = (test.database.store(for: "fast"), test.database.store(for: "slow"))
        var random = SplitMix(seed: seed)
        var sent: [HealthRecord] = []
        for round in 0..<40 {
            var writes: [HealthWrite] = [.markDirty(zone: round % 5 == 0 ? nil : "Europe/Paris")]
            var records: [HealthRecord] = []
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let minute = Int.random(in: 0..<2000, using: &random)
                switch Int.random(in: 0..<10, using: &random) {
                case 0 where !sent.isEmpty: records.append(sent.randomElement(using: &random)!)
                case 1 where !sent.isEmpty:
                    if case .sample(var sample) = sent.randomElement(using: &random)!, sample.givenUUID != nil {
                        sample.value = .quantity(Double(minute), unit: "count")
                        records.append(.sample(sample))
                    }
                case 2: records.append(Self.steps(minute % 50, 7, uuid: nil))
                case 3: records.append(Self.workout(minute))
                case 4 where !sent.isEmpty:
                    if case .sample(var sample) = sent.randomElement(using: &random)!, sample.givenUUID != nil {
                        sample.type = .heartRate
                        records.append(.sample(sample))
                    }
                default: records.append(Self.steps(minute, Double(minute % 97), source: minute % 7 == 0 ? "Watch" : "Phone"))
                }
            }
            writes.append(.records(records))
            if round % 6 == 5, let victim = sent.randomElement(using: &random)?.uuid {
                writes.append(.delete([victim, UUID()]))
            }
            sent += records
            let answers = try await [true, false].asyncMap { server in
                do {
                    let report =
                        server ? try await fast.apply(writes) : try await Self.applyWithTheWriter(writes, to: slow)
                    return
                        "added \(report.added) duplicates \(report.duplicates) deleted \(report.deletions.map(\.deleted.count))"
                } catch let error as SampleIdentityError {
                    return "refused \(error.description)"
                }
            }
            #expect(answers[0] == answers[1], "round \(round)")
            #expect(try await Self.stored(test, "fast") == (try await Self.stored(test, "slow")), "round \(round)")
        }
        #expect(try await Self.stored(test, "fast").count > 100)
        await test.close()
    }

    /// Two servers writing one person's batches at once, half of each batch also in the
    /// other's: every sample stored once, anchors one after another, every record counted
    /// once as added and once as a duplicate.
    @Test func i37_concurrentBatchesOfOnePersonStoreEachSampleOnce() async throws {
        let test = try await PostgresTestDatabase.make("onestatementrace")
        let other = try await test.another()
        _ = try await test.database.store(for: "u").apply([.records([Self.steps(0, 1)])])
        let shared = (0..<60).map { Self.steps(1000 + $0, 5) }
        let counts = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for (index, database) in [test.database, other.database].enumerated() {
                group.addTask {
                    var (added, duplicates) = (0, 0)
                    for round in 0..<30 {
                        let own = (0..<3).map { Self.steps(10 + index * 500 + round * 3 + $0, 3) }
                        let report = try await database.store(for: "u").apply([
                            .records(own + shared[(round * 2)..<(round * 2 + 2)]), .markDirty(zone: "UTC"),
                        ])
                        added += report.added
                        duplicates += report.duplicates
                    }
                    return (added, duplicates)
                }
            }
            return try await group.reduce(into: [(Int, Int)]()) { $0.append($1) }
        }
        let added: Int = counts.map(\.0).reduce(0, +)
        let duplicates: Int = counts.map(\.1).reduce(0, +)
        #expect(added == 240)
        #expect(duplicates == 60)
        let rows = try await test.pool.client.query(
            "SELECT count(*), count(DISTINCT anchor), max(anchor) FROM health_sample WHERE user_id = 'u'",
            logger: test.pool.logger
        ).collect()
        let (count, anchors, last) = try rows[0].decode((Int, Int, Int64).self)
        #expect(count == 241)
        #expect(anchors == count)
        #expect(try await test.database.store(for: "u").latestAnchor() == QueryAnchor(last))
        await other.close(drop: false)
        await test.close()
    }

    /// A sync batch's sequence goes with its rows: advanced in the one statement exactly as
    /// the writer advances it (its batch and instant), accepted again for the same batch sent
    /// again (whose rows are then duplicates, for the writer), and a taken sequence refuses
    /// the batch with nothing written.
    @Test func i37_aSyncBatchsSequenceIsAdvancedWithItsRowsOrRefusesThem() async throws {
        guard ServerBackend.postgresURL != nil else { return }
        let harness = try await ServerHarness(.postgres)
        defer { harness.cleanUp() }
        let alice = try #require(try await harness.store.authenticate(BearerToken(harness.tokens["alice"]!)!))
        let device = SyncDevice(id: UUID().uuidString.lowercased(), userID: alice.id, name: "Phone", createdAt: Date())
        try await harness.repositories.devices.addDevice(device, key: SyncKey.generate())
        let store = try await harness.repositories.readableStore(alice.id)
        // The names interned first (the one statement takes cached names only).
        _ = try await store.apply([.records([Self.steps(0, 1)])])
        let (batch, at) = (UUID(), Date(timeIntervalSince1970: 1_764_213_456.123_456_7))
        let records = (1...5).map { Self.steps($0, 2) }
        let sequence = HealthWrite.advanceSequence(deviceID: device.id, sequence: 1, batchID: batch, at: at)
        let first = try await store.apply([sequence, .records(records), .markDirty(zone: "UTC")])
        #expect(first.added == 5 && first.sequenceAdvanced == true)
        let advanced = try await harness.repositories.devices.device(id: device.id)
        #expect(advanced?.lastSequence == 1 && advanced?.lastBatchID == batch && advanced?.lastBatchAt == at)
        let again = try await store.apply([sequence, .records(records), .markDirty(zone: "UTC")])
        #expect(again.added == 0 && again.duplicates == 5 && again.sequenceAdvanced == true)
        let before = try await harness.repositories.devices.device(id: device.id)
        let taken = HealthWrite.advanceSequence(deviceID: device.id, sequence: 1, batchID: UUID(), at: Date())
        await #expect(throws: SequenceRefused.self) {
            _ = try await store.apply([taken, .records([Self.steps(50, 3)]), .markDirty(zone: "UTC")])
        }
        #expect(try await harness.repositories.devices.device(id: device.id)?.lastBatchID == before?.lastBatchID)
        #expect(try await store.queries.changes(of: .stepCount, since: .initial, limit: 100).changes.count == 6)
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}

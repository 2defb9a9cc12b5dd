import Foundation
import HealthCore
import HealthImport
import HealthSQLite
import Testing

/// Observers (`HKObserverQuery`'s analogue): one notice per committed write, in this process
/// and from another process writing the same file.
@Suite struct ObservationTests {
    static let t0 = Date(timeIntervalSince1970: 1_720_000_000)

    static func steps(_ minute: Int, _ value: Double) -> Sample {
        Sample(
            type: .stepCount, start: t0 + Double(minute * 60), end: t0 + Double(minute * 60 + 60),
            value: .quantity(value, unit: "count"), source: Source(name: "Phone"))
    }

    static let pulse = Sample(
        type: .heartRate, start: t0, end: t0, value: .quantity(60, unit: "count/min"), source: Source(name: "Watch"))

    @Test func eachCommittedImportAndDeletionIsSeenOnce() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        let all = database.observe(nil)
        let heartOnly = database.observe([.heartRate])
        var notices = all.makeAsyncIterator()

        // An import: one transaction, one notice naming the types it wrote.
        try await Fixtures.importExport(Fixtures.path("alxdrcirilo-apple-health-parser/export.xml"), into: database)
        let imported = try #require(await notices.next())
        #expect(imported.types == Set(try database.sampleCountsByType().keys.map(SampleType.init)))
        #expect(imported.lastAnchor == (try database.lastAnchor()))

        // A duplicate write changes nothing and tells nobody; a real one tells once.
        try await database.store.add([Self.steps(0, 5)])
        let added = try #require(await notices.next())
        #expect(added.types == [.stepCount])
        try await database.store.add([Self.steps(0, 5)])
        let report = try await database.store.delete(uuids: [Self.steps(0, 5).uuid])
        #expect(report.deleted.count == 1)
        let deleted = try #require(await notices.next())
        #expect(deleted.types == [.stepCount] && deleted.lastAnchor > added.lastAnchor)
        // Nothing else is pending: the next notice is the next write's alone.
        try await database.store.add([Self.pulse])
        #expect(try #require(await notices.next()).types == [.heartRate])

        // The heart-rate observer heard of the import and of the pulse, as one notice (it
        // took none in between), and of nothing else.
        var heart = heartOnly.makeAsyncIterator()
        let heartNotice = try #require(await heart.next())
        let last = try database.lastAnchor()
        #expect(heartNotice.types == [.heartRate] && heartNotice.lastAnchor == last)
        all.finish()
        #expect(await notices.next() == nil)
    }

    /// A slow observer never holds a writer up: notices it has not taken merge into one.
    @Test func aSlowObserverGetsOneMergedNotice() async throws {
        let store = InMemoryHealthStore()
        let notices = store.observe(nil)
        for minute in 0..<50 { try await store.add([Self.steps(minute, 1)]) }
        try await store.add([Self.pulse])
        var iterator = notices.makeAsyncIterator()
        let merged = try #require(await iterator.next())
        #expect(merged.types == [.stepCount, .heartRate])
        #expect(merged.lastAnchor == QueryAnchor(51))
        try await store.add([Self.steps(99, 1)])
        #expect(try #require(await iterator.next()) == ChangeNotice(types: [.stepCount], lastAnchor: QueryAnchor(52)))
    }

    /// Another process (Python's sqlite3) commits a sample to the same file: observers here
    /// hear of each commit, with its type and the new last anchor. (How fast: the timing
    /// suite below, run alone.)
    @Test func anotherProcessWritingTheFileIsNoticed() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let latencies = try await Self.crossProcessRounds(in: folder)
        #expect(latencies.count == 10)
    }

    /// Ten rounds of another process committing a step sample and the notice arriving here;
    /// returns the seconds from each commit to its notice.
    static func crossProcessRounds(in folder: URL) async throws -> [Double] {
        let database = try Fixtures.database(in: folder)
        try await database.store.add([Self.steps(0, 5), Self.pulse])
        let notices = database.observe([.stepCount])
        var iterator = notices.makeAsyncIterator()
        try await Task.sleep(for: .milliseconds(200))  // the watcher has looked once
        var latencies: [Double] = []
        for round in 1...10 {
            let committedAt = try Self.pythonInsertsASample(into: database.path, minute: round)
            let notice = try #require(await iterator.next())
            latencies.append(Date().timeIntervalSince1970 - committedAt)
            #expect(notice.types == [.stepCount])
            #expect(notice.lastAnchor == (try database.lastAnchor()))
        }
        // The samples another process wrote read back like any other.
        #expect(try await database.store.changes(of: .stepCount, since: .initial, limit: 100).samples.count == 11)
        return latencies
    }

    /// Inserts a step sample with Python's sqlite3 and returns the instant of its commit.
    static func pythonInsertsASample(into path: String, minute: Int) throws -> Double {
        let script = """
            import sqlite3, sys, time, os
            db = sqlite3.connect(sys.argv[1], timeout=10)
            db.execute('''INSERT INTO sample (anchor, type_id, start, end, value, unit, source_id, content_key)
                VALUES ((SELECT max(coalesce((SELECT max(anchor) FROM sample), 0),
                                    coalesce((SELECT max(anchor) FROM tombstone), 0)) + 1),
                        (SELECT id FROM sample_type WHERE identifier = 'HKQuantityTypeIdentifierStepCount'),
                        ?, ?, 7, 'count', (SELECT id FROM source LIMIT 1), ?)''',
                (float(sys.argv[2]), float(sys.argv[2]) + 60, os.urandom(16)))
            db.commit()
            print(time.time())
            """
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, path, String(t0.timeIntervalSince1970 + Double(minute * 60))]
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return try #require(Double(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
}

/// How soon another process's commit is noticed: a latency only means something on an
/// otherwise idle machine, so this runs when `HEALTHPIPE_TIMING_TESTS=1` (`.ci/run` runs
/// it alone, after the suite). The figures go to docs/store.md §Observation.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["HEALTHPIPE_TIMING_TESTS"] == "1", "timing: run alone"))
struct ObservationTimingTests {
    @Test func anotherProcessIsNoticedWithinAFewPolls() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sorted = try await ObservationTests.crossProcessRounds(in: folder).sorted()
        print("cross-process notice latency: median \(Int(sorted[5] * 1000)) ms, max \(Int(sorted[9] * 1000)) ms")
        #expect(sorted[9] < 0.25)  // the poll is every 50 ms
    }
}

import Foundation
import GRDB
import HealthCore
import HealthSQLite
import Testing

/// Issue 37 §3: the server's point reads run on the calling thread through connections of
/// their own (`PointReads`), which never make a thread wait: they see every commit, answer
/// `nil` (the caller reads through its pool) when all are busy or closed.
@Suite struct I37PointReadsTests {
    static func database() throws -> (DatabasePool, String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("point-reads-\(UUID().uuidString).sqlite").path
        let pool = try DatabasePool(path: path)
        try pool.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
            try db.execute(sql: "INSERT INTO t (v) VALUES ('first')")
        }
        return (pool, path)
    }

    static func count(_ db: Database) throws -> Int { try Int.fetchOne(db, sql: "SELECT count(*) FROM t") ?? -1 }

    @Test func i37_pointReadsSeeEveryCommitAndReuseTheirConnections() throws {
        let (pool, path) = try Self.database()
        defer { try? pool.close() }
        let reads = PointReads(path: path, limit: 2)
        defer { reads.close() }
        #expect(try reads.read(Self.count) == 1)
        for n in 2...50 {
            try pool.write { db in try db.execute(sql: "INSERT INTO t (v) VALUES ('more')") }
            #expect(try reads.read(Self.count) == n)
        }
        // A read-only connection: a write through it fails and the connection stays usable.
        #expect(throws: DatabaseError.self) { try reads.read { db in try db.execute(sql: "DELETE FROM t") } }
        #expect(try reads.read(Self.count) == 50)
    }

    @Test func i37_whenEveryConnectionIsBusyAReadAnswersNilAtOnce() throws {
        let (pool, path) = try Self.database()
        defer { try? pool.close() }
        let reads = PointReads(path: path, limit: 2)
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for _ in 0..<2 {
            done.enter()
            Thread {
                _ = try? reads.read { db -> Int in
                    inside.signal()
                    release.wait()
                    return try Self.count(db)
                }
                done.leave()
            }.start()
        }
        inside.wait()
        inside.wait()
        let started = Date()
        #expect(try reads.read(Self.count) == nil)
        #expect(Date().timeIntervalSince(started) < 1)
        release.signal()
        release.signal()
        done.wait()
        #expect(try reads.read(Self.count) == 1)
        reads.close()
        #expect(try reads.read(Self.count) == nil)
    }

    @Test func i37_manyConcurrentReadersNeverWait() async throws {
        // More tasks than connections, each reading many times: every read either answers
        // from a connection or says none was idle; none blocks, and the answers are right.
        let (pool, path) = try Self.database()
        defer { try? pool.close() }
        let reads = PointReads(path: path, limit: 3)
        defer { reads.close() }
        let (answered, declined) = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for _ in 0..<16 {
                group.addTask {
                    var (answered, declined) = (0, 0)
                    for _ in 0..<200 {
                        if let count = try reads.read(Self.count) {
                            #expect(count == 1)
                            answered += 1
                        } else {
                            declined += 1
                        }
                    }
                    return (answered, declined)
                }
            }
            return try await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
        }
        #expect(answered + declined == 3_200)
        #expect(answered > 0)
    }

    /// Found attacking: a connection that cannot be opened (the file just removed by a
    /// person's deletion, no descriptor left) threw, and the request was a 500; the pool,
    /// whose connections are open already, must answer instead. A read-only open never
    /// creates the file.
    @Test func i37_aConnectionThatCannotOpenLeavesTheReadToThePool() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gone-\(UUID().uuidString).sqlite").path
        let reads = PointReads(path: path, limit: 2)
        #expect(try reads.read(Self.count) == nil)
        #expect(!FileManager.default.fileExists(atPath: path))
        // The failed open gave its place back: once the file is there, reads are served.
        let pool = try DatabasePool(path: path)
        defer { try? pool.close() }
        try pool.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)") }
        for _ in 0..<3 { #expect(try reads.read(Self.count) == 0) }
        reads.close()
    }
}

/// `HealthDatabase.copy(to:)` (used by `bench sync --scattered`, which changes a copy): the
/// copy holds every sample, and changing it leaves the original as it was.
@Suite struct I37StoreCopyTests {
    @Test func i37_aCopyHoldsTheStoreAndChangesApart() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = try Fixtures.database(in: folder)
        let start = Date(timeIntervalSince1970: 1_717_200_000)
        let samples = (0..<50).map { (minute: Int) -> Sample in
            let instant = start.addingTimeInterval(Double(minute) * 60)
            return Sample(
                type: .heartRate, start: instant, end: instant, value: .quantity(Double(60 + minute), unit: "count/min"),
                source: Source(name: "Watch"), uuid: UUID())
        }
        #expect(try await original.store.add(samples) == 50)
        let path = folder.appendingPathComponent("copy.sqlite").path
        try await original.copy(to: path)
        let copy = try HealthDatabase(path: path)
        #expect(try copy.sampleCountsByType() == original.sampleCountsByType())
        _ = try await copy.store.delete(uuids: samples.prefix(10).map { (sample: Sample) in sample.uuid })
        #expect(try copy.sampleCountsByType()["HKQuantityTypeIdentifierHeartRate"] == 40)
        #expect(try original.sampleCountsByType()["HKQuantityTypeIdentifierHeartRate"] == 50)
        // The path exists now: a second copy there is refused, the file untouched.
        await #expect(throws: (any Error).self) { try await original.copy(to: path) }
    }
}

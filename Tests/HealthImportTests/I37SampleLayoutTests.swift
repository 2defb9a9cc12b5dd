import Foundation
import GRDB
import HealthCore
import Testing

@testable import HealthSQLite

/// Issue 37 §1: samples in one index, (type_id, start, content_key), instead of a unique
/// index on the key beside (type_id, start) — and stores made before it keep working.
@Suite struct I37SampleLayoutTests {
    static let t0 = Date(timeIntervalSince1970: 1_710_000_000)

    /// A plain sample, one from before 1970 (its key's start second is negative), a
    /// correlation with a member, a workout and an audiogram: every family whose key the
    /// UUID lookups must find.
    static var records: [HealthRecord] {
        let source = Source(name: "Watch")
        let steps = Sample(
            type: .stepCount, start: t0, end: t0 + 60, value: .quantity(42, unit: "count"), source: source)
        let old = Sample(
            type: .bodyMass, start: Date(timeIntervalSince1970: -86_400.25), end: Date(timeIntervalSince1970: -86_400),
            value: .quantity(70, unit: "kg"), source: source)
        let systolic = Sample(
            type: .bloodPressureSystolic, start: t0 + 600, end: t0 + 600, value: .quantity(120, unit: "mmHg"),
            source: source)
        let pressure = Correlation(
            type: .bloodPressure, start: t0 + 600, end: t0 + 600, source: source, objects: [systolic])
        let workout = Workout(
            activityType: "HKWorkoutActivityTypeRunning", start: t0 + 3_600, end: t0 + 5_400, duration: 30,
            durationUnit: "min", source: source)
        let audiogram = Audiogram(
            sample: Sample(type: SampleType("HKDataTypeIdentifierAudiogram"), start: t0 + 7_200, end: t0 + 7_200, source: source),
            points: [])
        return [.sample(steps), .sample(old), .correlation(pressure), .workout(workout), .audiogram(audiogram)]
    }

    static func indexes(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'sample' ORDER BY name")
        }
    }

    /// Fails before v6: a new store had `sqlite_autoindex_sample_1` (the key) and
    /// `sample_type_start`.
    @Test func aNewStoreHasOneIndexForTypeStartAndKey() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        #expect(try Self.indexes(database.path) == ["sample_type_start_key", "sample_uuid"])
        try Self.checkIdentity(database)
    }

    /// A store that held samples before v6 keeps its two indexes (rebuilding its largest
    /// table on open would take minutes), and everything that finds a sample by its key
    /// works there as before: duplicates, correlation members, deletion by derived UUID.
    @Test func aStoreWithSamplesBeforeV6KeepsItsIndexes() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("old.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try HealthDatabase.migrator.migrate(queue, upTo: "v5")
        try queue.write { db in
            let writer = try RecordWriter(db: db)
            #expect(!writer.samplesKeyedByTypeAndStart)
            for record in Self.records.prefix(1) { try writer.write(record) }
            try writer.finish()
        }
        try queue.close()
        let database = try HealthDatabase(path: path)
        #expect(try Self.indexes(path) == ["sample_type_start", "sample_uuid", "sqlite_autoindex_sample_1"])
        try Self.checkIdentity(database, alreadyStored: 1)
    }

    /// A store at v5 whose samples were all deleted is rebuilt, and its next anchor still
    /// comes after every anchor it gave (a tombstone's included): anchors are never reused.
    @Test func anEmptiedStoreIsRebuiltWithItsAnchorsKept() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("emptied.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try HealthDatabase.migrator.migrate(queue, upTo: "v5")
        let tombstone = try queue.write { db -> Int64 in
            let writer = try RecordWriter(db: db)
            for record in Self.records { try writer.write(record) }
            let report = try writer.delete(uuids: Self.records.compactMap(\.uuid))
            #expect(report.unknown.isEmpty)
            try writer.finish()
            return try Int64.fetchOne(db, sql: "SELECT max(anchor) FROM tombstone") ?? 0
        }
        try queue.close()
        #expect(tombstone > 0)
        let database = try HealthDatabase(path: path)
        #expect(try Self.indexes(path) == ["sample_type_start_key", "sample_uuid"])
        try database.write { writer in _ = try writer.write(Self.records[0]) }
        let anchor = try DatabaseQueue(path: path).read { db in try Int64.fetchOne(db, sql: "SELECT max(anchor) FROM sample") }
        #expect(try #require(anchor) > tombstone)
    }

    /// Writes every record (the first `alreadyStored` are in the store already), writes them
    /// again (all duplicates), then deletes each by its UUID, derived from its key.
    static func checkIdentity(_ database: HealthDatabase, alreadyStored: Int = 0) throws {
        let records = Self.records
        let first = try database.write { writer in
            for record in records { try writer.write(record) }
            return writer.added.values.reduce(0, +)
        }
        #expect(first == records.count - alreadyStored)
        let again = try database.write { writer in
            for record in records { try writer.write(record) }
            return (writer.added.values.reduce(0, +), writer.duplicates.values.reduce(0, +))
        }
        #expect(again.0 == 0 && again.1 == records.count)
        // The correlation's member is linked once, to the stored sample.
        let members = try DatabaseQueue(path: database.path).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM correlation_member")
        }
        #expect(members == 1)
        let uuids = records.compactMap(\.uuid)
        #expect(uuids.count == records.count)
        let report = try database.write { writer in try writer.delete(uuids: uuids) }
        #expect(Set(report.deleted) == Set(uuids + [try #require(Self.memberUUID)]))
        #expect(report.unknown.isEmpty)
        #expect(try database.counts()["sample"] == 0)
        // Deleted: now unknown.
        #expect(try database.write { writer in try writer.delete(uuids: uuids) }.unknown.count == uuids.count)
    }

    static var memberUUID: UUID? {
        guard case .correlation(let correlation) = records[2] else { return nil }
        return correlation.objects.first?.uuid
    }
}

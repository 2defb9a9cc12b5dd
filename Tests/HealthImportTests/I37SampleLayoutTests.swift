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

    /// A store at `path` migrated only to v5 (a store made before the one index), written
    /// by `body` in one transaction, then closed.
    static func writtenAtV5<T>(_ path: String, _ body: (RecordWriter, Database) throws -> T) throws -> T {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try HealthDatabase.migrator.migrate(queue, upTo: "v5")
        return try queue.write { db in
            let writer = try RecordWriter(db: db)
            let result = try body(writer, db)
            try writer.finish()
            return result
        }
    }

    /// Fails before v6: a new store had `sqlite_autoindex_sample_1` (the key) and
    /// `sample_type_start`.
    @Test func aNewStoreHasOneIndexForTypeStartAndKey() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        #expect(try Self.indexes(database.path) == ["sample_key_unvalued", "sample_type_start_key", "sample_uuid"])
        try Self.checkIdentity(database)
    }

    /// A store that held samples before v6 keeps its two indexes (rebuilding its largest
    /// table on open would take minutes), and everything that finds a sample by its key
    /// works there as before: duplicates, correlation members, deletion by derived UUID.
    @Test func aStoreWithSamplesBeforeV6KeepsItsIndexes() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("old.sqlite").path
        try Self.writtenAtV5(path) { writer, _ in
            #expect(!writer.samplesKeyedByTypeAndStart)
            for record in Self.records.prefix(1) { try writer.write(record) }
        }
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
        let tombstone = try Self.writtenAtV5(path) { writer, db -> Int64 in
            for record in Self.records { try writer.write(record) }
            let report = try writer.delete(uuids: Self.records.compactMap(\.uuid))
            #expect(report.unknown.isEmpty)
            return try Int64.fetchOne(db, sql: "SELECT max(anchor) FROM tombstone") ?? 0
        }
        #expect(tombstone > 0)
        let database = try HealthDatabase(path: path)
        #expect(try Self.indexes(path) == ["sample_key_unvalued", "sample_type_start_key", "sample_uuid"])
        try database.write { writer in _ = try writer.write(Self.records[0]) }
        let anchor = try DatabaseQueue(path: path).read { db in try Int64.fetchOne(db, sql: "SELECT max(anchor) FROM sample") }
        #expect(try #require(anchor) > tombstone)
    }

    /// A key holds its start to the millisecond, the index the exact start. Copies whose
    /// starts differ within a millisecond (HealthKit's dates; a feed's sample sent back with
    /// its start rounded) are one sample, with or without a UUID, in a batch or one by one,
    /// whichever comes first. Fails without the twin check: two rows, one UUID (found by an
    /// attack on the first version of v6).
    @Test func copiesWithinAMillisecondAreOneSample() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func reading(_ offset: Double, uuid: UUID? = nil) -> Sample {
            Sample(
                type: .heartRate, start: Self.t0 + offset, end: Self.t0 + offset, value: .quantity(61, unit: "count/min"),
                source: Source(name: "Watch"), uuid: uuid)
        }
        let fine = reading(0.0001)
        #expect(fine.contentKey == reading(0).contentKey && fine.contentKey == reading(0.0004).contentKey)
        for order in [[0.0001, 0.0004, 0], [0, 0.0004, 0.0001]] {
            let database = try Fixtures.database(in: folder, name: "twins-\(order[0]).sqlite")
            // One by one, then again in a batch, then sent back under its derived UUID.
            let added = try database.write { writer in
                for offset in order { try writer.write(.sample(reading(offset))) }
                try writer.write(RecordWriter.prepare(order.map { .sample(reading($0)) }))
                try writer.write(.sample(reading(0, uuid: fine.uuid)))
                return (writer.added[.sample] ?? 0, writer.duplicates[.sample] ?? 0)
            }
            #expect(added.0 == 1 && added.1 == 6, "\(order)")
            #expect(try database.counts()["sample"] == 1)
            let report = try database.write { writer in try writer.delete(uuids: [fine.uuid]) }
            #expect(report.deleted == [fine.uuid])
            #expect(try database.counts()["sample"] == 0)
        }
        // Starts an attack found: a millisecond's text and the double 1 ns beside it (the
        // same key; the first check of "a whole millisecond" took both for whole ones).
        let database = try Fixtures.database(in: folder, name: "ulp.sqlite")
        let text = Date(timeIntervalSince1970: 1_705_924_248.426)
        let beside = Date(timeIntervalSince1970: 1_705_924_248.425_999_999)
        let pair = [text, beside].map { start in
            HealthRecord.sample(
                Sample(
                    type: SampleType("HKQuantityTypeIdentifierRespiratoryRate"), start: start, end: start,
                    value: .quantity(14, unit: "count/min"),
                    source: Source(name: "Phone")))
        }
        #expect(pair[0].contentKey == pair[1].contentKey)
        try database.write { writer in try writer.write(RecordWriter.prepare(pair)) }
        #expect(try database.counts()["sample"] == 1)
        // Whole seconds (every export), and starts that are not within a millisecond of one,
        // leave no second to look out for: their types' exports take the batch's statement.
        try database.write { writer in
            try writer.write(RecordWriter.prepare((0..<2_000).map { .sample(reading(Double($0) + ($0 % 2 == 0 ? 0 : 0.25))) }))
        }
        let noted = try DatabaseQueue(path: database.path).read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sample_near_second")
        }
        #expect(noted == 0)
    }

    /// A UUID no sample has — a new sample's, say, sent by a sync client — is looked for by
    /// index probes only, never a scan of a type's rows.
    @Test func anUnknownUUIDIsLookedForByIndexProbes() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        let plans = try DatabaseQueue(path: database.path).read { db in
            try [
                "SELECT anchor, type_id FROM sample WHERE content_key BETWEEN ? AND ? AND uuid IS NULL"
                    + " AND value IS NULL LIMIT 1",
                "SELECT anchor, type_id FROM sample WHERE content_key BETWEEN ? AND ? AND uuid IS NULL"
                    + " AND type_id = ? AND start >= ? AND start < ? LIMIT 1",
                "SELECT anchor FROM sample WHERE type_id = ? AND start BETWEEN ? AND ? AND content_key = ?",
            ].map { sql in
                try Row.fetchAll(
                    db, sql: "EXPLAIN QUERY PLAN " + sql,
                    arguments: StatementArguments(Array(repeating: 1, count: sql.filter { $0 == "?" }.count))
                ).map { $0["detail"] as String }
                    .joined(separator: "; ")
            }
        }
        #expect(plans[0].contains("USING INDEX sample_key_unvalued"), "\(plans[0])")
        #expect(plans[1].contains("sample_type_start_key (type_id=? AND start>? AND start<?)"), "\(plans[1])")
        #expect(plans[2].contains("sample_type_start_key (type_id=? AND start>? AND start<?)"), "\(plans[2])")
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
        #expect(report.unknown.isEmpty, "\(records.filter { report.unknown.contains($0.uuid!) }.map(\.family))")
        #expect(try database.counts()["sample"] == 0)
        // Deleted: now unknown.
        #expect(try database.write { writer in try writer.delete(uuids: uuids) }.unknown.count == uuids.count)
    }

    static var memberUUID: UUID? {
        guard case .correlation(let correlation) = records[2] else { return nil }
        return correlation.objects.first?.uuid
    }
}

import Foundation
import GRDB
import HealthCore
import HealthImport
import HealthSQLite
import HealthSynth
import Testing

/// Sample identity (derived and writer-given UUIDs) and deletions on the SQLite store.
@Suite struct IdentityAndDeletionTests {
    /// Every stored sample of `database`, read back through the change feed.
    static func allSamples(_ database: HealthDatabase) async throws -> [Sample] {
        var samples: [Sample] = []
        for identifier in try database.sampleCountsByType().keys.sorted() {
            let changes = try await database.store.changes(of: SampleType(identifier), since: .initial, limit: 10_000_000)
            samples += changes.samples
        }
        return samples
    }

    @Test func derivedUUIDsAreVersion8AndFindTheirKeys() throws {
        let key = ContentKey(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210)
        let uuid = key.uuid
        // Hand-laid: 48 key bits, version 8, 12 key bits, variant 10, the next 62 key bits.
        #expect(uuid.uuidString == "01234567-89AB-8CDE-BFFB-72EA61D950C8")
        let range = try #require(ContentKey.keyRange(of: uuid))
        #expect(range.contains(key) && range.lowerBound.uuid == uuid && range.upperBound.uuid == uuid)
        #expect(ContentKey(high: key.high, low: range.upperBound.low + 1).uuid != uuid)
        #expect(ContentKey.keyRange(of: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!) == nil)  // v4
    }

    /// Two generated exports whose days overlap, made at different offsets with different
    /// device addresses: every record they share has the same UUID in both stores, and a
    /// re-import changes no UUID.
    @Test func overlappingExportsAndReimportsGiveIdenticalUUIDs() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func export(_ name: String, start: String, days: Int) async throws -> String {
            try await Fixtures.overlappingExport(in: folder, name, start: start, days: days, heartRatePerHour: 2)
        }
        let older = try await export("older.zip", start: "2024-02-01", days: 25)
        let newer = try await export("newer.zip", start: "2024-02-15", days: 20)
        let olderStore = try Fixtures.database(in: folder, name: "older.sqlite")
        let newerStore = try Fixtures.database(in: folder, name: "newer.sqlite")
        try await Fixtures.importExport(older, into: olderStore)
        try await Fixtures.importExport(newer, into: newerStore)

        let olderUUIDs = Set(try await Self.allSamples(olderStore).map(\.uuid))
        let newerUUIDs = Set(try await Self.allSamples(newerStore).map(\.uuid))
        #expect(olderUUIDs.count == (try olderStore.counts()["sample"]!))  // unique in the store
        #expect(newerUUIDs.count == (try newerStore.counts()["sample"]!))
        // Shared records, counted independently by content key.
        let queue = try DatabaseQueue(path: folder.appendingPathComponent("newer.sqlite").path)
        let shared = try queue.inDatabase { db -> Int in
            try db.execute(sql: "ATTACH DATABASE ? AS old", arguments: [folder.appendingPathComponent("older.sqlite").path])
            return try Int.fetchOne(
                db, sql: "SELECT count(*) FROM main.sample WHERE content_key IN (SELECT content_key FROM old.sample)")!
        }
        #expect(shared > 1000)
        #expect(olderUUIDs.intersection(newerUUIDs).count == shared)
        #expect(olderUUIDs.allSatisfy { $0.uuidString.dropFirst(14).first == "8" })

        // A forced re-import of the newer export into the older store adds what is new; every
        // UUID the older store had stays, and the union is what both exports hold.
        try await Fixtures.importExport(newer, into: olderStore, force: true)
        let union = Set(try await Self.allSamples(olderStore).map(\.uuid))
        #expect(union == olderUUIDs.union(newerUUIDs))
    }

    /// Deleting a workout with a route, an HRV sample with beats and a blood-pressure
    /// correlation leaves no row of them in any table, and a tombstone for each.
    @Test func deletionCascadesTableByTable() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let export = folder.appendingPathComponent("export.zip")
        try await SyntheticExport(configuration: .init(days: 8, seed: 5)).write(to: export)
        let database = try Fixtures.database(in: folder)
        try await Fixtures.importExport(export.path, into: database)
        let queue = try DatabaseQueue(path: database.path)

        struct Victims {
            var workout: Int64
            var hrv: Int64
            var correlation: Int64
            var members: [Int64]
            var events: [Int64]
            var routes: [Int64]
        }
        let victims = try await queue.read { db in
            let workout = try Int64.fetchOne(
                db,
                sql: """
                    SELECT r.workout FROM workout_route r WHERE EXISTS (SELECT 1 FROM route_point p WHERE p.route = r.id)
                    ORDER BY (SELECT count(*) FROM workout_event e WHERE e.workout = r.workout) DESC LIMIT 1
                    """)!
            let correlation = try Int64.fetchOne(
                db,
                sql: """
                    SELECT s.anchor FROM sample s JOIN sample_type t ON t.id = s.type_id
                    WHERE t.identifier = 'HKCorrelationTypeIdentifierBloodPressure' LIMIT 1
                    """)!
            return Victims(
                workout: workout, hrv: try Int64.fetchOne(db, sql: "SELECT sample FROM hrv_beat LIMIT 1")!,
                correlation: correlation,
                members: try Int64.fetchAll(
                    db, sql: "SELECT member FROM correlation_member WHERE correlation = ?", arguments: [correlation]),
                events: try Int64.fetchAll(db, sql: "SELECT id FROM workout_event WHERE workout = ?", arguments: [workout]),
                routes: try Int64.fetchAll(db, sql: "SELECT id FROM workout_route WHERE workout = ?", arguments: [workout]))
        }
        #expect(victims.members.count == 2 && !victims.events.isEmpty && !victims.routes.isEmpty)
        let samples = [victims.workout, victims.hrv, victims.correlation] + victims.members
        let uuids = try await queue.read { db in
            try [victims.workout, victims.hrv, victims.correlation].map { anchor in
                let key = try Data.fetchOne(db, sql: "SELECT content_key FROM sample WHERE anchor = ?", arguments: [anchor])!
                return ContentKey(bytes: key)!.uuid
            }
        }
        let before = try database.counts()
        let report = try await database.store.delete(uuids: uuids + [uuids[0]])
        #expect(Array(report.deleted.prefix(3)) == uuids)
        #expect(report.deleted.count == 5)  // the correlation's two readings go with it
        #expect(report.unknown == [uuids[0]])  // deleted already: reported, nothing done

        func remaining(_ sql: String, _ ids: [Int64]) throws -> Int {
            let list = ids.map(String.init).joined(separator: ",")
            return try queue.read { db in try Int.fetchOne(db, sql: sql.replacingOccurrences(of: "$", with: list))! }
        }
        #expect(try remaining("SELECT count(*) FROM sample WHERE anchor IN ($)", samples) == 0)
        #expect(try remaining("SELECT count(*) FROM metadata WHERE owner_kind = 0 AND owner IN ($)", samples) == 0)
        #expect(try remaining("SELECT count(*) FROM metadata WHERE owner_kind = 1 AND owner IN ($)", victims.events) == 0)
        #expect(try remaining("SELECT count(*) FROM metadata WHERE owner_kind = 2 AND owner IN ($)", victims.routes) == 0)
        #expect(try remaining("SELECT count(*) FROM hrv_beat WHERE sample IN ($)", samples) == 0)
        #expect(
            try remaining("SELECT count(*) FROM correlation_member WHERE correlation IN ($) OR member IN ($)", samples) == 0)
        #expect(try remaining("SELECT count(*) FROM workout WHERE anchor IN ($)", samples) == 0)
        #expect(try remaining("SELECT count(*) FROM workout_event WHERE workout IN ($)", samples) == 0)
        #expect(try remaining("SELECT count(*) FROM workout_statistic WHERE workout IN ($)", samples) == 0)
        #expect(try remaining("SELECT count(*) FROM workout_route WHERE workout IN ($)", samples) == 0)
        #expect(try remaining("SELECT count(*) FROM route_point WHERE route IN ($)", victims.routes) == 0)
        #expect(try remaining("SELECT count(*) FROM tombstone WHERE anchor > 0", []) == 5)
        // Nothing else went: the tables lost exactly the rows of the five samples.
        let after = try database.counts()
        #expect(after["sample"] == before["sample"]! - 5)
        #expect(after["workout"] == before["workout"]! - 1)
        #expect(after["workout_route"] == before["workout_route"]! - victims.routes.count)
        #expect(after["hrv_beat"]! < before["hrv_beat"]! && after["route_point"]! < before["route_point"]!)

        // The feed reports each deletion once, after the additions.
        let feed = try await database.store.changes(of: .workout, since: .initial, limit: 1_000_000)
        #expect(feed.deletedObjects.map(\.uuid) == [uuids[0]])
        #expect(!feed.samples.contains { $0.uuid == uuids[0] })
    }

    /// A writer-given UUID is kept; the same UUID with other content replaces the sample;
    /// a deleted sample that arrives again is stored again under a new anchor.
    @Test func givenUUIDsAreKeptReplacedAndResent() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Fixtures.database(in: folder).store
        let t0 = Date(timeIntervalSince1970: 1_720_000_000)
        let id = UUID()
        func steps(_ value: Double, uuid: UUID? = id) -> Sample {
            Sample(
                type: .stepCount, start: t0, end: t0 + 60, value: .quantity(value, unit: "count"),
                source: Source(name: "Phone"), uuid: uuid)
        }
        #expect(try await store.add([steps(10)]) == 1)
        #expect(try await store.add([steps(10)]) == 0)  // the same again: a duplicate
        // Same content, another writer-given UUID: another sample (issue 32, M7: two glasses
        // of water in one minute are two), and sent again a duplicate.
        let other = UUID()
        #expect(try await store.add([steps(10, uuid: other)]) == 1)
        #expect(try await store.add([steps(10, uuid: other)]) == 0)
        #expect(try await store.delete(uuids: [other]).deleted == [other])
        var feed = try await store.changes(of: .stepCount, since: .initial, limit: 100)
        #expect(feed.samples.map(\.uuid) == [id])
        let first = feed.nextAnchor

        #expect(try await store.add([steps(12)]) == 1)  // same UUID, new content: replaces
        feed = try await store.changes(of: .stepCount, since: first, limit: 100)
        #expect(feed.deletedObjects.map(\.uuid) == [id])
        #expect(feed.samples.map(\.value.number) == [12])
        #expect(try await store.samples(of: .stepCount, overlapping: DateInterval(start: t0, duration: 60)).count == 1)

        #expect(try await store.delete(uuids: [id]).deleted == [id])
        #expect(try await store.add([steps(12)]) == 1)  // re-sent after its deletion: stored again
        feed = try await store.changes(of: .stepCount, since: .initial, limit: 100)
        // From the start: the two deletions (the replaced and the deleted row), then the
        // re-sent sample, in anchor order; the rows deleted are not listed as additions.
        #expect(feed.deletedObjects.map(\.uuid) == [other, id, id])
        #expect(feed.samples.map(\.uuid) == [id])
        #expect(feed.changes.last == .added(feed.samples[0], anchor: feed.nextAnchor))
        #expect(feed.changes.map(\.anchor) == feed.changes.map(\.anchor).sorted())
    }
}

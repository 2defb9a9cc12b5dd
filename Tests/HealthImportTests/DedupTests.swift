import Foundation
import GRDB
import HealthCore
import HealthImport
import HealthSQLite
import HealthSynth
import Testing

/// Idempotence: the same data is stored once, however often and in whatever export it comes.
@Suite struct DedupTests {
    @Test func reimportingTheSameFileIsRecognisedWithoutReading() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        let path = Fixtures.path("jshrake-healthkit-to-sqlite/export.zip")
        let first = try await Fixtures.importExport(path, into: database)
        let before = try Fixtures.snapshot(database)
        let second = try await Fixtures.importExport(path, into: database)
        #expect(second.alreadyImported?.recordsAdded == first.totalAdded)
        #expect(second.recordsRead == 0)
        #expect(second.elapsed < 1)
        #expect(try Fixtures.snapshot(database) == before)
    }

    @Test func forcedReimportAddsZeroRows() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        for path in ["opendroid-hk/sampleexport.xml", "rinoshiyo-apple-health-mcp-server/sample_export.xml"] {
            let first = try await Fixtures.importExport(Fixtures.path(path), into: database)
            var before = try Fixtures.snapshot(database)
            let again = try await Fixtures.importExport(Fixtures.path(path), into: database, force: true)
            #expect(again.totalAdded == 0)
            #expect(again.totalDuplicates == first.recordsRead)
            var after = try Fixtures.snapshot(database)
            before["import_run"] = nil
            after["import_run"] = nil
            #expect(after == before)
        }
    }

    @Test func correlationChildrenAreStoredOnce() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        try await Fixtures.importExport(Fixtures.path("rinoshiyo-apple-health-mcp-server/sample_export.xml"), into: database)
        let byType = try database.sampleCountsByType()
        #expect(byType["HKQuantityTypeIdentifierBloodPressureSystolic"] == 1)
        #expect(byType["HKQuantityTypeIdentifierBloodPressureDiastolic"] == 1)
        #expect(byType["HKCorrelationTypeIdentifierBloodPressure"] == 1)
        #expect(try database.counts()["correlation_member"] == 2)
    }

    @Test func theSameDataAsXMLAndAsFolderIsOneSetOfRecords() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        try await Fixtures.importExport(Fixtures.path("alxdrcirilo-apple-health-parser/export.zip"), into: database)
        let again = try await Fixtures.importExport(Fixtures.path("alxdrcirilo-apple-health-parser/export.xml"), into: database)
        #expect(again.totalAdded == 0 && again.totalDuplicates == 8)
    }

    /// Two generated exports of the same person whose days overlap, made at different
    /// offsets (PST and PDT) with different device addresses: the second adds exactly the
    /// records the first does not hold.
    @Test func overlappingExportsAddExactlyTheNewRecords() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func export(_ name: String, start: String, days: Int) async throws -> String {
            try await Fixtures.overlappingExport(in: folder, name, start: start, days: days, heartRatePerHour: 4)
        }
        let older = try await export("older.zip", start: "2024-01-20", days: 45)  // exported 2024-03-05, -0800
        let newer = try await export("newer.zip", start: "2024-02-15", days: 40)  // exported 2024-03-26, -0700
        let onlyOlder = try Fixtures.database(in: folder, name: "older.sqlite")
        let onlyNewer = try Fixtures.database(in: folder, name: "newer.sqlite")
        let both = try Fixtures.database(in: folder, name: "both.sqlite")
        try await Fixtures.importExport(older, into: onlyOlder)
        let newerAlone = try await Fixtures.importExport(newer, into: onlyNewer)
        try await Fixtures.importExport(older, into: both)
        let newerAfterOlder = try await Fixtures.importExport(newer, into: both)

        // What is new, computed independently: sample content keys of the newer store that
        // the older store lacks (workouts, correlations and members included), plus summaries.
        let queue = try DatabaseQueue(path: folder.appendingPathComponent("newer.sqlite").path)
        let expectedNew = try queue.inDatabase { db -> Int in
            try db.execute(sql: "ATTACH DATABASE ? AS old", arguments: [folder.appendingPathComponent("older.sqlite").path])
            let samples = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM main.sample WHERE content_key NOT IN (SELECT content_key FROM old.sample)")!
            let summaries = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM main.activity_summary WHERE date NOT IN (SELECT date FROM old.activity_summary)")!
            return samples + summaries
        }
        let addedSamples = newerAfterOlder.addedByType.values.reduce(0, +)
        #expect(addedSamples + (newerAfterOlder.added[.activitySummary] ?? 0) == expectedNew)
        // The overlap is real: most of the shared three weeks is recognised as known.
        #expect(newerAfterOlder.totalDuplicates > newerAlone.totalAdded / 3)
        #expect(newerAfterOlder.totalAdded < newerAlone.totalAdded * 2 / 3)
        let total = try both.counts()["sample"]!
        #expect(total == (try onlyOlder.counts()["sample"]!) + addedSamples)
    }
}

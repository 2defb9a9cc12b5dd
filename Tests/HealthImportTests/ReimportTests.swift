import Foundation
import GRDB
import HealthCore
import HealthImport
import HealthSQLite
import Testing

/// What a second import of related input must do (issue 14, defects 2 and 4): the newest
/// export wins for the per-day and per-person records, and an input is only skipped when
/// what would be imported is identical.
@Suite struct ReimportTests {
    /// A minimal export made on `exportDate`, with one activity summary for 2024-03-04 and
    /// the person's characteristics.
    static func export(exportDate: String, moveKcal: Int, birth: String, extra: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <ExportDate value="\(exportDate)"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth="\(birth)" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" startDate="2024-03-04 08:00:00 -0800" endDate="2024-03-04 08:10:00 -0800" value="120"/>
        \(extra) <ActivitySummary dateComponents="2024-03-04" activeEnergyBurned="\(moveKcal)" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="Cal" appleMoveTime="0" appleMoveTimeGoal="0" appleExerciseTime="12" appleExerciseTimeGoal="30" appleStandHours="8" appleStandHoursGoal="12"/>
        </HealthData>

        """
    }

    static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    static func storedSummary(_ database: HealthDatabase) throws -> (Double?, String?) {
        let queue = try DatabaseQueue(path: database.path)
        return try queue.read { db in
            let energy = try Double.fetchOne(db, sql: "SELECT active_energy_burned FROM activity_summary")
            let birth = try String.fetchOne(
                db, sql: "SELECT value FROM characteristic WHERE key = 'HKCharacteristicTypeIdentifierDateOfBirth'")
            return (energy, birth)
        }
    }

    /// Two exports of the same person: the newer saw the whole of 2024-03-04 (450 kcal),
    /// the older was made at noon that day (210 kcal), with another date of birth.
    static func newerAndOlder(in folder: URL) throws -> (newer: URL, older: URL) {
        let newer = folder.appendingPathComponent("newer.xml")
        let older = folder.appendingPathComponent("older.xml")
        try write(export(exportDate: "2024-03-06 09:00:00 -0800", moveKcal: 450, birth: "1985-01-02"), to: newer)
        try write(export(exportDate: "2024-03-04 12:00:00 -0800", moveKcal: 210, birth: "1985-01-01"), to: older)
        return (newer, older)
    }

    @Test func anOlderExportImportedLaterDoesNotOverwriteNewerData() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (newer, older) = try Self.newerAndOlder(in: folder)
        let database = try Fixtures.database(in: folder)
        try await Fixtures.importExport(newer.path, into: database)
        let second = try await Fixtures.importExport(older.path, into: database)
        #expect(try Self.storedSummary(database) == (450, "1985-01-02"))
        #expect(second.added[.activitySummary] == nil)
        #expect(second.updated[.activitySummary] == nil)
        #expect(second.duplicates[.activitySummary] == 1)
    }

    @Test func aNewerExportUpdatesTheDayAndSaysSo() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (newer, older) = try Self.newerAndOlder(in: folder)
        let database = try Fixtures.database(in: folder)
        try await Fixtures.importExport(older.path, into: database)
        #expect(try Self.storedSummary(database) == (210, "1985-01-01"))
        let second = try await Fixtures.importExport(newer.path, into: database)
        #expect(try Self.storedSummary(database) == (450, "1985-01-02"))
        #expect(second.updated[.activitySummary] == 1)
        #expect(second.added[.activitySummary] == nil)
        #expect(second.duplicates[.activitySummary] == nil)
        #expect(second.duplicates[.sample] == 1)
        // The same newer export again, forced: nothing changes, so nothing is an update.
        var options = HealthImporter.Options()
        options.force = true
        let third = try await HealthImporter(database: database, options: options).run(path: newer.path)
        #expect(third.updated.isEmpty)
        #expect(third.duplicates[.activitySummary] == 1)
    }

    @Test func aFolderWithANewECGFileIsImportedAgain() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let export = folder.appendingPathComponent("apple_health_export")
        try Self.write(
            Self.export(exportDate: "2024-03-06 09:00:00 -0800", moveKcal: 450, birth: "1985-01-02"),
            to: export.appendingPathComponent("export.xml"))
        let database = try Fixtures.database(in: folder)
        try await Fixtures.importExport(export.path, into: database)
        #expect(try database.counts()["electrocardiogram"] == 0)
        let ecg = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("rinoshiyo-apple-health-mcp-server/sample_ecg.csv")))
        try FileManager.default.createDirectory(
            at: export.appendingPathComponent("electrocardiograms"), withIntermediateDirectories: true)
        try ecg.write(to: export.appendingPathComponent("electrocardiograms/ecg_2024-03-05.csv"))
        let second = try await Fixtures.importExport(export.path, into: database)
        #expect(second.alreadyImported == nil)
        #expect(second.added[.electrocardiogram] == 1)
        #expect(try database.counts()["electrocardiogram"] == 1)
        // And now it is identical: the instant answer.
        let third = try await Fixtures.importExport(export.path, into: database)
        #expect(third.alreadyImported != nil)
        #expect(third.recordsRead == 0)
    }

    /// An export.xml larger than the old fingerprint's two 1 MiB windows, edited in the
    /// middle (same size, same head and tail) right after its import: imported again.
    @Test func anEditInTheMiddleOfALargeXMLIsImportedAgain() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let padding = (0..<14_000).map { index -> String in
            func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
            let time = "2024-03-03 \(two(index / 3600)):\(two(index / 60 % 60)):\(two(index % 60)) -0800"  // unique
            return """
                 <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" \
                startDate="\(time)" endDate="\(time)" value="\(60 + index % 40)"/>

                """
        }.joined()
        let text = Self.export(exportDate: "2024-03-06 09:00:00 -0800", moveKcal: 450, birth: "1985-01-02", extra: padding)
        #expect(text.utf8.count > 2 << 20)
        let xml = folder.appendingPathComponent("export.xml")
        try Self.write(text, to: xml)
        let database = try Fixtures.database(in: folder)
        try await Fixtures.importExport(xml.path, into: database)
        // Change one heart-rate value in the middle, keeping the size.
        var bytes = Array(text.utf8)
        let middle = bytes.count / 2
        let value = Array("value=\"".utf8)
        var at = middle
        while !bytes[at..<(at + value.count)].elementsEqual(value) { at += 1 }
        let digit = at + value.count
        bytes[digit] = bytes[digit] == UInt8(ascii: "9") ? UInt8(ascii: "8") : bytes[digit] + 1
        try Data(bytes).write(to: xml)
        let second = try await Fixtures.importExport(xml.path, into: database)
        #expect(second.alreadyImported == nil)
        #expect(second.added[.sample] == 1)
        let third = try await Fixtures.importExport(xml.path, into: database)
        #expect(third.alreadyImported != nil)
    }
}

import Foundation
import GRDB
import HealthCore
import HealthImport
import HealthImportReader
import HealthSQLite
import Testing

/// Issue 37 §1, the import made cheaper without changing what it stores: it writes without
/// SQLite's foreign-key checks (three parent look-ups per sample row), yet its rows refer
/// only to types, sources and devices that exist, and every other write — and every import
/// after a failed one — checks again; a device's part of a content key is encoded once per
/// device, and the keys stay those stores already hold.
@Suite struct I37ImportWriterTests {
    /// The content keys of `opendroid-hk/sampleexport.xml`'s samples in anchor order, the
    /// keys as the import stored them before 2026-11-27 (two of them with an Apple Watch): a
    /// store imported before must find the same records again on re-import. The workout
    /// (`BA94…`), whose route links to a file, takes its anchor where it stands in the file,
    /// before the HRV sample after it (it waited for the end of the export before 2026-11-27).
    static let storedKeys = [
        "677C80005E9B061AAF7B4BAE3A1E7993", "677C80005E99B5E3DD010846EE63BB84", "677C80005E97131F96E56FBEE720E4CF",
        "677C80005E963DACFCE70DE8A09A68C0", "BA94795ADF7F595B04986DF453D68982", "0AB480005FCD304870499669C307AFA4",
    ]

    @Test func i37_contentKeysWithDevicesAreTheKeysStoredBefore() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        try await Fixtures.importExport(Fixtures.path("opendroid-hk/sampleexport.xml"), into: database)
        let pool = try DatabasePool(path: folder.appendingPathComponent("health.sqlite").path)
        defer { try? pool.close() }
        let rows = try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT hex(content_key) AS key, device_id FROM sample ORDER BY anchor")
        }
        #expect(rows.map { $0["key"] as String } == Self.storedKeys)
        #expect(rows.compactMap { $0["device_id"] as Int64? }.count == 2)
    }

    @Test func i37_importedRowsReferToRowsThatExistAndTheChecksComeBack() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        #expect(try database.foreignKeyState() == (true, 0))
        for (path, _) in FixtureImportTests.expected {
            try await Fixtures.importExport(Fixtures.path(path), into: database)
            let state = try database.foreignKeyState()
            #expect(state == (true, 0), "\(path)")
        }
        let generated = try await Fixtures.overlappingExport(
            in: folder, "generated.xml", start: "2024-02-01", days: 30, heartRatePerHour: 6)
        let summary = try await Fixtures.importExport(generated, into: database)
        #expect(summary.totalAdded > 10_000)
        #expect(try database.foreignKeyState() == (true, 0))
        let sources = try database.counts()["source"] ?? 0
        #expect(sources >= 3)
    }

    @Test func i37_aFailedImportLeavesTheChecksOn() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        try await Fixtures.importExport(Fixtures.path("rinoshiyo-apple-health-mcp-server/sample_export.xml"), into: database)
        let before = try Fixtures.snapshot(database)
        let broken = folder.appendingPathComponent("broken.xml")
        let text = try String(contentsOfFile: Fixtures.path("opendroid-hk/sampleexport.xml"), encoding: .utf8)
        try Data(text.prefix(text.count * 2 / 3).utf8).write(to: broken)
        await #expect(throws: ImportError.self) { try await Fixtures.importExport(broken.path, into: database) }
        #expect(try Fixtures.snapshot(database) == before)
        #expect(try database.foreignKeyState() == (true, 0))
    }

    /// A run's writer looks a sample's type, source and device up again only when they are
    /// not bit for bit those of the sample before: every sample still gets its own, whether
    /// consecutive samples share them, differ in one, or have equal values built apart.
    @Test func i37_eachSampleOfARunKeepsItsOwnTypeSourceAndDevice() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let watch = Device(name: "Apple Watch", model: "Watch", hardware: "Watch6,1")
        let phone = Device(name: "iPhone", model: "iPhone", hardware: "iPhone14,2")
        let start = Date(timeIntervalSince1970: 1_704_067_200)
        var samples: [Sample] = []
        for index in 0..<200 {
            // Strings built anew for some samples: equal values, other storage.
            let name = index % 7 == 0 ? String("Jane’s Apple Watch".reversed().reversed()) : "Jane’s Apple Watch"
            let source = index % 5 == 3 ? Source(name: "Jane’s iPhone", version: "17.1") : Source(name: name, version: "10.1")
            let device: Device? = index % 11 == 0 ? nil : index % 3 == 0 ? phone : watch
            let type: SampleType = index % 13 < 9 ? .heartRate : .stepCount
            samples.append(
                Sample(
                    type: type, start: start.addingTimeInterval(Double(index) * 60),
                    end: start.addingTimeInterval(Double(index) * 60 + 30),
                    value: .quantity(Double(60 + index % 40), unit: type == .heartRate ? "count/min" : "count"),
                    source: source, device: device))
        }
        let database = try Fixtures.database(in: folder)
        let added = try database.write { writer in
            try writer.write(RecordWriter.prepare(samples.map { .sample($0) }))
            return writer.added[.sample]
        }
        #expect(added == 200)
        var stored: [Sample] = []
        for type in [SampleType.heartRate, .stepCount] {
            stored += try await database.store.changes(of: type, since: .initial, limit: 1000).samples
        }
        #expect(stored.count == 200)
        let byStart = Dictionary(uniqueKeysWithValues: stored.map { ($0.start, $0) })
        for sample in samples {
            let got = try #require(byStart[sample.start])
            #expect(got.type == sample.type && got.source == sample.source && got.device == sample.device, "\(sample.start)")
        }
        #expect(try database.counts()["source"] == 2 && database.counts()["device"] == 2)
    }
}

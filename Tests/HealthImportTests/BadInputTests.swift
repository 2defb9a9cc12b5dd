import Foundation
import HealthCore
import HealthImport
import HealthImportReader
import HealthSQLite
import Testing
import ZIPFoundation

/// Bad input fails with a message that names the file and the place, and leaves the store
/// exactly as it was.
@Suite struct BadInputTests {
    /// A store with some content, to check that failures leave it untouched.
    static func populatedStore(in folder: URL) async throws -> HealthDatabase {
        let database = try Fixtures.database(in: folder)
        try await Fixtures.importExport(Fixtures.path("rinoshiyo-apple-health-mcp-server/sample_export.xml"), into: database)
        return database
    }

    /// Adds `data` to `archive` under any name, unsafe ones included (ZIPFoundation writes
    /// names as given).
    static func add(_ data: Data, as name: String, to archive: Archive) throws {
        let data = Data(data)
        try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) {
            position, size in data.subdata(in: Int(position)..<Int(position) + size)
        }
    }

    static func expectFailure(
        _ path: String, into database: HealthDatabase, _ code: ImportError.Code, mentioning words: [String]
    ) async throws {
        let before = try Fixtures.snapshot(database)
        do {
            try await Fixtures.importExport(path, into: database)
            Issue.record("importing \(path) should fail")
        } catch let error as ImportError {
            #expect(error.code == code, "\(error.description)")
            for word in words { #expect(error.description.contains(word), "\(error.description) lacks \(word)") }
        }
        #expect(try Fixtures.snapshot(database) == before)
    }

    @Test func zipWhoseExportIsEmpty() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await Self.populatedStore(in: folder)
        try await Self.expectFailure(
            Fixtures.path("rinoshiyo-apple-health-mcp-server/adversarial/x4-3-multi-empty-xml.zip"), into: database, .notAnExport,
            mentioning: [
                "x4-3-multi-empty-xml.zip", "no Apple Health export", "empty XML entries: apple_health_export/export.xml",
            ])
    }

    @Test func zipWithTruncatedXML() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await Self.populatedStore(in: folder)
        try await Self.expectFailure(
            Fixtures.path("rinoshiyo-apple-health-mcp-server/adversarial/x4-7-broken-xml.zip"), into: database, .malformedXML,
            mentioning: ["x4-7-broken-xml.zip: apple_health_export/export.xml", "truncated", "line 1, byte 112", "record 1"])
    }

    /// Cutting a real export anywhere before its end must fail and change nothing.
    @Test func truncatedAtEveryOffset() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await Self.populatedStore(in: folder)
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("opendroid-hk/sampleexport.xml")))
        let end = try #require(data.range(of: Data("</HealthData>".utf8))).lowerBound
        let cut = folder.appendingPathComponent("cut.xml")
        for offset in stride(from: 3000, to: end, by: 1499) {
            try data.prefix(offset).write(to: cut)
            try await Self.expectFailure(cut.path, into: database, .malformedXML, mentioning: [cut.path, "line "])
        }
    }

    @Test func truncatedZipEntryReportsTheEntry() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await Self.populatedStore(in: folder)
        let xml = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("opendroid-hk/sampleexport.xml")))
        let zip = folder.appendingPathComponent("cut.zip")
        let archive = try Archive(url: zip, accessMode: .create)
        try Self.add(xml.prefix(xml.count - 5000), as: "apple_health_export/export.xml", to: archive)
        try await Self.expectFailure(
            zip.path, into: database, .malformedXML, mentioning: ["cut.zip: apple_health_export/export.xml", "truncated"])
    }

    /// A zip whose main XML is stored uncompressed and then changed by one byte: still
    /// well-formed XML, but its CRC-32 no longer matches, so it must not be imported.
    @Test func zipEntryWithAWrongChecksumIsRefused() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await Self.populatedStore(in: folder)
        let xml = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("opendroid-hk/sampleexport.xml")))
        let zip = folder.appendingPathComponent("flipped.zip")
        let archive = try Archive(url: zip, accessMode: .create)
        try archive.addEntry(
            with: "apple_health_export/export.xml", type: .file, uncompressedSize: Int64(xml.count), compressionMethod: .none
        ) { position, size in xml.subdata(in: Int(position)..<Int(position) + size) }
        var bytes = try Data(contentsOf: zip)
        let value = try #require(bytes.range(of: Data(#"value="2""#.utf8)))
        bytes[value.upperBound - 2] = UInt8(ascii: "3")
        try bytes.write(to: zip)
        try await Self.expectFailure(
            zip.path, into: database, .damagedEntry, mentioning: ["flipped.zip: apple_health_export/export.xml", "CRC-32"])
    }

    @Test func emptyFilesAndNonExports() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await Self.populatedStore(in: folder)
        let empty = folder.appendingPathComponent("empty.xml")
        try Data().write(to: empty)
        try await Self.expectFailure(empty.path, into: database, .empty, mentioning: ["empty.xml", "is empty"])
        let text = folder.appendingPathComponent("notes.xml")
        try Data("<notes><note/></notes>".utf8).write(to: text)
        try await Self.expectFailure(
            text.path, into: database, .notAnExport, mentioning: ["notes.xml", "not an Apple Health export"])
        let emptyZip = folder.appendingPathComponent("empty.zip")
        _ = try Archive(url: emptyZip, accessMode: .create)
        try await Self.expectFailure(emptyZip.path, into: database, .empty, mentioning: ["empty.zip", "empty zip"])
        try await Self.expectFailure(
            folder.appendingPathComponent("missing.zip").path, into: database, .notFound, mentioning: ["does not exist"])
    }

    @Test func wellFormedButWrongRecordsNameTheRecord() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await Self.populatedStore(in: folder)
        let bad = folder.appendingPathComponent("bad-date.xml")
        try Data(
            """
            <HealthData locale="en_US">
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="A" unit="count" value="1" startDate="2024-01-01 08:00:00 -0800" endDate="2024-01-01 08:01:00 -0800"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="A" unit="count" value="2" startDate="yesterday" endDate="2024-01-01 08:01:00 -0800"/>
            </HealthData>
            """.utf8
        ).write(to: bad)
        try await Self.expectFailure(
            bad.path, into: database, .invalidRecord, mentioning: ["bad-date.xml", "line 3", "record 2", "startDate"])
    }

    /// Inputs the fuzzer found (Fixtures/PROVENANCE.md): each fails at once with a message
    /// and changes nothing. The last one hung ZIPFoundation's reader forever.
    @Test(arguments: [
        ("zip-seek-past-end-1.zip", ImportError.Code.unreadableArchive, "central directory that lies outside"),
        ("zip-seek-past-end-2.zip", .unreadableArchive, "central directory that lies outside"),
        ("zip-deflate-past-its-end.zip", .damagedEntry, "route_2020-02-24_10.18am.gpx: the zip entry holds more"),
    ])
    func fuzzerFindingsFailCleanly(_ name: String, _ code: ImportError.Code, _ words: String) async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await Self.populatedStore(in: folder)
        let started = Date()
        try await Self.expectFailure(
            Fixtures.path("fuzz-regressions/\(name)"), into: database, code, mentioning: [name, words])
        // A hang detector (the inputs once hung for good), not a timing test: the whole suite
        // on two cores has taken 10.7 s for what takes well under a second alone.
        #expect(Date().timeIntervalSince(started) < 60)
    }

    @Test func zipSlipEntriesAreRefusedAndNothingIsWrittenOutside() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        let xml = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("AlekSi-applehealth/testdata.xml")))
        let zip = folder.appendingPathComponent("slip.zip")
        let archive = try Archive(url: zip, accessMode: .create)
        for name in [
            "apple_health_export/export.xml", "../evil.xml", "/tmp/evil-absolute.xml", "apple_health_export/../../evil2.xml",
        ] {
            try Self.add(xml, as: name, to: archive)
        }
        let summary = try await Fixtures.importExport(zip.path, into: database)
        #expect(
            summary.refusedEntries.sorted() == ["../evil.xml", "/tmp/evil-absolute.xml", "apple_health_export/../../evil2.xml"])
        #expect(try Fixtures.dataCounts(database)["sample"] == 2)
        #expect(
            !FileManager.default.fileExists(atPath: folder.deletingLastPathComponent().appendingPathComponent("evil.xml").path))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/evil-absolute.xml"))

        // An export whose only XML is an unsafe name is refused outright.
        let onlySlip = folder.appendingPathComponent("only-slip.zip")
        let second = try Archive(url: onlySlip, accessMode: .create)
        try Self.add(xml, as: "../export.xml", to: second)
        try await Self.expectFailure(
            onlySlip.path, into: database, .notAnExport, mentioning: ["refused unsafe entries: ../export.xml"])
    }
}

import Foundation
import HealthCore
import HealthImport
import HealthSQLite
import Testing
import ZIPFoundation

@testable import HealthImportReader

/// Finding L7 (issue 32): a zip bomb — a small upload whose entries inflate to gigabytes —
/// was inflated to the end. Now a read may cap the bytes a zip's entries inflate to: an
/// entry that would pass the cap is refused before it is inflated, and the bytes coming
/// out of zlib are counted as they are produced, so a read stops as soon as they pass it.
@Suite struct ZipBombTests {
    /// An export whose main XML holds one step record and then `padding` spaces: valid,
    /// and deflated some thousand times smaller.
    static func bomb(in folder: URL, padding: Int, name: String = "bomb.zip") throws -> URL {
        var xml = ZipArchiveTests.export
        let end = try #require(xml.range(of: Data("</HealthData>".utf8)))
        xml.replaceSubrange(end.lowerBound..<end.lowerBound, with: Data(repeating: 0x20, count: padding))
        let zip = folder.appendingPathComponent(name)
        let archive = try Archive(url: zip, accessMode: .create)
        try BadInputTests.add(xml, as: "apple_health_export/export.xml", to: archive)
        return zip
    }

    static func importing(_ path: String, into database: HealthDatabase, cap: Int64?) async throws -> ImportSummary {
        var options = HealthImporter.Options()
        options.maxInflatedBytes = cap
        return try await HealthImporter(database: database, options: options).run(path: path)
    }

    @Test func l7_aZipBombIsRefusedBeforeItInflatesAndNothingIsStored() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await BadInputTests.populatedStore(in: folder)
        let zip = try Self.bomb(in: folder, padding: 8 << 20)
        let compressed = try #require(FileManager.default.attributesOfItem(atPath: zip.path)[.size] as? NSNumber).intValue
        #expect(compressed < 200_000, "8 MiB of spaces deflate to \(compressed) bytes")
        let before = try Fixtures.snapshot(database)
        let started = Date()
        do {
            _ = try await Self.importing(zip.path, into: database, cap: 1 << 20)
            Issue.record("a zip inflating past the cap should be refused")
        } catch let error as ImportError {
            #expect(error.code == .zipBomb)
            for words in [
                "bomb.zip: apple_health_export/export.xml", "the zip entry inflates past 1048576 bytes",
                "× its compressed size", "refused as a zip bomb",
            ] {
                #expect(error.description.contains(words), "\(error.description) lacks \(words)")
            }
        }
        #expect(try Fixtures.snapshot(database) == before)
        // A hang detector (the inputs once hung for good), not a timing test: the whole suite
        // on two cores has taken 10.7 s for what takes well under a second alone.
        #expect(Date().timeIntervalSince(started) < 60)
        // Without a cap (the command line's default) the same file is an export like another.
        #expect(HealthImporter.Options().maxInflatedBytes == nil)
        let summary = try await Self.importing(zip.path, into: database, cap: nil)
        #expect(summary.recordsRead == 1)
        #expect(summary.totalAdded == 1)
    }

    /// Under the cap nothing changes: the same export with a cap just above its size.
    @Test func l7_anExportUnderTheCapIsImported() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        let zip = try Self.bomb(in: folder, padding: 100_000)
        let summary = try await Self.importing(zip.path, into: database, cap: 200_000)
        #expect(summary.totalAdded == 1)
    }

    /// The cap counts every entry read, together: two entries each under it, the second
    /// taking the total past it, is refused before that entry is inflated.
    @Test func l7_theCapCountsEveryEntryReadTogether() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let zip = folder.appendingPathComponent("two.zip")
        let archive = try Archive(url: zip, accessMode: .create)
        let content = Data(repeating: 0x20, count: 600_000)
        for name in ["a.xml", "b.xml"] { try BadInputTests.add(content, as: name, to: archive) }
        let reader = try ZipArchive(path: zip.path)
        reader.maxInflatedBytes = 1_000_000
        var read = 0
        try reader.extract(reader.entries[0], bufferSize: 1 << 16) { read += $0.count }
        #expect(read == 600_000)
        var second = 0
        do {
            try reader.extract(reader.entries[1], bufferSize: 1 << 16) { second += $0.count }
            Issue.record("the second entry takes the total past the cap: it should be refused")
        } catch let bomb as ZipArchive.Bomb {
            #expect(bomb.wholeArchive)
            #expect(bomb.description.contains("the zip archive inflates past 1000000 bytes with this entry"))
        }
        #expect(second == 0)
        #expect(reader.inflatedBytes == 600_000)
    }

    /// A read that does not know the size it will read (a peek at an entry's head) is
    /// stopped as soon as the bytes inflated pass the cap: no byte past it is handed on.
    @Test func l7_inflatedBytesAreCountedAsTheyAreProduced() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let zip = folder.appendingPathComponent("one.zip")
        let archive = try Archive(url: zip, accessMode: .create)
        try BadInputTests.add(Data(repeating: 0x20, count: 4 << 20), as: "big.xml", to: archive)
        let reader = try ZipArchive(path: zip.path)
        reader.maxInflatedBytes = 100_000
        var handed = 0
        do {
            try reader.extract(reader.entries[0], bufferSize: 16 * 1024, checksCRC: false) { handed += $0.count }
            Issue.record("a read past the cap should be stopped")
        } catch let bomb as ZipArchive.Bomb {
            // The entry's ratio: its declared size over its compressed size.
            #expect(!bomb.wholeArchive)
            #expect(bomb.ratio > 50)
        }
        #expect(handed <= 100_000)
        #expect(reader.inflatedBytes <= 100_000 + 16 * 1024)
    }
}

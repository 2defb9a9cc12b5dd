import Foundation
import HealthCore

/// An `export.zip` read entry by entry as streams (``ZipArchive``): nothing is ever
/// extracted to disk.
final class ZipExportSource: ExportSource {
    let kind = "zip"
    let path: String
    private let archive: ZipArchive
    private let mainEntry: ZipArchive.Entry
    /// The folder inside the zip that holds the main XML (`apple_health_export/`).
    private let root: String
    private var entriesByPath: [String: ZipArchive.Entry] = [:]
    /// By file name alone, for references whose folder does not match the zip's layout.
    private lazy var entriesByName: [String: ZipArchive.Entry] = Dictionary(
        entriesByPath.map { (($0.key as NSString).lastPathComponent, $0.value) }, uniquingKeysWith: { first, _ in first })
    private(set) var refusedEntries: [String] = []

    /// Opens the zip at `url`; its entries may inflate to `maxInflatedBytes` at most, all
    /// reads together (`nil`: no cap), or the read fails with ``ImportError/Code/zipBomb``.
    init(url: URL, maxInflatedBytes: Int64? = nil) throws {
        path = url.path
        do {
            archive = try ZipArchive(path: url.path)
        } catch {
            throw ImportError(.unreadableArchive, file: url.path, "is not a readable zip archive (\(error))")
        }
        // Before the first peek: the heads read to find the main XML count too.
        archive.maxInflatedBytes = maxInflatedBytes.map { UInt64(max(0, $0)) }
        var candidates: [ZipArchive.Entry] = []
        var emptyXML: [String] = []
        var count = 0
        for entry in archive.entries {
            count += 1
            let name = entry.path
            if MainXMLDetector.isUnsafe(name) {
                refusedEntries.append(name)
                continue
            }
            guard entry.isFile, !MainXMLDetector.isJunk(name) else { continue }
            entriesByPath[name] = entry
            if name.lowercased().hasSuffix(".xml"), !name.contains("workout-routes/") {
                if entry.uncompressedSize == 0 { emptyXML.append(name) } else { candidates.append(entry) }
            }
        }
        guard count > 0 else {
            throw ImportError(
                .empty, file: path, "is an empty zip archive, or its central directory is damaged: no Health export in it")
        }
        candidates.sort { $0.path.split(separator: "/").count < $1.path.split(separator: "/").count }
        var found: ZipArchive.Entry?
        for candidate in candidates
        where try ZipExportSource.peek(archive, candidate, path: path).map(MainXMLDetector.isHealthExport) == true {
            found = candidate
            break
        }
        guard let found else {
            var detail = "no entry starts with <HealthData or <!DOCTYPE HealthData"
            if !emptyXML.isEmpty { detail += "; empty XML entries: " + emptyXML.joined(separator: ", ") }
            if !refusedEntries.isEmpty { detail += "; refused unsafe entries: " + refusedEntries.joined(separator: ", ") }
            throw ImportError(.notAnExport, file: path, "holds no Apple Health export (\(detail))")
        }
        mainEntry = found
        let folder = (found.path as NSString).deletingLastPathComponent
        root = folder.isEmpty ? "" : folder + "/"
    }

    private struct StopPeek: Error {}

    /// The head of `entry`, or `nil` when it cannot be read (it is not the export, then);
    /// past the archive's cap of inflated bytes, the zip bomb's error.
    private static func peek(_ archive: ZipArchive, _ entry: ZipArchive.Entry, path: String) throws -> Data? {
        var head = Data()
        do {
            try archive.extract(entry, bufferSize: 16 * 1024, checksCRC: false) { chunk in
                head.append(chunk)
                if head.count >= MainXMLDetector.peekSize { throw StopPeek() }
            }
        } catch is StopPeek {
        } catch let bomb as ZipArchive.Bomb {
            throw ImportError(.zipBomb, file: "\((path as NSString).lastPathComponent): \(entry.path)", "\(bomb)")
        } catch {
            return nil
        }
        return head
    }

    var mainXMLName: String { "\((path as NSString).lastPathComponent): \(mainEntry.path)" }
    /// Clamped: a zip64 size past `Int64.max` (a hostile archive) must not trap here.
    var mainXMLSize: Int64 { Int64(clamping: mainEntry.uncompressedSize) }

    func streamMainXML(_ consume: (Data) throws -> Void) throws {
        try extract(mainEntry, name: mainXMLName, bufferSize: 1 << 20, consume)
    }

    func streamFile(exportPath: String, isRoute: Bool, _ consume: (Data) throws -> Void) throws -> Bool {
        let relative = exportPath.hasPrefix("/") ? String(exportPath.dropFirst()) : exportPath
        guard !MainXMLDetector.isUnsafe(relative) else { return false }
        let entry =
            entriesByPath[root + relative] ?? entriesByName[(relative as NSString).lastPathComponent]
        guard let entry else { return false }
        try extract(entry, name: "\((path as NSString).lastPathComponent): \(entry.path)", bufferSize: linkedFileChunk, consume)
        return true
    }

    /// Streams `entry`, checked against its declared size and CRC-32 (``ZipArchive``).
    private func extract(
        _ entry: ZipArchive.Entry, name: String, bufferSize: Int, _ consume: (Data) throws -> Void
    ) throws {
        do {
            try archive.extract(entry, bufferSize: bufferSize, consume)
        } catch let failure as ZipArchive.Failure {
            throw ImportError(.damagedEntry, file: name, "the zip entry \(failure)")
        } catch let bomb as ZipArchive.Bomb {
            throw ImportError(.zipBomb, file: name, "\(bomb)")
        }
    }

    func electrocardiogramPaths() -> [String] {
        entriesByPath.keys.filter {
            $0.hasPrefix(root) && $0.lowercased().hasSuffix(".csv") && $0.contains("electrocardiograms/")
        }
        .map { String($0.dropFirst(root.count)) }.sorted()
    }

    func identity() throws -> SourceIdentity {
        var builder = ContentKeyBuilder(tag: "zip")
        for entry in archive.entries where !MainXMLDetector.isJunk(entry.path) {
            builder.add(entry.path)
            builder.add(Int64(entry.crc32))
            builder.add(Int64(bitPattern: entry.uncompressedSize))  // the same key below 2^63, no trap above
        }
        return SourceIdentity(quickKey: "zip:" + builder.finish().description, newestModification: nil)
    }

    let hashesMainXML = false

    /// The entries' CRC-32s stand for their content: each entry read is checked against its own.
    func contentHash(mainXML: ContentKey?) throws -> String { try identity().quickKey }
}

import Foundation
import HealthCore

/// Where an Apple Health export comes from: an `export.zip`, a bare `export.xml`, or an
/// unpacked export folder. Every kind streams its main XML and reads the files the XML
/// links to (GPX routes, FHIR resources) and the ECG CSVs beside it.
protocol ExportSource: AnyObject {
    /// `zip`, `xml` or `folder`.
    var kind: String { get }
    /// The path the user gave.
    var path: String { get }
    /// A name for the main XML in messages (`export.zip: apple_health_export/export.xml`).
    var mainXMLName: String { get }
    /// Uncompressed size of the main XML, for progress.
    var mainXMLSize: Int64 { get }
    /// Names of entries refused as unsafe (zip-slip) or skipped.
    var refusedEntries: [String] { get }
    /// Streams the main XML in chunks.
    func streamMainXML(_ consume: (Data) throws -> Void) throws
    /// Streams a file referenced by the export (`/workout-routes/route_….gpx`) in chunks of
    /// at most ``linkedFileChunk`` bytes; `false` (and no call) if it is absent. A chunk is
    /// valid only during its call. Throws ``LinkedFileRefused/outsideExport`` for a file
    /// outside the export. `isRoute`: a route's GPX, which may also be found beside the main
    /// XML of a folder (only its points are kept; a clinical record's JSON is stored whole).
    func streamFile(exportPath: String, isRoute: Bool, _ consume: (Data) throws -> Void) throws -> Bool
    /// Export-relative paths of the ECG CSV files.
    func electrocardiogramPaths() -> [String]
    /// The cheap identity of what an import of this source reads (no full read).
    func identity() throws -> SourceIdentity
    /// The identity of the full content of what an import reads. `mainXML` is the
    /// ``StreamingContentHash`` of the main XML when the import computed it while parsing
    /// (it is read again otherwise).
    func contentHash(mainXML: ContentKey?) throws -> String
    /// Whether ``contentHash(mainXML:)`` needs the main XML's hash (a zip's does not: its
    /// entries' CRC-32s identify them, and each is checked as it is read).
    var hashesMainXML: Bool { get }
}

/// The size of the chunks a linked file streams in: a route's GPX is never held whole.
let linkedFileChunk = 1 << 18

/// A linked file the import leaves out, with a note that says why; the rest of the import
/// goes on.
struct LinkedFileRefused: Error {
    /// What the import reports, once for every such file.
    let note: String

    /// A linked file of a folder export (or beside a bare `export.xml`) that resolves outside
    /// the export's own folders (a symbolic link out of them, or a path such as
    /// `/.ssh/id_rsa` beside an `export.xml` kept in a home folder): never read, so that an
    /// export cannot bring a file of the importing user's into the store as a clinical
    /// record's JSON.
    static let outsideExport = LinkedFileRefused(note: "linked file refused: outside the export's own folders")
    /// A linked path that names a FIFO, a device or a socket: never opened (a FIFO would
    /// block the import, a device never end).
    static let notARegularFile = LinkedFileRefused(note: "linked file refused: not a regular file")
    /// A linked file read whole past its cap (``AppleExportReader/Options/maxLinkedFileBytes``).
    static let tooLarge = LinkedFileRefused(note: "linked file left out: larger than the import reads whole")
    /// A route past ``AppleExportReader/Options/maxRoutePoints``: stored without its points.
    static let tooManyPoints = LinkedFileRefused(note: "route left without its points: more than the import holds")
}

extension ExportSource {
    /// Reads a file referenced by the export whole (a clinical record's FHIR JSON, an ECG
    /// CSV); `nil` if absent. Past `limit` bytes it stops and throws
    /// ``LinkedFileRefused/tooLarge``.
    func readFile(exportPath: String, limit: Int) throws -> Data? {
        var data = Data()
        let found = try streamFile(exportPath: exportPath, isRoute: false) { chunk in
            guard chunk.count <= limit - data.count else { throw LinkedFileRefused.tooLarge }
            data.append(chunk)
        }
        return found ? data : nil
    }
}

/// How an import recognises input it has read before, without reading it.
///
/// - A zip: the names, sizes and CRC-32s of its entries, from its central directory. They
///   come from the content, so the quick key is always trusted.
/// - A file or folder: the path, size and modification time (to the nanosecond) of every
///   file the import reads — the main XML and the files in `electrocardiograms/`,
///   `workout-routes/` and `clinical-records/` beside it. Like git's index, the key is only
///   trusted when the import that recorded it started more than ``racyWindow`` after the
///   newest of those files was last modified; otherwise a file could have changed again
///   within the file system's timestamp resolution, and the full content hash decides.
public struct SourceIdentity: Sendable {
    public static let racyWindow: TimeInterval = 2

    /// The fingerprint: `zip:…`, `xml:…` or `folder:…`.
    public var quickKey: String
    /// The newest modification time of the files (`nil` for a zip).
    public var newestModification: Date?

    /// Whether an import that started at `started` and recorded this quick key may be
    /// trusted to have read this content.
    public func isTrusted(importStartedAt started: Date) -> Bool {
        guard let newestModification else { return true }
        return started.timeIntervalSince(newestModification) > SourceIdentity.racyWindow
    }
}

/// The content test for the main XML: its first bytes hold `<!DOCTYPE HealthData` or
/// `<HealthData` (the file name is localised, so it is never used).
enum MainXMLDetector {
    static let peekSize = 64 * 1024

    static func isHealthExport(_ head: Data) -> Bool {
        guard
            let text = String(data: head.prefix(peekSize), encoding: .utf8)
                ?? String(data: head.prefix(peekSize - 3), encoding: .utf8)
        else { return false }
        return text.contains("<!DOCTYPE HealthData") || text.contains("<HealthData")
    }

    /// Entries that are never export content: macOS resource forks and Finder files.
    static func isJunk(_ path: String) -> Bool {
        path.hasPrefix("__MACOSX/") || path.contains("/__MACOSX/") || path.hasSuffix(".DS_Store")
            || (path as NSString).lastPathComponent.hasPrefix("._")
    }

    /// A zip entry name that could escape a destination folder: refused.
    static func isUnsafe(_ path: String) -> Bool {
        path.hasPrefix("/") || path.hasPrefix("\\") || path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).contains("..")
            || (path.count > 1 && path.dropFirst().first == ":")
    }

}

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
    /// Reads a file referenced by the export (`/workout-routes/route_….gpx`); `nil` if absent.
    func readFile(exportPath: String) throws -> Data?
    /// Export-relative paths of the ECG CSV files.
    func electrocardiogramPaths() -> [String]
    /// A stable identity of the input's content, cheap to compute (no full read).
    func fingerprint() throws -> String
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

    /// Fingerprint of a file: size plus a hash of its first and last MiB.
    static func fileFingerprint(_ url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: 0)
        var builder = ContentKeyBuilder(tag: "file")
        builder.add(Int64(size))
        let window: UInt64 = 1 << 20
        let head = try handle.read(upToCount: Int(min(size, window))) ?? Data()
        builder.add(head.base64EncodedString())
        if size > window {
            try handle.seek(toOffset: max(window, size - window))
            builder.add((try handle.readToEnd() ?? Data()).base64EncodedString())
        }
        return builder.finish().description
    }
}

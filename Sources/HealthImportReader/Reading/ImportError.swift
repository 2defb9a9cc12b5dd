/// Why reading an export failed: what kind of problem, which file, where in it, and what
/// was wrong. Never holds a health value, only names, positions and kinds of problems.
///
/// Match on ``code`` to react to a kind of failure; ``message`` is for people.
public struct ImportError: Error, CustomStringConvertible, Sendable {
    /// The kind of failure.
    public enum Code: String, Sendable, CaseIterable {
        /// The path does not exist.
        case notFound = "not_found"
        /// The file exists but cannot be opened or read (permissions, I/O error).
        case unreadable
        /// The file, or the zip, has nothing in it.
        case empty
        /// Readable, but not an Apple Health export (no `<HealthData>` where one belongs).
        case notAnExport = "not_an_export"
        /// A zip archive that cannot be opened as one.
        case unreadableArchive = "unreadable_archive"
        /// A zip entry that is truncated or whose CRC-32 does not match.
        case damagedEntry = "damaged_entry"
        /// A zip entry, or the zip's entries together, that inflate past the read's cap
        /// (``AppleExportReader/Options/maxInflatedBytes``): refused as a zip bomb.
        case zipBomb = "zip_bomb"
        /// The main XML is not well-formed (truncated, a broken tag, a bad character).
        case malformedXML = "malformed_xml"
        /// Well-formed XML whose content is not usable (a record without its type, a wrong root).
        case invalidRecord = "invalid_record"
        /// A linked file (GPX route, ECG CSV) that is not what it should be.
        case malformedFile = "malformed_file"
    }

    public let code: Code
    /// The file (or `zip: entry`) the problem is in.
    public let file: String
    /// What was wrong, with the line, byte offset and record number where known.
    public let message: String

    public init(_ code: Code, file: String, _ message: String) {
        self.code = code
        self.file = file
        self.message = message
    }

    public var description: String { "\(file): \(message)" }
}

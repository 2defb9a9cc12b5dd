/// Why an import failed: which file, where in it, and what was wrong. Never holds a health
/// value, only names, positions and kinds of problems.
public struct ImportError: Error, CustomStringConvertible, Sendable {
    /// The file (or `zip: entry`) the problem is in.
    public let file: String
    /// What was wrong, with the line, byte offset and record number where known.
    public let message: String

    public init(file: String, _ message: String) {
        self.file = file
        self.message = message
    }

    public var description: String { "\(file): \(message)" }
}

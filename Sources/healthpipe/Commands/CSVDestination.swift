import ArgumentParser
import Foundation

/// Where `export csv` writes: standard output, or a file written beside its final name and
/// moved into place only when the export succeeded (never a half-written CSV).
final class CSVDestination {
    /// The final file; `nil` for standard output.
    let path: String?
    private let partial: String?
    private let handle: FileHandle

    /// `-` for standard output; a folder (existing, or ending in `/`) gets
    /// `HealthPipeline_YYYY-MM-DD_HHMMSS.csv` stamped with `now` in `zone`; anything else is
    /// the file.
    init(_ out: String, now: Date, zone: TimeZone) throws {
        guard out != "-" else {
            path = nil
            partial = nil
            handle = .standardOutput
            return
        }
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: out, isDirectory: &isFolder)
        if out.hasSuffix("/") || (exists && isFolder.boolValue) {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = zone
            formatter.dateFormat = "yyyy-MM-dd_HHmmss"
            path = (out as NSString).appendingPathComponent("HealthPipeline_\(formatter.string(from: now)).csv")
        } else {
            path = out
        }
        let partial = path! + ".partial-\(ProcessInfo.processInfo.processIdentifier)"
        guard FileManager.default.createFile(atPath: partial, contents: nil), let handle = FileHandle(forWritingAtPath: partial)
        else {
            printError("error: cannot write \(path!)")
            throw ExitCode(2)
        }
        self.partial = partial
        self.handle = handle
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try handle.write(contentsOf: Data(bytes))
    }

    /// Moves the finished file into place (replacing an older one).
    func commit() throws {
        guard let partial, let path else { return }
        try handle.close()
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.moveItem(atPath: partial, toPath: path)
    }

    /// Removes the unfinished file.
    func discard() {
        guard let partial else { return }
        try? handle.close()
        try? FileManager.default.removeItem(atPath: partial)
    }
}

import ArgumentParser
import Foundation

/// Where `export csv` writes: standard output, or a file written beside its final name and
/// moved into place only when the export succeeded (never a half-written CSV). A path that
/// is not a regular file — `/dev/null`, `/dev/stdout`, a named pipe — is written to as it
/// is: it is never removed or replaced (before, `--out /dev/null` run as root replaced the
/// device with a regular file). A link to a file is followed: the file is replaced, the
/// link kept.
final class CSVDestination {
    /// The final file; `nil` for standard output.
    let path: String?
    private let partial: String?
    /// The file the partial one replaces (`path` with its links followed).
    private let target: String?
    private let handle: FileHandle

    /// `-` for standard output; a folder (existing, or ending in `/`) gets
    /// `HealthPipeline_YYYY-MM-DD_HHMMSS.csv` stamped with `now` in `zone`; anything else is
    /// the file.
    init(_ out: String, now: Date, zone: TimeZone) throws {
        guard out != "-" else {
            path = nil
            partial = nil
            target = nil
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
        let target = Self.resolved(path!)
        if Self.isStream(target) {
            guard let handle = FileHandle(forWritingAtPath: target) else {
                printError("error: cannot write \(path!)")
                throw ExitCode(2)
            }
            self.partial = nil
            self.target = nil
            self.handle = handle
            return
        }
        let partial = target + ".partial-\(ProcessInfo.processInfo.processIdentifier)"
        guard FileManager.default.createFile(atPath: partial, contents: nil), let handle = FileHandle(forWritingAtPath: partial)
        else {
            printError("error: cannot write \(path!)")
            throw ExitCode(2)
        }
        self.partial = partial
        self.target = target
        self.handle = handle
    }

    /// `path` with its links followed, when it exists.
    private static func resolved(_ path: String) -> String {
        guard FileManager.default.fileExists(atPath: path), let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// Whether `path` exists and is neither a regular file nor a folder: a device, a pipe or
    /// a socket, written to in place.
    private static func isStream(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        let kind = status.st_mode & S_IFMT
        return kind != S_IFREG && kind != S_IFDIR
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try handle.write(contentsOf: Data(bytes))
    }

    /// Moves the finished file into place (replacing an older one).
    func commit() throws {
        guard let partial, let target else { return }
        try handle.close()
        // rename(2) replaces the older file in one step: no moment without one.
        guard rename(partial, target) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: partial)
            printError("error: cannot write \(path ?? target): \(reason)")
            throw ExitCode(2)
        }
    }

    /// Removes the unfinished file.
    func discard() {
        guard let partial else { return }
        try? handle.close()
        try? FileManager.default.removeItem(atPath: partial)
    }
}

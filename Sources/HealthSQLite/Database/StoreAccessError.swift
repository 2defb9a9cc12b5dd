import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A store file that cannot be opened or created, said plainly: its path and why
/// (`permission denied`, `/srv/data is not a folder`, `not a SQLite database`), never a
/// raw SQLite code or a Foundation error dump.
///
/// ```swift
/// do { _ = try HealthDatabase(path: path) } catch {
///     if let access = StoreAccessError.explaining(error, path: path) { print("error: \(access)") }
/// }
/// // error: cannot open the store at /srv/health.sqlite: permission denied
/// ```
public struct StoreAccessError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot open the store at \(path): \(reason)" }

    /// Why opening or creating the store at `path` threw `error`, when that is about the
    /// file or its folders (SQLite could not open it, or a folder could not be made and the
    /// file system says why); `nil` for any other failure.
    public static func explaining(_ error: any Error, path: String) -> StoreAccessError? {
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_NOTADB: return StoreAccessError(path: path, reason: "not a SQLite database")
            case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY:
                return StoreAccessError(path: path, reason: problem(at: path) ?? "the file cannot be opened for writing")
            default: return nil
            }
        }
        // A folder that could not be made (a Foundation error, bridged differently on each
        // platform): the file system says why.
        return problem(at: path).map { StoreAccessError(path: path, reason: $0) }
    }

    /// What keeps this process from opening `path` to read and write, or from creating it
    /// and its folders: a folder on the way that is a file, a folder in its place, or the
    /// system's word for what `access(2)` refuses (`permission denied`, `read-only file
    /// system`); `nil` when nothing does.
    public static func problem(at path: String) -> String? {
        let manager = FileManager.default
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var folder = "/"
        for component in absolute.split(separator: "/").dropLast() {
            let next = (folder as NSString).appendingPathComponent(String(component))
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: next, isDirectory: &isFolder) else { break }
            guard isFolder.boolValue else { return "\(next) is not a folder" }
            folder = next
        }
        var isFolder: ObjCBool = false
        let exists = manager.fileExists(atPath: absolute, isDirectory: &isFolder)
        if exists, isFolder.boolValue { return "it is a folder; give the store's file, e.g. \(absolute)/health.sqlite" }
        let (target, mode) = exists ? (absolute, R_OK | W_OK) : (folder, W_OK | X_OK)
        guard access(target, mode) != 0 else { return nil }
        return String(cString: strerror(errno)).lowercased()
    }
}

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A SQLite data folder (or server database) that another process holds (issue 32, M6).
public struct DataFolderInUse: Error, CustomStringConvertible {
    /// The folder or file the lock guards.
    public let path: String

    public var description: String { "another healthpipe serve is using \(path)" }
}

/// An exclusive lock on a SQLite data folder, held for this object's lifetime (issue 32,
/// M6): one `healthpipe serve` per folder, since the per-user locks that keep a deletion
/// from racing a write (``UserLocks``), the in-flight slots and the start-up sweep
/// (``ServerMaintenance``) only see their own process.
///
/// `flock(2)` with `LOCK_EX | LOCK_NB` on a lock file: the kernel releases it when the
/// process ends, however it ends (`SIGKILL` included), so a crashed server never blocks
/// the next one. It belongs to the open file description: a second lock in the same
/// process conflicts too. Not reliable on NFS.
public final class DataFolderLock: Sendable {
    /// The lock file in a data folder.
    public static let fileName = "healthpipe.lock"

    private let descriptor: Int32
    /// What the lock guards (named by ``DataFolderInUse``).
    public let guarded: String

    /// Locks `folder` (which must exist) through its file ``fileName``.
    public convenience init(folder: String) throws {
        try self.init(path: (folder as NSString).appendingPathComponent(Self.fileName), guarding: folder)
    }

    /// Locks the file at `path`, created if needed; `guarding` is what an error names
    /// (default: `path`). Throws ``DataFolderInUse`` when another holder has it.
    public init(path: String, guarding: String? = nil) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXError.Code(rawValue: errno) ?? .EIO) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK { throw DataFolderInUse(path: guarding ?? path) }
            throw POSIXError(POSIXError.Code(rawValue: code) ?? .EIO)
        }
        self.descriptor = descriptor
        self.guarded = guarding ?? path
    }

    deinit { close(descriptor) }
}

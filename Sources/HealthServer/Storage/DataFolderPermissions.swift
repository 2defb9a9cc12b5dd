import Foundation

/// Keeps a server's data private: its folder and the folders under it `0700`, its files
/// `0600` (finding M5 of issue 32: they were world-readable). `healthpipe` also runs with
/// umask 077, so what it creates from then on is private from the start.
public enum DataFolderPermissions {
    /// Restricts `folder` (created when missing), everything under it, and `files` (the
    /// server's own store, which may live elsewhere). A path that is gone is skipped.
    public static func restrict(folder: String, files: [String] = []) throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try manager.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder)
        if let walker = manager.enumerator(atPath: folder) {
            for case let relative as String in walker {
                let path = (folder as NSString).appendingPathComponent(relative)
                guard let attributes = try? manager.attributesOfItem(atPath: path),
                    let type = attributes[.type] as? FileAttributeType, type != .typeSymbolicLink
                else { continue }
                try manager.setAttributes([.posixPermissions: type == .typeDirectory ? 0o700 : 0o600], ofItemAtPath: path)
            }
        }
        for file in files {
            for path in [file, file + "-wal", file + "-shm"] where manager.fileExists(atPath: path) {
                try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
            }
        }
    }
}

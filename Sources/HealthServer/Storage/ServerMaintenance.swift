import Foundation

/// Housekeeping of a server's data folder at start-up (issue 32, H2): files that no job and
/// no user owns any more — left by a crash, or by a deletion that failed half-way — are
/// removed, since nothing else ever would.
public enum ServerMaintenance {
    /// What ``sweep(repositories:dataFolder:now:)`` removed.
    public struct Swept: Hashable, Sendable {
        /// Uploaded exports.
        public var uploads = 0
        /// Users' stores (`users/<id>.sqlite`, counted once with their companions).
        public var stores = 0

        public init(uploads: Int = 0, stores: Int = 0) {
            self.uploads = uploads
            self.stores = stores
        }
    }

    /// Uploads a server sharing its database (and perhaps its folder) with others leaves
    /// alone: another server may be importing them.
    public static let sharedUploadAge: TimeInterval = 24 * 3600

    /// Alone on its data (SQLite; call it with the folder locked, ``DataFolderLock``, and
    /// after `failUnfinishedImports`, before serving): removes every upload in
    /// `uploadFolder` whose id is no unfinished job's, and the store files of every user
    /// that does not exist (none when the server has no user at all: a wrong `--db` must not
    /// cost another deployment its stores). Sharing a PostgreSQL database (`repositories.importQueue` set):
    /// only uploads older than ``sharedUploadAge``; its users' samples are in the database.
    public static func sweep(
        repositories: ServerRepositories, dataFolder: String, now: Date = Date()
    ) async throws -> Swept {
        let files = FileManager.default
        var swept = Swept()
        let uploads = repositories.uploadFolder
        let shared = repositories.importQueue != nil
        var unfinished = Set<String>()
        if !shared { unfinished = Set(try await repositories.imports.unfinishedImports().map { $0.job.id }) }
        for name in (try? files.contentsOfDirectory(atPath: uploads)) ?? [] where name.hasSuffix(".zip") {
            let path = (uploads as NSString).appendingPathComponent(name)
            if shared {
                let modified = (try? files.attributesOfItem(atPath: path)[.modificationDate]) as? Date
                guard let modified, now.timeIntervalSince(modified) > sharedUploadAge else { continue }
            } else {
                guard !unfinished.contains(String(name.dropLast(4))) else { continue }
            }
            try files.removeItem(atPath: path)
            swept.uploads += 1
        }
        // A server without any user next to users' stores is more likely started on the wrong
        // `--db` than the last of its users deleted: their stores are left alone.
        guard !shared, try await !repositories.users.users().isEmpty else { return swept }
        let stores = (dataFolder as NSString).appendingPathComponent("users")
        var exists: [String: Bool] = [:]
        for name in (try? files.contentsOfDirectory(atPath: stores))?.sorted() ?? [] {
            guard let file = storeFile(name) else { continue }
            if exists[file.id] == nil { exists[file.id] = try await repositories.users.userExists(id: file.id) }
            guard exists[file.id] == false else { continue }
            try files.removeItem(atPath: (stores as NSString).appendingPathComponent(name))
            if file.isStore { swept.stores += 1 }
        }
        return swept
    }

    /// The user id a file of `users/` belongs to, and whether it is the store itself (not its
    /// `-wal`, `-shm` or `-journal`); `nil` for any other file.
    static func storeFile(_ name: String) -> (id: String, isStore: Bool)? {
        for suffix in [".sqlite", ".sqlite-wal", ".sqlite-shm", ".sqlite-journal"] where name.hasSuffix(suffix) {
            let id = String(name.dropLast(suffix.count))
            guard !id.isEmpty, id.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return nil }
            return (id, suffix == ".sqlite")
        }
        return nil
    }
}

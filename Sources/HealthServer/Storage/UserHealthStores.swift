import Foundation
import HealthStore

/// Each user's samples live in a health store of their own (the same SQLite store the CLI
/// imports into), so one user's query can never reach another's samples.
public protocol UserHealthStores: Sendable {
    /// The store of `userID`, created on first use.
    func store(for userID: String) throws -> HealthDatabase
}

/// Stores under `<folder>/users/<user id>.sqlite`, opened once and kept.
public final class SQLiteUserHealthStores: UserHealthStores {
    private let folder: String
    private let opened = Locked<[String: HealthDatabase]>([:])

    public init(folder: String) {
        self.folder = folder
    }

    public func store(for userID: String) throws -> HealthDatabase {
        guard userID.allSatisfy({ $0.isHexDigit || $0 == "-" }), !userID.isEmpty else {
            throw Problem(.badRequest, "Bad user", detail: "user ids are UUIDs")
        }
        return try opened.withLock { stores in
            if let store = stores[userID] { return store }
            let path = (folder as NSString).appendingPathComponent("users/\(userID).sqlite")
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let store = try HealthDatabase(path: path)
            stores[userID] = store
            return store
        }
    }
}

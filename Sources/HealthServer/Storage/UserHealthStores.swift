import Foundation
import HealthCore
import HealthStore
import NIOPosix

/// Each user's samples live in a health store of their own (the same SQLite store the CLI
/// imports into), so one user's query can never reach another's samples.
public protocol UserHealthStores: Sendable {
    /// The store of `userID`, created on first use.
    func store(for userID: String) async throws -> HealthDatabase
}

/// Stores under `<folder>/users/<user id>.sqlite`, opened once and kept.
///
/// Opening a store creates and migrates its file: blocking work, so it runs on a
/// `NIOThreadPool` thread, never on an event loop or the cooperative pool, and outside
/// any lock. Requests for a store that is still opening wait for that one open.
public final class SQLiteUserHealthStores: UserHealthStores {
    private let folder: String
    private let threadPool: NIOThreadPool
    private let opened = Locked<[String: Task<HealthDatabase, any Error>]>([:])

    public init(folder: String, threadPool: NIOThreadPool = .singleton) {
        self.folder = folder
        self.threadPool = threadPool
    }

    public func store(for userID: String) async throws -> HealthDatabase {
        guard userID.allSatisfy({ $0.isHexDigit || $0 == "-" }), !userID.isEmpty else {
            throw Problem(.badRequest, "Bad user", detail: "user ids are UUIDs")
        }
        let path = (folder as NSString).appendingPathComponent("users/\(userID).sqlite")
        let threadPool = threadPool
        let opening = opened.withLock { stores in
            if let task = stores[userID] { return task }
            let task = Task {
                try await threadPool.runIfActive {
                    try FileManager.default.createDirectory(
                        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                    return try HealthDatabase(path: path)
                }
            }
            stores[userID] = task
            return task
        }
        do {
            return try await opening.value
        } catch {
            // A failed open is not kept: the next request tries again.
            opened.withLock { stores in stores[userID] = nil }
            throw error
        }
    }
}

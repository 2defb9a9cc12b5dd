import Foundation
import HealthCore
import HealthStore
import NIOPosix

/// Each user's samples: a SQLite file of their own (the same store the CLI imports into)
/// or their rows in the shared PostgreSQL database. A user's store reaches only their samples.
public protocol UserHealthStores: Sendable {
    /// The store of `userID`, created on first use. The server asks only through
    /// ``ServerRepositories/writing(_:_:)``: under the user's lock, for a user that exists.
    func store(for userID: String) async throws -> any UserHealthStore

    /// Deletes the store of `userID` entirely (nothing of it stays on disk); returns how
    /// many samples it held and the bytes of the files removed.
    func deleteStore(for userID: String) async throws -> (samples: Int, bytes: Int64)
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

    public func store(for userID: String) async throws -> any UserHealthStore { try await database(for: userID) }

    /// The SQLite store of `userID`, opened once.
    public func database(for userID: String) async throws -> HealthDatabase {
        let path = try path(for: userID)
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

    /// Forgets the open store (its connections close when the last request using it ends)
    /// and removes the file with its WAL and shared-memory companions.
    ///
    /// The server calls it holding the user's lock alone (``ServerRepositories/deleteUser(_:)``):
    /// no writer has the store. A store not open here is counted through a read-only
    /// connection, so nothing is created or migrated for a user being deleted.
    public func deleteStore(for userID: String) async throws -> (samples: Int, bytes: Int64) {
        let path = try path(for: userID)
        let open = opened.withLock { stores in stores.removeValue(forKey: userID) }
        let opened = try? await open?.value
        return try await threadPool.runIfActive {
            var samples = 0
            if let opened {
                samples = try opened.counts()["sample"] ?? 0
            } else if FileManager.default.fileExists(atPath: path) {
                var configuration = HealthDatabase.Configuration()
                configuration.readOnly = true
                // Only for the report: a file that cannot be read is removed all the same.
                samples = (try? HealthDatabase(path: path, configuration: configuration).counts()["sample"]) ?? 0
            }
            var bytes: Int64 = 0
            for file in [path, path + "-wal", path + "-shm", path + "-journal"] where FileManager.default.fileExists(atPath: file)
            {
                bytes += (try FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value ?? 0
                try FileManager.default.removeItem(atPath: file)
            }
            return (samples, bytes)
        }
    }

    private func path(for userID: String) throws -> String {
        guard userID.allSatisfy({ $0.isHexDigit || $0 == "-" }), !userID.isEmpty else {
            throw Problem(.badRequest, "Bad user", detail: "user ids are UUIDs")
        }
        return (folder as NSString).appendingPathComponent("users/\(userID).sqlite")
    }
}

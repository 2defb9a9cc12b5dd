import Foundation
import HealthCore
import HealthSQLite
import HealthServerRecords
import NIOPosix

/// Stores under `<folder>/users/<user id>.sqlite`, at most `maxOpen` of them kept open.
///
/// Opening a store creates and migrates its file: blocking work, so it runs on a
/// `NIOThreadPool` thread, never on an event loop or the cooperative pool, and outside
/// any lock. Requests for a store that is still opening wait for that one open.
///
/// Past `maxOpen` the least recently used store is let go (issue 32, L10: every store ever
/// opened stayed open, a file descriptor and a page cache each): a `HealthDatabase` closes
/// its connections when the last reference to it goes (its commit watcher runs only while
/// someone observes, and the server observes nothing), so a store no request holds closes
/// on the thread pool (closing may checkpoint the WAL), and one a request still holds
/// closes when that request ends. Until then the next request for that user gets the very
/// same store back: never two stores on one file in this process. A closed store is
/// opened again on the next request.
public final class SQLiteUserHealthStores: UserHealthStores {
    private enum Slot {
        case opening(Task<HealthDatabase, any Error>)
        case open(HealthDatabase)
    }

    private struct Entry {
        var slot: Slot
        var lastUse: UInt64
    }

    /// A store let go: known only while someone else holds it.
    private final class LetGo {
        weak var database: HealthDatabase?
        init(_ database: HealthDatabase) { self.database = database }
    }

    private struct Cache {
        var kept: [String: Entry] = [:]
        var letGo: [String: LetGo] = [:]
        var clock: UInt64 = 0
    }

    /// Stores let go, released on the thread pool so that their closing blocks no other thread.
    private final class Closing: Sendable {
        private let databases: Locked<[HealthDatabase]>
        init(_ databases: [HealthDatabase]) { self.databases = Locked(databases) }
        func release() { databases.withLock { $0 = [] } }
    }

    private let folder: String
    private let threadPool: NIOThreadPool
    /// Stores kept open; more are open while requests hold stores let go.
    public let maxOpen: Int
    private let cache = Locked(Cache())

    /// Descriptors an open store holds in use: the file and its WAL for the writer, for a
    /// reader and for each of its two point-read connections, and the shared-memory index
    /// (more while several pool readers are open at once).
    static let descriptorsPerStore = 9

    /// As many stores as half the process's file descriptors hold (the other half is the
    /// HTTP connections' and the server store's, ``ConnectionLimit``), at most 256: with the
    /// usual limit of 1,024 descriptors, 56 stores.
    public static func defaultMaxOpen() -> Int {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return 56 }
        return min(256, max(16, Int(clamping: limits.rlim_cur) / 2 / descriptorsPerStore))
    }

    public init(folder: String, threadPool: NIOThreadPool = .singleton, maxOpen: Int = defaultMaxOpen()) {
        self.folder = folder
        self.threadPool = threadPool
        self.maxOpen = max(1, maxOpen)
    }

    public func store(for userID: String) async throws -> any UserHealthStore { try await database(for: userID) }

    /// The SQLite store of `userID`: the open one, or opened now.
    public func database(for userID: String) async throws -> HealthDatabase {
        let path = try path(for: userID)
        let (threadPool, maxOpen) = (threadPool, maxOpen)
        var released: [HealthDatabase] = []
        let slot = cache.withLock { cache -> Slot in
            cache.clock += 1
            if var entry = cache.kept[userID] {
                entry.lastUse = cache.clock
                cache.kept[userID] = entry
                return entry.slot
            }
            let slot: Slot
            if let held = cache.letGo.removeValue(forKey: userID)?.database {
                slot = .open(held)  // let go, but a request still holds it: the same store again
            } else {
                slot = .opening(
                    Task {
                        try await threadPool.runIfActive {
                            try FileManager.default.createDirectory(
                                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                            return try HealthDatabase(path: path)
                        }
                    })
            }
            cache.kept[userID] = Entry(slot: slot, lastUse: cache.clock)
            released = Self.letGoOldest(&cache, keeping: maxOpen, sparing: userID)
            return slot
        }
        if !released.isEmpty {
            let closing = Closing(released)
            released = []
            Task { _ = try? await threadPool.runIfActive { closing.release() } }
        }
        switch slot {
        case .open(let database):
            return database
        case .opening(let opening):
            do {
                let database = try await opening.value
                cache.withLock { cache in
                    if case .opening(let task)? = cache.kept[userID]?.slot, task == opening {
                        cache.kept[userID]?.slot = .open(database)
                    }
                }
                return database
            } catch {
                // A failed open is not kept: the next request tries again.
                cache.withLock { cache in
                    if case .opening(let task)? = cache.kept[userID]?.slot, task == opening { cache.kept[userID] = nil }
                }
                throw error
            }
        }
    }

    /// Lets the least recently used open stores go until at most `count` are kept (never
    /// one still opening, nor `sparing`'s); answers them, for the caller to release.
    private static func letGoOldest(_ cache: inout Cache, keeping count: Int, sparing: String) -> [HealthDatabase] {
        var released: [HealthDatabase] = []
        while cache.kept.count > count {
            var oldest: (userID: String, lastUse: UInt64)?
            for (userID, entry) in cache.kept where userID != sparing {
                guard case .open = entry.slot else { continue }
                if oldest.map({ entry.lastUse < $0.lastUse }) ?? true { oldest = (userID, entry.lastUse) }
            }
            guard let oldest, case .open(let database)? = cache.kept.removeValue(forKey: oldest.userID)?.slot else { break }
            cache.letGo[oldest.userID] = LetGo(database)
            released.append(database)
        }
        // Forget the stores let go earlier that have closed since.
        cache.letGo = cache.letGo.filter { $0.value.database != nil }
        return released
    }

    /// Stores open now: those kept, and those let go that are still held.
    var openCount: Int {
        cache.withLock { cache in cache.kept.count + cache.letGo.values.filter { $0.database != nil }.count }
    }

    /// Forgets the open store (its connections close when the last request using it ends)
    /// and removes the file with its WAL and shared-memory companions.
    ///
    /// The server calls it holding the user's lock alone (``ServerRepositories/deleteUser(_:)``):
    /// no writer has the store. A store not open here is counted through a read-only
    /// connection, so nothing is created or migrated for a user being deleted.
    public func deleteStore(for userID: String) async throws -> (samples: Int, bytes: Int64) {
        let path = try path(for: userID)
        let slot = cache.withLock { cache -> Slot? in
            let letGo = cache.letGo.removeValue(forKey: userID)?.database
            return cache.kept.removeValue(forKey: userID)?.slot ?? letGo.map(Slot.open)
        }
        let opened: HealthDatabase?
        switch slot {
        case .opening(let task)?: opened = try? await task.value
        case .open(let database)?: opened = database
        case nil: opened = nil
        }
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

    /// Reads each user's file in `users/` through a read-only connection, outside the cache
    /// (a person deleted meanwhile gets no file back); a file that cannot be read, is not a
    /// regular file, or predates dirty spans, has none to compute.
    public func usersWithDirtySpans() async throws -> [String] {
        let users = (folder as NSString).appendingPathComponent("users")
        return try await threadPool.runIfActive {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: users)) ?? []
            return names.sorted().compactMap { name -> String? in
                guard name.hasSuffix(".sqlite") else { return nil }
                let userID = String(name.dropLast(".sqlite".count))
                // Regular files only: opening a FIFO named like a store would wait forever.
                guard let path = try? self.path(for: userID),
                    (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
                else { return nil }
                var configuration = HealthDatabase.Configuration()
                configuration.readOnly = true
                let dirty = try? HealthDatabase(path: path, configuration: configuration).hasDirtySpans()
                return dirty == true ? userID : nil
            }
        }
    }

    private func path(for userID: String) throws -> String {
        guard userID.allSatisfy({ $0.isHexDigit || $0 == "-" }), !userID.isEmpty else {
            throw InvalidUserID()
        }
        return (folder as NSString).appendingPathComponent("users/\(userID).sqlite")
    }
}

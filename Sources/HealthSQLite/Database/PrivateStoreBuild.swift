import Foundation
import HealthCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A new store written in a private file beside its path and moved into place only when it
/// is complete. Until then no other process knows the file, so an import writes it without
/// a journal (``HealthDatabase/Configuration/isPrivateBuild``), and a build that fails, or
/// whose process is killed, leaves nothing at the path.
///
/// The private file is `.NAME.building-PID-RANDOM` in the store's folder (a rename is atomic
/// within one file system only). One left by a killed process is removed by the next import
/// of the same store once that process is gone and the file has not changed for a minute
/// (``removeAbandoned(beside:now:)``).
///
/// ```swift
/// guard PrivateStoreBuild.canBuild(at: "health.sqlite") else { … }   // create it in place
/// let summary = try await PrivateStoreBuild.run(at: "health.sqlite") { path, configuration in
///     try HealthDatabase(path: path, configuration: configuration)
/// } body: { database in
///     try await HealthImporter(database: database).run(path: "export.zip")
/// }
/// ```
public enum PrivateStoreBuild {
    /// The build could not be moved into place.
    public enum Failure: Error, CustomStringConvertible {
        /// Another process created a store at the path while the build ran: the build is
        /// discarded and that store left as it is.
        case storeAppeared(path: String)
        /// The file system refused to sync or move the finished build (errno's text).
        case cannotMove(path: String, reason: String)

        public var description: String {
            switch self {
            case .storeAppeared(let path):
                "a store appeared at \(path) while this one was being built; it was left as it is and nothing was written to it (run the command again to write into it)"
            case .cannotMove(let path, let reason): "cannot move the new store into place at \(path): \(reason)"
            }
        }
    }

    /// Whether a new store at `path` can be built privately: `path` names no file, not even
    /// a symbolic link (a link's target is where the store goes, and `link` would fail on
    /// the link itself), does not end in `/`, and its name leaves room in the file system's
    /// 255 bytes for the private name's suffix. Otherwise the caller creates the store in
    /// place, as any other write does.
    public static func canBuild(at path: String) -> Bool {
        var status = stat()
        guard lstat(path, &status) == -1, errno == ENOENT, !path.hasSuffix("/") else { return false }
        return prefix(of: URL(fileURLWithPath: path).lastPathComponent).utf8.count + 10 + 1 + 8 <= 255
    }

    /// Runs `body` with a new store opened by `open` (given the private file's path and a
    /// configuration marked as a private build), closes it, and moves it to `path`, which
    /// must not exist (``canBuild(at:)``). When `body` or the move fails, the private file
    /// is removed and the error rethrown.
    public static func run<T>(
        at path: String,
        open: (_ path: String, _ configuration: HealthDatabase.Configuration) throws -> HealthDatabase,
        body: (HealthDatabase) async throws -> T
    ) async throws -> T {
        removeAbandoned(beside: path)
        let building = buildingPath(for: path)
        inProgress.withLock { _ = $0.insert(building) }
        // Out of the set before the move: from then on a signal must not remove it, nor
        // claim that nothing was stored (a build a signal leaves is removed as abandoned).
        // `false` when a signal's handler took it first: it removes the build and ends the
        // process, so the build must not be moved.
        let moving = { inProgress.withLock { $0.remove(building) != nil } }
        do {
            var configuration = HealthDatabase.Configuration()
            configuration.isPrivateBuild = true
            let database = try open(building, configuration)
            let result: T
            do {
                result = try await body(database)
            } catch {
                try? database.close()
                throw error
            }
            try database.close()
            guard moving() else { throw Failure.cannotMove(path: path, reason: "interrupted") }
            try moveIntoPlace(building, to: path)
            return result
        } catch {
            _ = moving()
            remove(building)
            throw error
        }
    }

    /// The private files of this process's builds under way (until they are moved).
    private static let inProgress = Locked(Set<String>())

    /// Removes the private files of this process's builds under way, for a process about to
    /// end at a signal; how many there were (a build being moved into place is not one).
    @discardableResult
    public static func removeBuildsInProgress() -> Int {
        let buildings = inProgress.withLock { buildings in
            defer { buildings = [] }
            return buildings
        }
        for building in buildings { remove(building) }
        return buildings.count
    }

    /// `.NAME.building-PID-RANDOM` beside `path`.
    static func buildingPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let random = UInt32.random(in: 0...UInt32.max)
        let name = "\(prefix(of: url.lastPathComponent))\(getpid())-\(String(random, radix: 16))"
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    static func prefix(of name: String) -> String { ".\(name).building-" }

    /// Removes private builds of this store whose process is gone (on this machine) and
    /// which have not changed for a minute (a build on another machine sharing the folder
    /// keeps writing its file). Every build runs it, and so does every import into an
    /// existing store: a build a process left as it was killed is otherwise never looked
    /// for once the store it stood for exists. Only names this type gives are candidates
    /// (`PID-RANDOM` after the prefix, decimal and hexadecimal).
    public static func removeAbandoned(beside path: String, now: Date = Date()) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        let prefix = prefix(of: url.lastPathComponent)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let parts = name.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, (1...10).contains(parts[0].count), parts[0].allSatisfy(\.isASCIIDigit),
                (1...8).contains(parts[1].count), parts[1].allSatisfy(\.isHexDigitLowercase),
                let pid = pid_t(parts[0]), pid > 0, kill(pid, 0) == -1, errno == ESRCH
            else { continue }
            let file = folder.appendingPathComponent(name).path
            let changed = (try? FileManager.default.attributesOfItem(atPath: file)[.modificationDate]) as? Date
            guard let changed, now.timeIntervalSince(changed) > 60 else { continue }
            remove(file)
        }
    }

    /// Syncs the closed build and gives it the name `path` without ever replacing a file
    /// there: `link` fails when the name exists (a `rename` would replace it).
    static func moveIntoPlace(_ building: String, to path: String) throws {
        // Closing the last connection checkpointed the log into the file and deleted it; a
        // log still holding pages would be lost with the build's name.
        if let size = (try? FileManager.default.attributesOfItem(atPath: building + "-wal")[.size]) as? NSNumber,
            size.intValue > 0
        {
            throw Failure.cannotMove(path: path, reason: "the new store's log was not written into it")
        }
        try synchronise(building, path: path)
        if link(building, path) != 0 {
            guard errno != EEXIST else { throw Failure.storeAppeared(path: path) }
            guard [EPERM, EOPNOTSUPP, ENOTSUP, ENOSYS].contains(errno) else {
                throw Failure.cannotMove(path: path, reason: String(cString: strerror(errno)))
            }
            // A file system without hard links (some network and FAT ones): check, then rename.
            guard !FileManager.default.fileExists(atPath: path) else { throw Failure.storeAppeared(path: path) }
            guard rename(building, path) == 0 else {
                throw Failure.cannotMove(path: path, reason: String(cString: strerror(errno)))
            }
        }
        // The build's own name after a link, and its companions after either move.
        remove(building)
        try? synchronise(URL(fileURLWithPath: path).deletingLastPathComponent().path, path: path)
    }

    /// `fsync` of a file or folder: the build was written without syncs.
    static func synchronise(_ file: String, path: String) throws {
        let descriptor = open(file, O_RDONLY)
        guard descriptor >= 0 else { throw Failure.cannotMove(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw Failure.cannotMove(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// The private file and its companions.
    static func remove(_ building: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { unlink(building + suffix) }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
    fileprivate var isHexDigitLowercase: Bool { isASCIIDigit || ("a"..."f").contains(self) }
}

import ArgumentParser
import Foundation
import HealthSQLite

extension DatabaseOptions {
    /// Opens the store, or explains that there is none yet: a command that only reads never
    /// creates one (a mistyped `--db` is an error, not an empty store).
    func open() throws -> HealthDatabase {
        guard FileManager.default.fileExists(atPath: path) else {
            printError("error: no store at \(path); run `healthpipe import` first.")
            throw ExitCode(2)
        }
        return try StoreOpening.open(path)
    }
}

/// Opening a store file, its problems said in one line: the path and why (`permission
/// denied`), then exit 2 — never `SQLite error 14` or a Foundation error dump.
enum StoreOpening {
    static func open(_ path: String) throws -> HealthDatabase {
        do {
            return try HealthDatabase(path: path)
        } catch {
            throw explained(error, path: path)
        }
    }

    /// `error`, or — when it is about the file or its folders — exit 2 after one line with
    /// the path and why.
    static func explained(_ error: any Error, path: String) -> any Error {
        guard let access = StoreAccessError.explaining(error, path: path) else { return error }
        printError("error: \(access)")
        return ExitCode(2)
    }

    /// Removes the store at `path` and its companions (`-wal`, `-shm`): one created for a
    /// write that then failed.
    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}

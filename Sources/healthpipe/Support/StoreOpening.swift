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

    /// Opens the store for a command that writes to it (`import`, `log` with values, `plan
    /// add`, `coach`), creating it when there is none, and saying so.
    func openOrCreate() throws -> HealthDatabase {
        let existed = FileManager.default.fileExists(atPath: path)
        let database = try StoreOpening.open(path)
        if !existed { printError("Created a new store at \(path).") }
        return database
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
}

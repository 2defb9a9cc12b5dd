import ArgumentParser
import Foundation
import HealthCore
import HealthServer
import HealthServerHost
import HealthServerRecords
import HealthServerStorage

/// Where the server keeps its records: an SQLite file (`--server-db`, the default) or
/// PostgreSQL (`--postgres URL`, or `HEALTHPIPE_POSTGRES_URL` so the password stays out of
/// `ps`). `--db` names a health store in every command (``DatabaseOptions``), so here it is
/// refused with the flag meant.
struct ServerDatabaseOptions: ParsableArguments {
    @Option(
        name: .customLong("server-db"), help: "The server's SQLite file (default: $XDG_DATA_HOME/healthpipe/server.sqlite).")
    var db: String?

    @Option(name: .customLong("db"), help: .hidden)
    var healthStore: String?

    @Option(
        help: ArgumentHelp(
            "PostgreSQL instead of SQLite: postgres://user[:password]@host[:port]/database[?sslmode=disable|prefer|require].",
            discussion: "HEALTHPIPE_POSTGRES_URL is read when this is not given."))
    var postgres: String?

    var postgresURL: String? {
        postgres ?? ProcessInfo.processInfo.environment["HEALTHPIPE_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func validate() throws {
        try ServerDatabaseOptions.refuseHealthStoreFlag(healthStore)
        if db != nil, postgresURL != nil { throw ValidationError("give --server-db or --postgres, not both") }
    }

    /// `--db` given to a command about the server's records: the flag names a health store.
    static func refuseHealthStoreFlag(_ value: String?) throws {
        guard value != nil else { return }
        throw ValidationError("--db names a health store (import, days, sync…); the server's SQLite file is --server-db")
    }

    /// The SQLite file (also when PostgreSQL is used: its folder holds users' samples).
    var path: String {
        db ?? (DatabaseOptions.defaultPath() as NSString).deletingLastPathComponent + "/server.sqlite"
    }

    /// Human-readable, without a password.
    var described: String {
        guard let url = postgresURL.flatMap(URLComponents.init(string:)) else { return path }
        return "postgres://\(url.host ?? "")\(url.port.map { ":\($0)" } ?? "")\(url.path)"
    }

    func open() async throws -> any ServerStore {
        if let url = postgresURL { return try await PostgresServerStore(url: url) }
        return try sqlite()
    }

    /// The SQLite file opened, or its problem said in one line (``StoreOpening``).
    func sqlite() throws -> SQLiteServerStore {
        do { return try SQLiteServerStore(path: path) } catch { throw StoreOpening.explained(error, path: path) }
    }

    /// Where the server's records and the users' samples are: all in PostgreSQL with
    /// `--postgres`, else the SQLite file and a file per user under `dataFolder/users`.
    func location(dataFolder: String) -> ServerStoreLocation {
        postgresURL.map { .postgres(url: $0) } ?? .sqlite(path: path, dataFolder: dataFolder)
    }

    /// The server's records and the users' samples, opened once (``ServerHost``, the
    /// composition root); `close()` releases them.
    func openHost(dataFolder: String) async throws -> ServerHost {
        do {
            return try await ServerHost.open(location(dataFolder: dataFolder), dataFolder: dataFolder)
        } catch  where postgresURL == nil {
            throw StoreOpening.explained(error, path: path)
        }
    }

    /// With SQLite, locks the data folder and the server's file (creating their folders) for
    /// as long as the locks live: one server per folder and file (issue 32, M6). When another
    /// process holds one, prints `refused(error)` and exits 2. With PostgreSQL: no lock
    /// (several servers share the database).
    func lockSQLite(dataFolder: String, refused: (DataFolderInUse) -> String) throws -> [DataFolderLock] {
        guard postgresURL == nil else { return [] }
        do {
            try FileManager.default.createDirectory(atPath: dataFolder, withIntermediateDirectories: true)
            let databaseFolder = (path as NSString).deletingLastPathComponent
            if !databaseFolder.isEmpty {
                try FileManager.default.createDirectory(atPath: databaseFolder, withIntermediateDirectories: true)
            }
            let folderLock = try DataFolderLock(folder: dataFolder)
            return [folderLock, try DataFolderLock(path: path + ".lock", guarding: path)]
        } catch let error as DataFolderInUse {
            printError("error: \(refused(error))")
            throw ExitCode(2)
        } catch {
            throw StoreOpening.explained(error, path: path)
        }
    }

    /// Runs `body` on the opened store and closes it, also when `body` throws.
    func withStore<T>(_ body: (any ServerStore) async throws -> T) async throws -> T {
        let store = try await open()
        do {
            let result = try await body(store)
            await store.close()
            return result
        } catch {
            await store.close()
            throw error
        }
    }
}

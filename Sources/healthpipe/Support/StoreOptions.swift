import ArgumentParser
import Foundation
import HealthCore
import HealthImport
import HealthPostgres
import HealthSQLite
import HealthServerRecords
import HealthServerStorage

/// The health store a command works on (``UserHealthStore``, the port the server uses too),
/// chosen once for every command that can use either:
/// the SQLite file (`--db`, the default) or one user's samples in a PostgreSQL database
/// (`--postgres URL --user ID`, the store `healthpipe serve --postgres` keeps). The commands
/// that need the file itself (`stats`, `sync`, `mcp`, `dashboard`: its change watcher and
/// table counts) take ``DatabaseOptions`` alone.
struct StoreOptions: ParsableArguments {
    @OptionGroup var file: DatabaseOptions

    @Option(
        name: .customLong("postgres"),
        help: "Use the samples in this PostgreSQL database (postgres://user[:password]@host[:port]/database) instead of --db.")
    var url: String?

    @Option(help: "With --postgres: whose samples (a user id, as `healthpipe users list --postgres` shows it).")
    var user: String?

    func validate() throws {
        if url != nil, user?.isEmpty ?? true {
            throw ValidationError("--postgres needs --user, the user id whose samples to use")
        }
        if url == nil, user != nil { throw ValidationError("--user goes with --postgres") }
        if url != nil, file.db != nil { throw ValidationError("give --db or --postgres, not both") }
    }

    /// Runs `body` with the store, closed afterwards. `creating`: a command that writes
    /// (`import`, `log` with values, `plan add`, `coach`) creates a missing SQLite file — and
    /// says so once it has written, or removes it again when it fails — and may start a
    /// PostgreSQL user with no samples; otherwise a missing file, or a user unknown (no
    /// server's row, or no samples without a server), is an error that says so (a mistyped
    /// path or id is never an empty store). `building`: a missing SQLite file is written
    /// privately beside its path and moved there when `body` succeeds (``PrivateStoreBuild``:
    /// an import writes it without a journal).
    func withStore<T>(
        creating: Bool = false, building: Bool = false, _ body: (any UserHealthStore) async throws -> T
    ) async throws -> T {
        guard let url, let user else {
            let existed = FileManager.default.fileExists(atPath: file.path)
            if creating, building, !existed, PrivateStoreBuild.canBuild(at: file.path) {
                let result = try await PrivateStoreBuild.run(at: file.path) { [file] path, configuration in
                    do {
                        return try HealthDatabase(path: path, configuration: configuration)
                    } catch {
                        throw StoreOpening.explained(error, path: file.path)
                    }
                } body: {
                    try await body($0)
                }
                printError("Created a new store at \(file.path).")
                return result
            }
            // A build sweeps its folder itself (`run`); an import into the store does it here.
            if building { PrivateStoreBuild.removeAbandoned(beside: file.path) }
            let database = try creating ? StoreOpening.open(file.path) : file.open()
            do {
                let result = try await body(database)
                if !existed { printError("Created a new store at \(file.path).") }
                return result
            } catch {
                // A write that failed stored nothing: the store it created is not left behind.
                if !existed { StoreOpening.remove(file.path) }
                throw error
            }
        }
        let pool = try await PostgresPool(url: url)
        var opened: PostgresHealthDatabase?
        do {
            let database = try await PostgresHealthDatabase(pool: pool)
            opened = database
            // Beside a server's users, as the server writes: nothing for a user that is not
            // (or no longer) one of them.
            try await database.requireOwnersIfPresent(in: "users")
            let store = database.store(for: user)
            // A server's user is known by its row (their samples, log or plans may be none
            // yet); without a server, by samples stored: a mistyped id is never an empty store.
            switch try await database.isOwner(user) {
            case false?:
                printError(
                    "error: no user with id '\(user)' in \(pool.url.server); `healthpipe users list --postgres` shows the ids (--user takes the id, not the name)"
                )
                throw ExitCode(2)
            case nil where !creating:
                if try await store.latestAnchor() == .initial {
                    printError(
                        "error: no samples stored for user '\(user)' in \(pool.url.server); `healthpipe users list --postgres` shows the ids"
                    )
                    throw ExitCode(2)
                }
            default: break
            }
            let result = try await body(store)
            await database.close()
            await pool.close()
            return result
        } catch {
            await opened?.close()
            await pool.close()
            throw error
        }
    }
}

extension StoreOptions {
    /// Runs `body` with the store's samples (``withStore(creating:_:)``).
    func withQueries<T>(_ body: (any MutableHealthStore) async throws -> T) async throws -> T {
        try await withStore { try await body($0.queries) }
    }
}

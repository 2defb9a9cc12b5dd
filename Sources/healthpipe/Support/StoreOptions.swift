import ArgumentParser
import Foundation
import HealthCore
import HealthPostgres

/// `--postgres URL --user ID`: one user's samples in a PostgreSQL database (the store
/// `healthpipe serve --postgres` keeps) instead of the SQLite file.
struct PostgresStoreOptions: ParsableArguments {
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
    }

    /// Runs `body` with the user's PostgreSQL store with `--postgres`, else with the SQLite
    /// store of `--db` (which must exist). Both list their types (type names a store holds
    /// beyond the table of names, ``TypeArgument``).
    func withStore<T>(
        orSQLite database: DatabaseOptions, _ body: (any MutableHealthStore) async throws -> T
    ) async throws -> T {
        if let result = try await withStore({ try await body($0) }) { return result }
        return try await body(database.open().store)
    }

    /// Runs `body` with the user's store, the pool closed afterwards; `nil` without `--postgres`.
    /// `reading`: a user with no samples is an error that says so (a mistyped id would
    /// otherwise read as a user without data).
    func withStore<T>(reading: Bool = true, _ body: (PostgresHealthStore) async throws -> T) async throws -> T? {
        guard let url, let user else { return nil }
        let pool = try await PostgresPool(url: url)
        var opened: PostgresHealthDatabase?
        do {
            let database = try await PostgresHealthDatabase(pool: pool)
            opened = database
            // Beside a server's users, as the server writes: nothing for a user that is not
            // (or no longer) one of them.
            try await database.requireOwnersIfPresent(in: "users")
            let store = database.store(for: user)
            if reading, try await store.latestAnchor() == .initial {
                printError(
                    "error: no samples stored for user '\(user)' in \(pool.url.server); `healthpipe users list --postgres` shows the ids"
                )
                throw ExitCode(2)
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

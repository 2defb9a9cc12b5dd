import ArgumentParser
import Foundation
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

    /// Runs `body` with the user's store, the pool closed afterwards; `nil` without `--postgres`.
    func withStore<T>(_ body: (PostgresHealthStore) async throws -> T) async throws -> T? {
        guard let url, let user else { return nil }
        let pool = try await PostgresPool(url: url)
        do {
            let database = try await PostgresHealthDatabase(pool: pool)
            let result = try await body(database.store(for: user))
            await database.close()
            await pool.close()
            return result
        } catch {
            await pool.close()
            throw error
        }
    }
}

import ArgumentParser
import Foundation
import HealthPostgres
import HealthServer
import HealthServerStorage

/// `healthpipe migrate --from-sqlite DIR --postgres URL`: a `serve --server-db` deployment moved
/// into PostgreSQL, for `serve --postgres` on as many machines as needed.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Move a SQLite server deployment (server.sqlite and users/*.sqlite) into PostgreSQL.",
        discussion: """
            Users, tokens, daily metrics, devices and keys, consents, sessions, import history, and every \
            user's samples with their anchors and UUIDs: each change feed reads the same afterwards, so sync \
            clients carry on. The move checks that, feed by feed, and is refused into a database that has \
            users already or while an import is running. Stop the SQLite server first. See docs/store.md. \
            Device keys move as stored, sealed under the deployment's server key (server.key in --from-sqlite, \
            or HEALTHPIPE_SERVER_KEY): give every `serve --postgres` that same key.
            """)

    @Option(help: "The deployment's data folder (serve's --data-dir, holding users/).")
    var fromSqlite: String

    @Option(name: .customLong("server-db"), help: "The server's SQLite file (default: server.sqlite in --from-sqlite).")
    var db: String?

    @Option(name: .customLong("db"), help: .hidden)
    var healthStore: String?

    @Option(help: "The PostgreSQL database (or HEALTHPIPE_POSTGRES_URL): postgres://user[:password]@host[:port]/database.")
    var postgres: String?

    func validate() throws { try ServerDatabaseOptions.refuseHealthStoreFlag(healthStore) }

    func run() async throws {
        guard let url = postgres ?? ProcessInfo.processInfo.environment["HEALTHPIPE_POSTGRES_URL"] else {
            throw ValidationError("give --postgres URL (or HEALTHPIPE_POSTGRES_URL)")
        }
        // The server must be stopped: refused while one holds the folder (issue 32, M6).
        var lock: DataFolderLock?
        if FileManager.default.fileExists(atPath: fromSqlite) {
            do {
                lock = try DataFolderLock(folder: fromSqlite)
            } catch let error as DataFolderInUse {
                printError("error: healthpipe serve is running on \(error.path); stop it first")
                throw ExitCode(2)
            }
        }
        defer { withExtendedLifetime(lock) {} }
        let started = Date()
        let migration = DeploymentMigration(
            serverDatabase: db ?? (fromSqlite as NSString).appendingPathComponent("server.sqlite"), dataFolder: fromSqlite)
        let pool = try await PostgresPool(url: url)
        let report: DeploymentMigration.Report
        do {
            report = try await migration.run(to: pool) { printError("  \($0)") }
        } catch let error as DeploymentMigration.Refused {
            await pool.close()
            printError("error: \(error)")
            throw ExitCode(2)
        } catch {
            await pool.close()
            throw error
        }
        await pool.close()
        print(
            String(
                format:
                    "Moved %d users' samples (%d samples, %d tombstones) and %d server rows in %.1f s; %d changes compared, identical.",
                report.users, report.samples, report.tombstones, report.rows.values.reduce(0, +),
                Date().timeIntervalSince(started), report.changesCompared))
        if report.rows["device_key", default: 0] > 0 {
            let keyFile = (fromSqlite as NSString).appendingPathComponent(ServerKey.defaultFileName)
            printError(
                "Device keys moved as stored, sealed under the SQLite server's key: give every `serve --postgres` "
                    + "that key (\(keyFile), or \(ServerKey.environmentVariable) if that server used it).")
        }
    }
}

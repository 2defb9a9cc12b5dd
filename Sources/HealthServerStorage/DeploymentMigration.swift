import Foundation
import GRDB
import HealthCore
import HealthPostgres
import HealthSQLite
import HealthServerRecords
import PostgresNIO

/// `healthpipe migrate`: a SQLite deployment — `server.sqlite` and `users/<id>.sqlite` —
/// moved into PostgreSQL, row for row. Samples and tombstones keep their anchors, content
/// keys and UUIDs, so every change feed reads the same afterwards (and sync clients carry
/// on from the anchors they hold); the move checks that, feed by feed, before it reports.
public struct DeploymentMigration: Sendable {
    /// What the move did.
    public struct Report: Sendable {
        /// Rows copied per server table.
        public var rows: [String: Int] = [:]
        public var users = 0
        public var samples = 0
        public var tombstones = 0
        /// Changes compared, feed by feed, all identical.
        public var changesCompared = 0
    }

    /// A move that cannot start (the target is not empty, an import is running) or whose
    /// result differs from the source (never a health value in the message).
    public struct Refused: Error, CustomStringConvertible {
        public let description: String
    }

    /// The server's tables in the order their references need.
    static let tables: [(sqlite: String, postgres: String)] = [
        ("user", "users"), ("api_token", "api_token"), ("daily_metrics", "daily_metrics"),
        ("idempotency_key", "idempotency_key"), ("import_job", "import_job"), ("device", "device"),
        ("device_key", "device_key"), ("consent", "consent"), ("web_session", "web_session"),
        ("oauth_client", "oauth_client"), ("oauth_code", "oauth_code"), ("oauth_token", "oauth_token"),
    ]

    public let serverDatabase: String
    public let dataFolder: String

    /// The deployment of `serverDatabase` (`server.sqlite`) with users' samples in `dataFolder/users`.
    public init(serverDatabase: String, dataFolder: String) {
        self.serverDatabase = serverDatabase
        self.dataFolder = dataFolder
    }

    /// Moves everything into `pool`'s database, which must hold no users yet.
    public func run(to pool: PostgresPool, progress: @Sendable (String) -> Void = { _ in }) async throws -> Report {
        guard FileManager.default.fileExists(atPath: serverDatabase) else {
            throw Refused(description: "no server database at \(serverDatabase)")
        }
        let source = try SQLiteServerStore(path: serverDatabase)
        defer { Task { await source.close() } }
        guard try await source.unfinishedImports().isEmpty else {
            throw Refused(description: "an import is queued or running; move the deployment once it has ended")
        }
        let target = try await PostgresServerStore(pool: pool)
        let samples = try await PostgresHealthDatabase(pool: pool)
        defer { Task { await samples.close() } }
        let users = try await target.users()
        guard users.isEmpty else {
            throw Refused(description: "the PostgreSQL database has \(users.count) user(s) already; move into an empty one")
        }
        var report = Report()
        report.rows = try await copyServerTables(to: pool)
        progress("server tables: \(report.rows.values.reduce(0, +)) rows")
        for user in try await source.users() {
            let path = (dataFolder as NSString).appendingPathComponent("users/\(user.id).sqlite")
            guard FileManager.default.fileExists(atPath: path) else { continue }
            var configuration = HealthDatabase.Configuration()
            configuration.readOnly = true
            let database = try HealthDatabase(path: path, configuration: configuration)
            let (copied, deleted) = try await copySamples(of: database, to: samples.store(for: user.id))
            report.users += 1
            report.samples += copied
            report.tombstones += deleted
            report.changesCompared += try await compareFeeds(database, samples.store(for: user.id), user: user.name)
            progress("\(user.name): \(copied) samples, \(deleted) tombstones; change feeds identical")
        }
        return report
    }

    /// Every row of the server's tables, in one transaction.
    private func copyServerTables(to pool: PostgresPool) async throws -> [String: Int] {
        let queue = try DatabaseQueue(
            path: serverDatabase,
            configuration: {
                var c = GRDB.Configuration(); c.readonly = true; return c
            }())
        defer { try? queue.close() }
        var counts: [String: Int] = [:]
        try await pool.client.withTransaction(logger: pool.logger) { connection in
            for (from, to) in Self.tables {
                let rows = try queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM \"\(from)\"") }
                for row in rows {
                    var bindings = PostgresBindings()
                    var columns: [String] = []
                    for (column, value) in row {
                        columns.append(column)
                        switch value.storage {
                        case .null: bindings.appendNull()
                        case .int64(let number): bindings.append(number)
                        case .double(let number): bindings.append(number)
                        case .string(let text): bindings.append(text)
                        case .blob(let data): try bindings.append(data)
                        }
                    }
                    let placeholders = (1...columns.count).map { "$\($0)" }.joined(separator: ", ")
                    try await connection.query(
                        PostgresQuery(
                            unsafeSQL: "INSERT INTO \(to) (\(columns.joined(separator: ", "))) VALUES (\(placeholders))",
                            binds: bindings), logger: pool.logger)
                }
                counts[to] = rows.count
            }
        }
        return counts
    }

    /// One user's store, in one transaction: samples and tombstones with their anchors,
    /// records, summaries, characteristics, import runs; then the app's records.
    private func copySamples(of database: HealthDatabase, to store: PostgresHealthStore) async throws -> (Int, Int) {
        let tombstones = try database.storedTombstones()
        let last = try database.lastAnchor()
        let copied = try await store.write { writer in
            var after: Int64 = 0
            var copied = 0
            while true {
                let rows = try database.storedRows(after: after, limit: 2_000)
                guard let next = rows.last?.anchor else { break }
                try await writer.copy(rows)
                copied += rows.count
                after = next
            }
            try await writer.copy(tombstones)
            try await writer.copy(try database.storedRecords())
            try await writer.write(try database.storedActivitySummaries().map(HealthRecord.activitySummary))
            let characteristics = try database.storedCharacteristics()
            try await writer.writeCharacteristics(characteristics.entries, asOf: characteristics.asOf)
            for run in try database.storedImportRuns() { try await writer.recordImport(run) }
            writer.raiseLastAnchor(to: last.rawValue)
            return copied
        }
        let app = try database.storedAppData()
        try await PostgresAppData(store: store).copy(logs: app.logs, plans: app.plans, interactions: app.interactions)
        return (copied, tombstones.count)
    }

    /// Reads both change feeds of every type from the start and compares them change for
    /// change; returns how many there were.
    private func compareFeeds(_ source: HealthDatabase, _ target: PostgresHealthStore, user: String) async throws -> Int {
        let types = Set(try source.sampleCountsByType().keys.map(SampleType.init))
            .union(try source.storedTombstones().map(\.type))
        var compared = 0
        for type in types.sorted() {
            var (from, to) = (QueryAnchor.initial, QueryAnchor.initial)
            while true {
                let mine = try await source.store.changes(of: type, since: from, limit: 5_000)
                let theirs = try await target.changes(of: type, since: to, limit: 5_000)
                guard mine.changes == theirs.changes, mine.nextAnchor == theirs.nextAnchor else {
                    throw Refused(description: "\(user)'s change feed of \(type.identifier) differs after the move")
                }
                compared += mine.changes.count
                guard mine.hasMore else { break }
                (from, to) = (mine.nextAnchor, theirs.nextAnchor)
            }
        }
        guard try await target.latestAnchor() == (try source.lastAnchor()) else {
            throw Refused(description: "\(user)'s last anchor differs after the move")
        }
        return compared
    }
}

import Foundation
import GRDB
import HealthMetrics

/// The server's own records in one SQLite file (WAL): users, token hashes and daily
/// metrics. Migrations only append.
public final class SQLiteServerStore: UserRepository, DailyMetricsRepository, IdempotencyRepository, Sendable {
    let pool: DatabasePool

    public init(path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        pool = try DatabasePool(path: path, configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("server-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE user (
                        id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, scopes TEXT NOT NULL,
                        token_id TEXT NOT NULL UNIQUE, token_hash BLOB NOT NULL,
                        created_at REAL NOT NULL, revoked_at REAL
                    );
                    CREATE TABLE daily_metrics (
                        user_id TEXT NOT NULL REFERENCES user(id),
                        local_date TEXT NOT NULL,
                        normalization_version TEXT NOT NULL,
                        timezone TEXT NOT NULL,
                        utc_day_start REAL NOT NULL,
                        utc_day_end REAL NOT NULL,
                        steps_normalized INTEGER,
                        steps_raw_sum INTEGER,
                        steps_sources_json TEXT,
                        active_energy_kcal REAL,
                        sleep_hours REAL,
                        resting_hr_bpm REAL,
                        hrv_ms REAL,
                        created_at REAL NOT NULL,
                        updated_at REAL NOT NULL,
                        PRIMARY KEY (user_id, local_date, normalization_version)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("server-v2") { db in
            try db.execute(
                sql: """
                    CREATE TABLE idempotency_key (
                        user_id TEXT NOT NULL REFERENCES user(id),
                        key TEXT NOT NULL,
                        request_hash BLOB NOT NULL,
                        status INTEGER NOT NULL,
                        body BLOB NOT NULL,
                        created_at REAL NOT NULL,
                        PRIMARY KEY (user_id, key)
                    ) WITHOUT ROWID;
                    """)
        }
        try migrator.migrate(pool)
    }

    public func addUser(name: String, scopes: Set<Scope>) async throws -> (User, BearerToken) {
        let token = BearerToken.generate()
        let user = User(id: UUID().uuidString.lowercased(), name: name, scopes: scopes, createdAt: Date())
        try await pool.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE name = ?", arguments: [name]) == nil else {
                throw UserExistsError(name: name)
            }
            try db.execute(
                sql: "INSERT INTO user (id, name, scopes, token_id, token_hash, created_at) VALUES (?,?,?,?,?,?)",
                arguments: [
                    user.id, name, scopes.sorted().map(\.rawValue).joined(separator: ","), token.id, token.secretHash,
                    user.createdAt.timeIntervalSince1970,
                ])
        }
        return (user, token)
    }

    public func users() async throws -> [User] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, scopes, created_at, revoked_at FROM user ORDER BY created_at")
                .map(Self.user)
        }
    }

    public func revoke(name: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE user SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL",
                arguments: [Date().timeIntervalSince1970, name])
            return db.changesCount > 0
        }
    }

    public func authenticate(_ token: BearerToken) async throws -> User? {
        try await pool.read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT id, name, scopes, created_at, revoked_at, token_hash FROM user WHERE token_id = ?",
                    arguments: [token.id]),
                token.matches(row["token_hash"])
            else { return nil }
            let user = Self.user(row)
            return user.revokedAt == nil ? user : nil
        }
    }

    /// The columns of a day, in table order after the key.
    private static let valueColumns = """
        timezone, utc_day_start, utc_day_end, steps_normalized, steps_raw_sum, steps_sources_json, active_energy_kcal,
        sleep_hours, resting_hr_bpm, hrv_ms, created_at
        """

    public func upsert(_ days: [NormalizedDailyMetrics], userID: String) async throws -> UpsertCounts {
        let encoder = NormalizedDailyMetrics.backendEncoder()
        let rows: [(String, String, [DatabaseValue])] = try days.map { day in
            let sources = try day.stepsSources.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
            let values: [(any DatabaseValueConvertible)?] = [
                day.timezoneIdentifier, day.utcDayStart.timeIntervalSince1970, day.utcDayEnd.timeIntervalSince1970,
                day.stepsNormalized, day.stepsRawSum, sources, day.activeEnergyKcal, day.sleepHours, day.restingHRBpm,
                day.hrvMs, day.createdAt.timeIntervalSince1970,
            ]
            return (day.localDate, day.normalizationVersion, values.map { $0?.databaseValue ?? .null })
        }
        return try await pool.write { db in
            var counts = UpsertCounts()
            let now = Date().timeIntervalSince1970
            for (date, version, values) in rows {
                let stored = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT \(Self.valueColumns) FROM daily_metrics
                        WHERE user_id = ? AND local_date = ? AND normalization_version = ?
                        """, arguments: [userID, date, version])
                // `created_at` (last) says when a payload was computed, not what it holds: a
                // recomputation that yields the same values leaves the row alone.
                if let stored, Array(stored.databaseValues).dropLast() == values.dropLast() {
                    counts.unchanged += 1
                    continue
                }
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO daily_metrics (user_id, local_date, normalization_version, \(Self.valueColumns),
                        updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)
                        """, arguments: StatementArguments([userID, date, version] + values + [now.databaseValue]))
                if stored == nil { counts.inserted += 1 } else { counts.updated += 1 }
            }
            return counts
        }
    }

    public func dailyMetrics(
        userID: String, from first: String, through last: String, version: String
    ) async throws
        -> [NormalizedDailyMetrics]
    {
        let decoder = NormalizedDailyMetrics.backendDecoder()
        return try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT local_date, \(Self.valueColumns) FROM daily_metrics
                    WHERE user_id = ? AND normalization_version = ? AND local_date BETWEEN ? AND ? ORDER BY local_date
                    """, arguments: [userID, version, first, last]
            ).map { row in
                NormalizedDailyMetrics(
                    userID: userID, localDate: row[0], timezoneIdentifier: row[1],
                    utcDayStart: Date(timeIntervalSince1970: row[2]), utcDayEnd: Date(timeIntervalSince1970: row[3]),
                    stepsNormalized: row[4], stepsRawSum: row[5],
                    stepsSources: try (row[6] as String?).map {
                        try decoder.decode(StepsSourcesMetadata.self, from: Data($0.utf8))
                    }, activeEnergyKcal: row[7], sleepHours: row[8], restingHRBpm: row[9], hrvMs: row[10],
                    normalizationVersion: version, createdAt: Date(timeIntervalSince1970: row[11]))
            }
        }
    }

    public func remembered(userID: String, key: String) async throws -> RememberedResponse? {
        try await pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT request_hash, status, body FROM idempotency_key WHERE user_id = ? AND key = ?",
                arguments: [userID, key]
            ).map { RememberedResponse(requestHash: $0[0], status: $0[1], body: $0[2]) }
        }
    }

    public func remember(userID: String, key: String, response: RememberedResponse) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO idempotency_key (user_id, key, request_hash, status, body, created_at)
                    VALUES (?,?,?,?,?,?)
                    """,
                arguments: [userID, key, response.requestHash, response.status, response.body, Date().timeIntervalSince1970])
        }
    }

    public func ping() async throws {
        _ = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }

    /// Rows of daily metrics per user (for tests and `users list`).
    public func dailyRowCounts() async throws -> [String: Int] {
        try await pool.read { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT user_id, COUNT(*) FROM daily_metrics GROUP BY user_id")
                    .map { ($0[0] as String, $0[1] as Int) })
        }
    }

    private static func user(_ row: Row) -> User {
        let scopes: String = row["scopes"]
        return User(
            id: row["id"], name: row["name"], scopes: Scope.parse(scopes) ?? [],
            createdAt: Date(timeIntervalSince1970: row["created_at"]),
            revokedAt: (row["revoked_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }
}

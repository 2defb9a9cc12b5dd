import Foundation
import GRDB
import HealthMetrics

/// The server's own records in one SQLite file (WAL): users, token hashes and daily
/// metrics. Migrations only append.
public final class SQLiteServerStore: UserRepository, DailyMetricsRepository, Sendable {
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
                        payload TEXT NOT NULL,
                        updated_at REAL NOT NULL,
                        PRIMARY KEY (user_id, local_date, normalization_version)
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

    public func upsert(_ days: [NormalizedDailyMetrics], userID: String) async throws -> UpsertCounts {
        let encoder = NormalizedDailyMetrics.backendEncoder()
        let payloads = try days.map { day in
            (day.localDate, day.normalizationVersion, String(decoding: try encoder.encode(day), as: UTF8.self))
        }
        return try await pool.write { db in
            var counts = UpsertCounts()
            let now = Date().timeIntervalSince1970
            for (date, version, payload) in payloads {
                let stored = try String.fetchOne(
                    db,
                    sql: "SELECT payload FROM daily_metrics WHERE user_id = ? AND local_date = ? AND normalization_version = ?",
                    arguments: [userID, date, version])
                if stored == payload {
                    counts.unchanged += 1
                    continue
                }
                try db.execute(
                    sql: """
                        INSERT INTO daily_metrics (user_id, local_date, normalization_version, payload, updated_at)
                        VALUES (?,?,?,?,?) ON CONFLICT (user_id, local_date, normalization_version)
                        DO UPDATE SET payload = excluded.payload, updated_at = excluded.updated_at
                        """, arguments: [userID, date, version, payload, now])
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
        let texts = try await pool.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT payload FROM daily_metrics WHERE user_id = ? AND normalization_version = ?
                    AND local_date BETWEEN ? AND ? ORDER BY local_date
                    """, arguments: [userID, version, first, last])
        }
        let decoder = NormalizedDailyMetrics.backendDecoder()
        return try texts.map { try decoder.decode(NormalizedDailyMetrics.self, from: Data($0.utf8)) }
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

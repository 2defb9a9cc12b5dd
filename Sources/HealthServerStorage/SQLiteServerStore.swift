import Foundation
import GRDB
import HealthCore
import HealthMetrics
import HealthSQLite
import HealthServerRecords
import HealthWire

/// The server's own records in one SQLite file (WAL): users, their tokens' hashes, daily metrics,
/// idempotency keys, import jobs, sync devices and their keys. Migrations only append.
public final class SQLiteServerStore: ServerStore, Sendable {
    let pool: DatabasePool
    /// The point reads every request makes (``pointRead(_:)``).
    let pointReads: PointReads
    /// The database file.
    let path: String

    public init(path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        // Deleted rows (a user deleting their data) are overwritten, not left in free pages.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA secure_delete = ON") }
        pool = try DatabasePool(path: path, configuration: configuration)
        try ServerSchema.sqliteMigrator.migrate(pool)
        pointReads = PointReads(path: path)
        self.path = path
        // A deletion's scrub that could not finish (``scrub()``) is done now, before any request.
        if FileManager.default.fileExists(atPath: scrubPendingPath),
            (try? pool.writeWithoutTransaction { db in try Self.scrub(db) }) != nil
        {
            try? FileManager.default.removeItem(atPath: scrubPendingPath)
        }
    }

    public func close() async {
        pointReads.close()
        try? pool.close()
    }

    /// One statement's read, on the calling thread when a point-read connection is idle
    /// (``PointReads``), else through the pool.
    func pointRead<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        if let value = try pointReads.read(body) { return value }
        return try await pool.unsafeRead(body)
    }

    /// None: one server owns an SQLite file, and imports run in it.
    public var sharedImportQueue: (any SharedImportQueue)? { nil }

    /// None: the server's own slots, in its process.
    public var sharedInFlightSlots: (any InFlightSlots)? { nil }

    public func addUser(name: String, scopes: Set<Scope>) async throws -> (User, BearerToken) {
        let token = BearerToken.generate()
        let now = Date()
        let owner = APIToken.owner(id: token.id, scopes: scopes, createdAt: now)
        let user = User(id: UUID().uuidString.lowercased(), name: name, token: owner, createdAt: now)
        try await pool.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE name = ?", arguments: [name]) == nil else {
                throw UserExistsError(name: name)
            }
            // The row keeps the token's id (its column is unique) and no hash: tokens are checked in api_token.
            try db.execute(
                sql: """
                    INSERT INTO user (id, name, scopes, token_id, token_hash, created_at) VALUES (?,?,?,?,X'',?)
                    """,
                arguments: [user.id, name, Scope.list(scopes), token.id, now.timeIntervalSince1970])
            try Self.insert(owner, hash: token.secretHash, userID: user.id, db)
        }
        return (user, token)
    }

    public func users() async throws -> [User] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(ServerSchema.userTokenColumns) FROM user u
                    JOIN api_token t ON t.user_id = u.id AND t.role = 'owner' ORDER BY u.created_at
                    """
            ).map(Self.user)
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

    public func deleteUser(id: String) async throws -> [String: Int] {
        let removed = try await pool.write { db in
            let importing = try Bool.fetchOne(
                db, sql: "SELECT 1 FROM import_job WHERE user_id = ? AND state IN ('queued', 'running') LIMIT 1",
                arguments: [id])
            guard importing == nil else { throw ImportInProgressError() }
            var removed: [String: Int] = [:]
            // Children first: every table that names the user, then the user (and token).
            try db.execute(
                sql: "DELETE FROM device_key WHERE device_id IN (SELECT id FROM device WHERE user_id = ?)", arguments: [id])
            removed["device_key"] = db.changesCount
            let tables = [
                "daily_metrics", "idempotency_key", "import_job", "device", "consent", "web_session", "oauth_code",
                "oauth_token", "api_token",
            ]
            for table in tables {
                try db.execute(sql: "DELETE FROM \(table) WHERE user_id = ?", arguments: [id])
                removed[table] = db.changesCount
            }
            try db.execute(sql: "DELETE FROM user WHERE id = ?", arguments: [id])
            removed["user"] = db.changesCount
            return removed
        }
        await scrub()
        return removed
    }

    /// Rewrites the file from its live rows (`VACUUM`) and empties the WAL into it, so no
    /// byte of a deleted row stays in either. `secure_delete` alone is not enough: it zeroes
    /// a deleted cell, but a page SQLite rebuilds while balancing keeps the stale bytes of
    /// cells it moved away in its unallocated space, and in `daily_metrics` (WITHOUT ROWID)
    /// every cell starts with the user's id (finding M9).
    ///
    /// Never fails the deletion it follows (committed already): when it cannot finish — a
    /// reader in another process holding an old snapshot past the busy timeout, a full disk —
    /// it leaves a marker (``scrubPendingPath``) and is done again at the next deletion or
    /// the next start (``init(path:)``) until it finishes.
    func scrub() async {
        let pending = scrubPendingPath
        do {
            try await pool.writeWithoutTransaction { db in try Self.scrub(db) }
            try? FileManager.default.removeItem(atPath: pending)
        } catch {
            FileManager.default.createFile(atPath: pending, contents: Data())
        }
    }

    /// `VACUUM`, then a truncating checkpoint, which throws `SQLITE_BUSY` when a reader kept
    /// it from finishing.
    static func scrub(_ db: Database) throws {
        try db.execute(sql: "VACUUM")
        _ = try db.checkpoint(.truncate)
    }

    /// The marker of a scrub still to do, beside the database.
    var scrubPendingPath: String { path + "-scrub-pending" }

    public func userExists(id: String) async throws -> Bool {
        try await pointRead { db in
            try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM user WHERE id = ?"), arguments: [id]) != nil
        }
    }

    public func homeZone(userID: String) async throws -> String? {
        try await pointRead { db in
            try String.fetchOne(db.cachedStatement(sql: "SELECT home_zone FROM user WHERE id = ?"), arguments: [userID])
        }
    }

    public func setHomeZone(_ zone: String, userID: String, onlyIfUnset: Bool) async throws -> String? {
        try await pool.write { db in
            try db.execute(
                sql: "UPDATE user SET home_zone = ? WHERE id = ?" + (onlyIfUnset ? " AND home_zone IS NULL" : ""),
                arguments: [zone, userID])
            return try String.fetchOne(db, sql: "SELECT home_zone FROM user WHERE id = ?", arguments: [userID])
        }
    }

    public func authenticate(_ token: BearerToken) async throws -> User? {
        try await authenticateWithConsent(token)?.user
    }

    /// The token's user and their consent in one statement (a point read).
    public func authenticateWithConsent(_ token: BearerToken) async throws -> (user: User, consent: ReadConsent)? {
        guard token.kind == .api else { return nil }
        return try await pointRead { db in
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT \(ServerSchema.userTokenColumns), t.hash, c.granted, c.denied, c.decided_at, c.declined_at
                            FROM api_token t JOIN user u ON u.id = t.user_id LEFT JOIN consent c ON c.user_id = u.id
                            WHERE t.id = ?
                            """),
                    arguments: [token.id]),
                token.matches(row[12])
            else { return nil }
            let user = Self.user(row)
            guard user.revokedAt == nil, user.token.revokedAt == nil else { return nil }
            return (user, .read(Self.consent(row, from: 13)))
        }
    }

    public func addToken(
        userID: String, name: String, readTypes: Set<HealthDataCategory>, writeTypes: Set<HealthDataCategory>
    ) async throws -> (APIToken, BearerToken) {
        try TokenError.check(name: name, readTypes: readTypes, writeTypes: writeTypes)
        let token = BearerToken.generate()
        let scoped = APIToken.scoped(
            id: token.id, name: name, readTypes: readTypes, writeTypes: writeTypes, createdAt: Date())
        try await pool.write { db in
            let live = try Bool.fetchOne(
                db, sql: "SELECT 1 FROM user WHERE id = ? AND revoked_at IS NULL", arguments: [userID])
            guard live != nil else { throw TokenError.noSuchUser(userID) }
            guard
                try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM api_token WHERE user_id = ? AND name = ? AND revoked_at IS NULL",
                    arguments: [userID, name]) == nil
            else { throw TokenError.exists(name) }
            try Self.insert(scoped, hash: token.secretHash, userID: userID, db)
        }
        return (scoped, token)
    }

    public func tokens(userID: String) async throws -> [APIToken] {
        try await pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(ServerSchema.tokenColumns) FROM api_token WHERE user_id = ?
                    ORDER BY CASE role WHEN 'owner' THEN 0 ELSE 1 END, created_at, name
                    """, arguments: [userID]
            ).map { Self.token($0, from: 0) }
        }
    }

    public func revokeToken(userID: String, name: String) async throws -> Bool {
        try await pool.write { db in
            try db.execute(
                sql: """
                    UPDATE api_token SET revoked_at = ?
                    WHERE user_id = ? AND name = ? AND role <> 'owner' AND revoked_at IS NULL
                    """,
                arguments: [Date().timeIntervalSince1970, userID, name])
            return db.changesCount > 0
        }
    }

    /// Stores `token` of `userID` with the hash of its secret.
    static func insert(_ token: APIToken, hash: Data, userID: String, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO api_token (id, user_id, role, name, scopes, read_types, write_types, hash, created_at)
                VALUES (?,?,?,?,?,?,?,?,?)
                """,
            arguments: [
                token.id, userID, token.role.rawValue, token.name, Scope.list(token.scopes),
                ServerSchema.storedKinds(token.readTypes), ServerSchema.storedKinds(token.writeTypes), hash,
                token.createdAt.timeIntervalSince1970,
            ])
    }

    public func remembered(userID: String, key: String, since: Date) async throws -> RememberedResponse? {
        try await pool.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT request_hash, status, body FROM idempotency_key
                    WHERE user_id = ? AND key = ? AND created_at >= ?
                    """,
                arguments: [userID, key, since.timeIntervalSince1970]
            ).map { RememberedResponse(requestHash: $0[0], status: $0[1], body: $0[2]) }
        }
    }

    public func remember(userID: String, key: String, response: RememberedResponse, at: Date) async throws {
        try await pool.write { db in
            let expired = at.timeIntervalSince1970 - 24 * 3600
            try db.execute(
                sql: "DELETE FROM idempotency_key WHERE user_id = ? AND created_at < ?", arguments: [userID, expired])
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO idempotency_key (user_id, key, request_hash, status, body, created_at)
                    VALUES (?,?,?,?,?,?)
                    """,
                arguments: [userID, key, response.requestHash, response.status, response.body, at.timeIntervalSince1970])
        }
    }

    public func ping() async throws {
        _ = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }

    public func saveImport(_ job: ImportJob, userID: String) async throws {
        let json = try job.storedJSON()
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO import_job (id, user_id, state, job_json, created_at) VALUES (?,?,?,?,?)
                    ON CONFLICT(id) DO UPDATE SET state = excluded.state, job_json = excluded.job_json
                    WHERE import_job.user_id = excluded.user_id
                    """,
                arguments: [job.id, userID, job.state.rawValue, json, job.createdAt.timeIntervalSince1970])
        }
    }

    public func importJob(id: String, userID: String) async throws -> ImportJob? {
        let json = try await pool.read { db in
            try String.fetchOne(
                db, sql: "SELECT job_json FROM import_job WHERE id = ? AND user_id = ?", arguments: [id, userID])
        }
        return try json.map { try ImportJob(storedJSON: $0) }
    }

    public func unfinishedImports() async throws -> [(userID: String, job: ImportJob)] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT user_id, job_json FROM import_job WHERE state IN ('queued', 'running')")
                .map { (userID: $0[0], job: try ImportJob(storedJSON: $0[1])) }
        }
    }

    /// A user with a token from a row of ``ServerSchema/userTokenColumns`` (first).
    static func user(_ row: Row) -> User {
        User(
            id: row[0], name: row[1], token: token(row, from: 4), createdAt: Date(timeIntervalSince1970: row[2]),
            revokedAt: (row[3] as Double?).map(Date.init(timeIntervalSince1970:)))
    }

    /// A token from the row's columns `first`… in ``ServerSchema/tokenColumns`` order.
    static func token(_ row: Row, from first: Int) -> APIToken {
        ServerSchema.token(
            id: row[first], role: row[first + 1], name: row[first + 2], scopes: row[first + 3],
            readTypes: row[first + 4], writeTypes: row[first + 5], createdAt: row[first + 6], revokedAt: row[first + 7])
    }
}

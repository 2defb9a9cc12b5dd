import Foundation
import HealthCore
import HealthMetrics
import HealthPostgres
import HealthServerRecords
import HealthWire
import Logging
import PostgresNIO

/// The server's own records in PostgreSQL (`healthpipe serve --postgres URL`): the same
/// tables as `SQLiteServerStore`, created by migrations that only append, applied under an
/// advisory lock so that several servers can start at once.
public final class PostgresServerStore: ServerStore, Sendable {
    /// The process's pool, shared with the health store.
    public let pool: PostgresPool
    var client: PostgresClient { pool.client }
    var logger: Logger { pool.logger }
    private let ownsPool: Bool

    /// Connects to `url` (`postgres://user:password@host:port/database?sslmode=…`), creates
    /// `schema` when given (tests use one schema each) and migrates.
    public convenience init(
        url: String, schema: String? = nil, logger: Logger = Logger(label: "healthpipe.postgres")
    )
        async throws
    {
        let pool = try await PostgresPool(url: url, schema: schema, logger: logger)
        do {
            try await self.init(pool: pool, ownsPool: true)
        } catch {
            await pool.close()
            throw error
        }
    }

    /// The server's tables in `pool`'s database, migrated; `close()` leaves the pool open
    /// unless `ownsPool`.
    public init(pool: PostgresPool, ownsPool: Bool = false) async throws {
        self.pool = pool
        self.ownsPool = ownsPool
        try await pool.migrate(ServerSchema.migrations.map { PostgresPool.Migration(id: $0.id, statements: $0.postgres) })
    }

    public func close() async {
        if ownsPool { await pool.close() }
    }

    // MARK: users

    public func addUser(name: String, scopes: Set<Scope>) async throws -> (User, BearerToken) {
        let token = BearerToken.generate()
        let now = Date()
        let owner = APIToken.owner(id: token.id, scopes: scopes, createdAt: now)
        let user = User(id: UUID().uuidString.lowercased(), name: name, token: owner, createdAt: now)
        let scopeList = Scope.list(scopes)
        let created = now.timeIntervalSince1970
        let added = try await client.withTransaction(logger: logger) { connection in
            // The row keeps the token's id (its column is unique) and no hash: tokens are checked in api_token.
            let inserted = try await connection.query(
                """
                INSERT INTO users (id, name, scopes, token_id, token_hash, created_at)
                VALUES (\(user.id), \(name), \(scopeList), \(token.id), ''::bytea, \(created))
                ON CONFLICT (name) DO NOTHING RETURNING id
                """, logger: logger
            ).collect()
            guard !inserted.isEmpty else { return false }
            try await Self.insert(owner, hash: token.secretHash, userID: user.id, connection, logger: logger)
            return true
        }
        guard added else { throw UserExistsError(name: name) }
        return (user, token)
    }

    /// The 12 columns of ``ServerSchema/userTokenColumns``.
    typealias UserColumns = (
        String, String, Double, Double?, String, String, String, String, String?, String?, Double, Double?
    )

    /// A user with a token from a row that starts with ``ServerSchema/userTokenColumns``.
    static func user(_ row: PostgresRow) throws -> User {
        let columns = try row.decode(UserColumns.self)
        let token = ServerSchema.token(
            id: columns.4, role: columns.5, name: columns.6, scopes: columns.7, readTypes: columns.8,
            writeTypes: columns.9, createdAt: columns.10, revokedAt: columns.11)
        return User(
            id: columns.0, name: columns.1, token: token, createdAt: Date(timeIntervalSince1970: columns.2),
            revokedAt: columns.3.map(Date.init(timeIntervalSince1970:)))
    }

    public func users() async throws -> [User] {
        try await client.query(
            """
            SELECT \(unescaped: ServerSchema.userTokenColumns) FROM users u
            JOIN api_token t ON t.user_id = u.id AND t.role = 'owner' ORDER BY u.created_at
            """, logger: logger
        ).collect().map(Self.user)
    }

    public func revoke(name: String) async throws -> Bool {
        let now = Date().timeIntervalSince1970
        return try await !client.query(
            "UPDATE users SET revoked_at = \(now) WHERE name = \(name) AND revoked_at IS NULL RETURNING id", logger: logger
        ).collect().isEmpty
    }

    /// Locks the user's row first (`FOR UPDATE`): it waits for every transaction that
    /// writes the user's data (each holds the row `FOR KEY SHARE`,
    /// ``PostgresHealthDatabase/requireOwners(in:)``), in any process, and those that come
    /// later find no user. Locking `users` before `device` also orders it after a sync
    /// batch, which holds the user and then updates its device. An unfinished import, seen
    /// under that lock (no new job can be queued for the user), refuses it: a claimed job's
    /// import would wait for this lock while this waited for the claim.
    public func deleteUser(id: String) async throws -> [String: Int] {
        do {
            return try await deleteUserRows(id: id)
        } catch let error as PostgresTransactionError where error.closureError is ImportInProgressError {
            throw ImportInProgressError()
        }
    }

    private func deleteUserRows(id: String) async throws -> [String: Int] {
        try await client.withTransaction(logger: logger) { connection in
            _ = try await connection.query("SELECT 1 FROM users WHERE id = \(id) FOR UPDATE", logger: logger).collect()
            let importing = try await connection.query(
                "SELECT 1 FROM import_job WHERE user_id = \(id) AND state IN ('queued', 'running') LIMIT 1",
                logger: logger
            ).collect()
            guard importing.isEmpty else { throw ImportInProgressError() }
            var removed: [String: Int] = [:]
            removed["device_key"] = try await connection.query(
                "DELETE FROM device_key WHERE device_id IN (SELECT id FROM device WHERE user_id = \(id)) RETURNING 1",
                logger: logger
            ).collect().count
            // The claims before the uploads, as a server finishing a job deletes them (its claim
            // row locked, then its upload, then the claim): the other order deadlocked with a
            // job whose end was saved and whose claim was not yet let go (a 500 on the deletion).
            for table in [
                "daily_metrics", "idempotency_key", "import_claim", "import_upload", "import_job", "device", "consent",
                "web_session", "oauth_code", "oauth_token", "api_token", "users",
            ] {
                let column = table == "users" ? "id" : "user_id"
                let rows = try await connection.query(
                    PostgresQuery(unsafeSQL: "DELETE FROM \(table) WHERE \(column) = $1 RETURNING 1", binds: Self.binds(id)),
                    logger: logger
                ).collect()
                removed[table == "users" ? "user" : table] = rows.count
            }
            return removed
        }
    }

    private static func binds(_ value: String) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(value)
        return binds
    }

    public func userExists(id: String) async throws -> Bool {
        try await !client.rows(PreparedReads.UserExists(userID: id), logger: logger).isEmpty
    }

    public func homeZone(userID: String) async throws -> String? {
        let rows = try await client.query("SELECT home_zone FROM users WHERE id = \(userID)", logger: logger)
        for try await zone in rows.decode(String?.self) { return zone }
        return nil
    }

    public func setHomeZone(_ zone: String, userID: String, onlyIfUnset: Bool) async throws -> String? {
        // One statement: the row as updated, else (already set, or no such user) as it is.
        let rows = try await client.query(
            """
            WITH set AS (
                UPDATE users SET home_zone = \(zone)
                WHERE id = \(userID) AND (NOT \(onlyIfUnset) OR home_zone IS NULL) RETURNING home_zone
            )
            SELECT home_zone FROM set UNION ALL
            SELECT home_zone FROM users WHERE id = \(userID) AND NOT EXISTS (SELECT 1 FROM set)
            """, logger: logger)
        for try await zone in rows.decode(String?.self) { return zone }
        return nil
    }

    public func authenticate(_ token: BearerToken) async throws -> User? {
        try await authenticateWithConsent(token)?.user
    }

    /// The token's user and their consent in one query (prepared: ``PreparedReads``).
    public func authenticateWithConsent(_ token: BearerToken) async throws -> (user: User, consent: ReadConsent)? {
        guard token.kind == .api else { return nil }
        let rows = try await client.rows(PreparedReads.TokenWithConsent(tokenID: token.id), logger: logger)
        for row in rows {
            let user = try Self.user(row)
            let columns = row.makeRandomAccess()
            let hash = try columns[12].decode(Data.self)
            guard token.matches(hash), user.revokedAt == nil, user.token.revokedAt == nil else { return nil }
            guard let decided = try columns[15].decode(Double?.self) else { return (user, .read(nil)) }
            let consent = Self.consent(
                granted: try columns[13].decode(String.self), denied: try columns[14].decode(String.self),
                decided: decided, declined: try columns[16].decode(Double?.self))
            return (user, .read(consent))
        }
        return nil
    }

    public func addToken(
        userID: String, name: String, readTypes: Set<HealthDataCategory>, writeTypes: Set<HealthDataCategory>
    ) async throws -> (APIToken, BearerToken) {
        try TokenError.check(name: name, readTypes: readTypes, writeTypes: writeTypes)
        let token = BearerToken.generate()
        let scoped = APIToken.scoped(
            id: token.id, name: name, readTypes: readTypes, writeTypes: writeTypes, createdAt: Date())
        let scopeList = Scope.list(scoped.scopes)
        let (reads, writes) = (ServerSchema.storedKinds(scoped.readTypes), ServerSchema.storedKinds(scoped.writeTypes))
        let created = scoped.createdAt.timeIntervalSince1970
        // Only for a live user; a live token of the same name (the unique index) inserts nothing.
        let inserted = try await client.query(
            """
            INSERT INTO api_token (id, user_id, role, name, scopes, read_types, write_types, hash, created_at)
            SELECT \(token.id), u.id, 'scoped', \(name), \(scopeList), \(reads), \(writes), \(token.secretHash),
                \(created)
            FROM users u WHERE u.id = \(userID) AND u.revoked_at IS NULL
            ON CONFLICT DO NOTHING RETURNING id
            """, logger: logger
        ).collect()
        guard inserted.isEmpty else { return (scoped, token) }
        let live = try await client.query(
            "SELECT id FROM users WHERE id = \(userID) AND revoked_at IS NULL", logger: logger
        ).collect()
        throw live.isEmpty ? TokenError.noSuchUser(userID) : TokenError.exists(name)
    }

    public func tokens(userID: String) async throws -> [APIToken] {
        try await client.query(
            """
            SELECT \(unescaped: ServerSchema.tokenColumns) FROM api_token WHERE user_id = \(userID)
            ORDER BY CASE role WHEN 'owner' THEN 0 ELSE 1 END, created_at, name
            """, logger: logger
        ).collect().map { row in
            let columns = try row.decode((String, String, String, String, String?, String?, Double, Double?).self)
            return ServerSchema.token(
                id: columns.0, role: columns.1, name: columns.2, scopes: columns.3, readTypes: columns.4,
                writeTypes: columns.5, createdAt: columns.6, revokedAt: columns.7)
        }
    }

    public func revokeToken(userID: String, name: String) async throws -> Bool {
        let now = Date().timeIntervalSince1970
        return try await !client.query(
            """
            UPDATE api_token SET revoked_at = \(now)
            WHERE user_id = \(userID) AND name = \(name) AND role <> 'owner' AND revoked_at IS NULL RETURNING id
            """, logger: logger
        ).collect().isEmpty
    }

    /// Stores `token` of `userID` with the hash of its secret, in `connection`'s transaction.
    static func insert(
        _ token: APIToken, hash: Data, userID: String, _ connection: PostgresConnection, logger: Logger
    ) async throws {
        let scopes = Scope.list(token.scopes)
        let (reads, writes) = (ServerSchema.storedKinds(token.readTypes), ServerSchema.storedKinds(token.writeTypes))
        let created = token.createdAt.timeIntervalSince1970
        try await connection.query(
            """
            INSERT INTO api_token (id, user_id, role, name, scopes, read_types, write_types, hash, created_at)
            VALUES (\(token.id), \(userID), \(token.role.rawValue), \(token.name), \(scopes), \(reads), \(writes),
                \(hash), \(created))
            """, logger: logger)
    }

    // MARK: idempotency keys

    public func remembered(userID: String, key: String, since: Date) async throws -> RememberedResponse? {
        let rows = try await client.query(
            """
            SELECT request_hash, status, body FROM idempotency_key
            WHERE user_id = \(userID) AND key = \(key) AND created_at >= \(since.timeIntervalSince1970)
            """,
            logger: logger)
        for try await (hash, status, body) in rows.decode((Data, Int, Data).self) {
            return RememberedResponse(requestHash: hash, status: status, body: body)
        }
        return nil
    }

    public func remember(userID: String, key: String, response: RememberedResponse, at: Date) async throws {
        try await client.query(try Self.remembering(userID: userID, key: key, response: response, at: at), logger: logger)
    }

    /// One statement, one round trip: the user's other expired keys go, this key's answer is
    /// kept — replacing its expired one, never a live one (the first of two at once wins) —
    /// and the slot whose hash is `slot` is given back (none without one: an empty hash names
    /// no slot). No row is touched twice: the `WITH` items and the insert run at once.
    static func remembering(
        userID: String, key: String, response: RememberedResponse, at: Date, freeing slot: Data? = nil
    ) throws -> PostgresQuery {
        let expired = at.timeIntervalSince1970 - 24 * 3600
        return try """
        WITH expired AS (
                DELETE FROM idempotency_key WHERE user_id = \(userID) AND created_at < \(expired) AND key <> \(key)),
            freed AS (DELETE FROM in_flight WHERE slot_hash = \(slot ?? Data()))
        INSERT INTO idempotency_key AS k (user_id, key, request_hash, status, body, created_at)
        VALUES (\(userID), \(key), \(response.requestHash), \(response.status), \(response.body),
            \(at.timeIntervalSince1970))
        ON CONFLICT (user_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, status = EXCLUDED.status,
            body = EXCLUDED.body, created_at = EXCLUDED.created_at
        WHERE k.created_at < \(expired)
        """
    }

    // MARK: import jobs

    public func saveImport(_ job: ImportJob, userID: String) async throws {
        let json = try job.storedJSON()
        try await client.query(
            """
            INSERT INTO import_job (id, user_id, state, job_json, created_at)
            VALUES (\(job.id), \(userID), \(job.state.rawValue), \(json), \(job.createdAt.timeIntervalSince1970))
            ON CONFLICT (id) DO UPDATE SET state = EXCLUDED.state, job_json = EXCLUDED.job_json
            WHERE import_job.user_id = EXCLUDED.user_id
            """, logger: logger)
    }

    public func importJob(id: String, userID: String) async throws -> ImportJob? {
        let rows = try await client.query(
            "SELECT job_json FROM import_job WHERE id = \(id) AND user_id = \(userID)", logger: logger)
        for try await json in rows.decode(String.self) {
            return try ImportJob(storedJSON: json)
        }
        return nil
    }

    public func unfinishedImports() async throws -> [(userID: String, job: ImportJob)] {
        try await client.query(
            "SELECT user_id, job_json FROM import_job WHERE state IN ('queued', 'running')", logger: logger
        ).collect().map { row in
            let (userID, json) = try row.decode((String, String).self)
            return (userID: userID, job: try ImportJob(storedJSON: json))
        }
    }
}

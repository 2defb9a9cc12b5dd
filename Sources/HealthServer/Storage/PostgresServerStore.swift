import Foundation
import HealthCore
import HealthMetrics
import HealthPostgres
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

    public func addUser(
        name: String, scopes: Set<Scope>, dataTypes: Set<HealthDataCategory>?
    ) async throws -> (User, BearerToken) {
        let token = BearerToken.generate()
        let user = User(
            id: UUID().uuidString.lowercased(), name: name, scopes: scopes, dataTypes: dataTypes, createdAt: Date())
        let scopeList = scopes.sorted().map(\.rawValue).joined(separator: ",")
        let typeList = dataTypes.map(HealthDataCategory.list)
        let inserted = try await client.query(
            """
            INSERT INTO users (id, name, scopes, data_types, token_id, token_hash, created_at)
            VALUES (\(user.id), \(name), \(scopeList), \(typeList), \(token.id), \(token.secretHash),
                \(user.createdAt.timeIntervalSince1970))
            ON CONFLICT (name) DO NOTHING RETURNING id
            """, logger: logger
        ).collect()
        guard !inserted.isEmpty else { throw UserExistsError(name: name) }
        return (user, token)
    }

    typealias UserColumns = (String, String, String, String?, Double, Double?)

    static func user(_ columns: UserColumns) -> User {
        User(
            id: columns.0, name: columns.1, scopes: Scope.parse(columns.2) ?? [],
            dataTypes: columns.3.map { HealthDataCategory.parse($0) ?? [] }, createdAt: Date(timeIntervalSince1970: columns.4),
            revokedAt: columns.5.map(Date.init(timeIntervalSince1970:)))
    }

    public func users() async throws -> [User] {
        var users: [User] = []
        let rows = try await client.query(
            "SELECT \(unescaped: ServerSchema.userColumnList()) FROM users ORDER BY created_at", logger: logger)
        for try await columns in rows.decode(UserColumns.self) { users.append(Self.user(columns)) }
        return users
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
            for table in [
                "daily_metrics", "idempotency_key", "import_upload", "import_claim", "import_job", "device", "consent",
                "web_session", "users",
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
        try await !client.query("SELECT 1 FROM users WHERE id = \(id)", logger: logger).collect().isEmpty
    }

    public func authenticate(_ token: BearerToken) async throws -> User? {
        let rows = try await client.query(
            "SELECT \(unescaped: ServerSchema.userColumnList()), token_hash FROM users WHERE token_id = \(token.id)",
            logger: logger)
        for try await (id, name, scopes, types, created, revoked, hash) in rows.decode(
            (String, String, String, String?, Double, Double?, Data).self)
        {
            guard token.matches(hash), revoked == nil else { return nil }
            return Self.user((id, name, scopes, types, created, revoked))
        }
        return nil
    }

    // MARK: idempotency keys

    public func remembered(userID: String, key: String) async throws -> RememberedResponse? {
        let rows = try await client.query(
            "SELECT request_hash, status, body FROM idempotency_key WHERE user_id = \(userID) AND key = \(key)",
            logger: logger)
        for try await (hash, status, body) in rows.decode((Data, Int, Data).self) {
            return RememberedResponse(requestHash: hash, status: status, body: body)
        }
        return nil
    }

    public func remember(userID: String, key: String, response: RememberedResponse) async throws {
        try await client.query(
            """
            INSERT INTO idempotency_key (user_id, key, request_hash, status, body, created_at)
            VALUES (\(userID), \(key), \(response.requestHash), \(response.status), \(response.body),
                \(Date().timeIntervalSince1970))
            ON CONFLICT (user_id, key) DO NOTHING
            """, logger: logger)
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

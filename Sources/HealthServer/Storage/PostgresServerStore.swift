import Foundation
import HealthMetrics
import Logging
import NIOSSL
import PostgresNIO

/// The server's own records in PostgreSQL (`healthpipe serve --postgres URL`): the same
/// tables as `SQLiteServerStore`, created by migrations that only append, applied under an
/// advisory lock so that several servers can start at once.
///
/// The store runs its connection pool itself; call `close()` when done.
public final class PostgresServerStore: ServerStore, Sendable {
    let client: PostgresClient
    private let runner: Task<Void, Never>
    private let logger: Logger

    /// Connects to `url` (`postgres://user:password@host:port/database?sslmode=…`), creates
    /// `schema` when given (tests use one schema each) and migrates.
    public init(url: String, schema: String? = nil, logger: Logger = Logger(label: "healthpipe.postgres")) async throws {
        let parts = try PostgresURL(url)
        var configuration = parts.clientConfiguration()
        if let schema {
            guard schema.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                throw PostgresURL.InvalidURL(reason: "a schema name is letters, digits and _ only")
            }
            configuration.options.additionalStartupParameters.append(("search_path", schema))
        }
        do {
            try await parts.probe(logger: logger)
        } catch {
            throw parts.describe(error)
        }
        let client = PostgresClient(configuration: configuration)
        self.client = client
        self.logger = logger
        runner = Task { await client.run() }
        do {
            if let schema { try await client.query("CREATE SCHEMA IF NOT EXISTS \(unescaped: schema)") }
            try await migrate()
        } catch {
            runner.cancel()
            throw parts.describe(error)
        }
    }

    public func close() async {
        runner.cancel()
        await runner.value
    }

    /// Each migration is a list of statements (the extended protocol runs one at a time).
    static let migrations: [(id: String, statements: [String])] = [
        (
            "server-v1",
            [
                """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, scopes TEXT NOT NULL,
                    token_id TEXT NOT NULL UNIQUE, token_hash BYTEA NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL, revoked_at DOUBLE PRECISION
                )
                """,
                """
                CREATE TABLE daily_metrics (
                    user_id TEXT NOT NULL REFERENCES users(id),
                    local_date TEXT NOT NULL,
                    normalization_version TEXT NOT NULL,
                    timezone TEXT NOT NULL,
                    utc_day_start DOUBLE PRECISION NOT NULL,
                    utc_day_end DOUBLE PRECISION NOT NULL,
                    steps_normalized BIGINT,
                    steps_raw_sum BIGINT,
                    steps_sources_json TEXT,
                    active_energy_kcal DOUBLE PRECISION,
                    sleep_hours DOUBLE PRECISION,
                    resting_hr_bpm DOUBLE PRECISION,
                    hrv_ms DOUBLE PRECISION,
                    created_at DOUBLE PRECISION NOT NULL,
                    updated_at DOUBLE PRECISION NOT NULL,
                    PRIMARY KEY (user_id, local_date, normalization_version)
                )
                """,
            ]
        ),
        (
            "server-v2",
            [
                """
                CREATE TABLE idempotency_key (
                    user_id TEXT NOT NULL REFERENCES users(id),
                    key TEXT NOT NULL,
                    request_hash BYTEA NOT NULL,
                    status INTEGER NOT NULL,
                    body BYTEA NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL,
                    PRIMARY KEY (user_id, key)
                )
                """
            ]
        ),
        (
            "server-v3",
            [
                """
                CREATE TABLE import_job (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id),
                    state TEXT NOT NULL,
                    job_json TEXT NOT NULL,
                    created_at DOUBLE PRECISION NOT NULL
                )
                """,
                "CREATE INDEX import_job_by_user ON import_job(user_id, created_at)",
            ]
        ),
    ]

    private func migrate() async throws {
        try await client.withTransaction(logger: logger) { connection in
            // One migrator at a time, across processes.
            try await connection.query("SELECT pg_advisory_xact_lock(7244231)", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
                """, logger: logger)
            var applied = Set<String>()
            for try await id in try await connection.query("SELECT id FROM schema_migrations", logger: logger)
                .decode(String.self)
            {
                applied.insert(id)
            }
            for migration in Self.migrations where !applied.contains(migration.id) {
                for statement in migration.statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO schema_migrations (id) VALUES (\(migration.id))", logger: logger)
            }
        }
    }

    // MARK: users

    public func addUser(name: String, scopes: Set<Scope>) async throws -> (User, BearerToken) {
        let token = BearerToken.generate()
        let user = User(id: UUID().uuidString.lowercased(), name: name, scopes: scopes, createdAt: Date())
        let scopeList = scopes.sorted().map(\.rawValue).joined(separator: ",")
        let inserted = try await client.query(
            """
            INSERT INTO users (id, name, scopes, token_id, token_hash, created_at)
            VALUES (\(user.id), \(name), \(scopeList), \(token.id), \(token.secretHash), \(user.createdAt.timeIntervalSince1970))
            ON CONFLICT (name) DO NOTHING RETURNING id
            """, logger: logger
        ).collect()
        guard !inserted.isEmpty else { throw UserExistsError(name: name) }
        return (user, token)
    }

    private typealias UserColumns = (String, String, String, Double, Double?)

    private static func user(_ columns: UserColumns) -> User {
        User(
            id: columns.0, name: columns.1, scopes: Scope.parse(columns.2) ?? [],
            createdAt: Date(timeIntervalSince1970: columns.3), revokedAt: columns.4.map(Date.init(timeIntervalSince1970:)))
    }

    public func users() async throws -> [User] {
        var users: [User] = []
        let rows = try await client.query(
            "SELECT id, name, scopes, created_at, revoked_at FROM users ORDER BY created_at", logger: logger)
        for try await columns in rows.decode(UserColumns.self) { users.append(Self.user(columns)) }
        return users
    }

    public func revoke(name: String) async throws -> Bool {
        let now = Date().timeIntervalSince1970
        return try await !client.query(
            "UPDATE users SET revoked_at = \(now) WHERE name = \(name) AND revoked_at IS NULL RETURNING id", logger: logger
        ).collect().isEmpty
    }

    public func authenticate(_ token: BearerToken) async throws -> User? {
        let rows = try await client.query(
            "SELECT id, name, scopes, created_at, revoked_at, token_hash FROM users WHERE token_id = \(token.id)",
            logger: logger)
        for try await (id, name, scopes, created, revoked, hash) in rows.decode(
            (String, String, String, Double, Double?, Data).self)
        {
            guard token.matches(hash), revoked == nil else { return nil }
            return Self.user((id, name, scopes, created, revoked))
        }
        return nil
    }

    // MARK: daily metrics

    public func upsert(_ days: [NormalizedDailyMetrics], userID: String) async throws -> UpsertCounts {
        let encoder = NormalizedDailyMetrics.backendEncoder()
        // One order for every writer, so two overlapping batches cannot deadlock; a day
        // given twice keeps its order (the later copy wins).
        let rows = try days.enumerated().map { (try DailyMetricsColumns($0.element, encoder: encoder), $0.offset) }
            .sorted { ($0.0.localDate, $0.0.normalizationVersion, $0.1) < ($1.0.localDate, $1.0.normalizationVersion, $1.1) }
            .map(\.0)
        let now = Date().timeIntervalSince1970
        return try await client.withTransaction(logger: logger) { connection in
            var counts = UpsertCounts()
            for chunk in Self.statementChunks(rows) {
                // Each row is inserted (xmax = 0), updated, or — when every value but
                // created_at is the same — left alone and not returned at all.
                var inserted = 0
                var returned = 0
                for row in try await connection.query(Self.upsertQuery(chunk, userID: userID, now: now), logger: logger)
                    .collect()
                {
                    returned += 1
                    if try row.decode(Bool.self) { inserted += 1 }
                }
                counts.inserted += inserted
                counts.updated += returned - inserted
                counts.unchanged += chunk.count - returned
            }
            return counts
        }
    }

    /// Runs of rows one statement can carry: at most 1,000 (15 parameters each), and no key
    /// twice (`ON CONFLICT` cannot touch a row twice in one statement).
    static func statementChunks(_ rows: [DailyMetricsColumns]) -> [ArraySlice<DailyMetricsColumns>] {
        var chunks: [ArraySlice<DailyMetricsColumns>] = []
        var start = rows.startIndex
        var keys = Set<String>()
        for index in rows.indices {
            let key = rows[index].localDate + "|" + rows[index].normalizationVersion
            if index - start == 1000 || keys.contains(key) {
                chunks.append(rows[start..<index])
                start = index
                keys = []
            }
            keys.insert(key)
        }
        if start < rows.endIndex { chunks.append(rows[start...]) }
        return chunks
    }

    private static let upsertColumns = """
        user_id, local_date, normalization_version, timezone, utc_day_start, utc_day_end, steps_normalized,
        steps_raw_sum, steps_sources_json, active_energy_kcal, sleep_hours, resting_hr_bpm, hrv_ms, created_at, updated_at
        """

    /// One multi-row `INSERT … ON CONFLICT DO UPDATE … WHERE (values) IS DISTINCT FROM …`.
    static func upsertQuery(_ rows: ArraySlice<DailyMetricsColumns>, userID: String, now: Double) -> PostgresQuery {
        var bindings = PostgresBindings(capacity: rows.count * 15)
        var tuples: [String] = []
        for day in rows {
            let first = bindings.count + 1
            tuples.append("(" + (first..<first + 15).map { "$\($0)" }.joined(separator: ",") + ")")
            bindings.append(userID)
            bindings.append(day.localDate)
            bindings.append(day.normalizationVersion)
            bindings.append(day.timezone)
            bindings.append(day.utcDayStart)
            bindings.append(day.utcDayEnd)
            bindings.append(day.stepsNormalized)
            bindings.append(day.stepsRawSum)
            bindings.append(day.stepsSourcesJSON)
            bindings.append(day.activeEnergyKcal)
            bindings.append(day.sleepHours)
            bindings.append(day.restingHRBpm)
            bindings.append(day.hrvMs)
            bindings.append(day.createdAt)
            bindings.append(now)
        }
        let compared = [
            "timezone", "utc_day_start", "utc_day_end", "steps_normalized", "steps_raw_sum", "steps_sources_json",
            "active_energy_kcal", "sleep_hours", "resting_hr_bpm", "hrv_ms",
        ]
        let updated = compared + ["created_at", "updated_at"]
        let sql = """
            INSERT INTO daily_metrics (\(upsertColumns)) VALUES \(tuples.joined(separator: ","))
            ON CONFLICT (user_id, local_date, normalization_version) DO UPDATE SET
                \(updated.map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", "))
            WHERE (\(compared.map { "daily_metrics.\($0)" }.joined(separator: ", ")))
                IS DISTINCT FROM (\(compared.map { "EXCLUDED.\($0)" }.joined(separator: ", ")))
            RETURNING (xmax = 0)
            """
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    public func dailyMetrics(
        userID: String, from first: String, through last: String, version: String
    ) async throws
        -> [NormalizedDailyMetrics]
    {
        let decoder = NormalizedDailyMetrics.backendDecoder()
        // Collected first: decoding a buffered row is cheaper than awaiting each one.
        let rows = try await client.query(
            """
            SELECT local_date, timezone, utc_day_start, utc_day_end, steps_normalized, steps_raw_sum, steps_sources_json,
                active_energy_kcal, sleep_hours, resting_hr_bpm, hrv_ms, created_at
            FROM daily_metrics
            WHERE user_id = \(userID) AND normalization_version = \(version) AND local_date BETWEEN \(first) AND \(last)
            ORDER BY local_date
            """, logger: logger
        ).collect()
        return try rows.map { row in
            let c = try row.decode(
                (String, String, Double, Double, Int?, Int?, String?, Double?, Double?, Double?, Double?, Double).self)
            return try DailyMetricsColumns(
                localDate: c.0, normalizationVersion: version, timezone: c.1, utcDayStart: c.2, utcDayEnd: c.3,
                stepsNormalized: c.4, stepsRawSum: c.5, stepsSourcesJSON: c.6, activeEnergyKcal: c.7, sleepHours: c.8,
                restingHRBpm: c.9, hrvMs: c.10, createdAt: c.11
            ).metrics(userID: userID, decoder: decoder)
        }
    }

    public func dailyRowCounts() async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        let rows = try await client.query("SELECT user_id, COUNT(*) FROM daily_metrics GROUP BY user_id", logger: logger)
        for try await (user, count) in rows.decode((String, Int).self) { counts[user] = count }
        return counts
    }

    public func ping() async throws {
        try await client.query("SELECT 1", logger: logger)
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
        let json = String(decoding: try ImportJob.encoder().encode(job), as: UTF8.self)
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
            return try ImportJob.decoder().decode(ImportJob.self, from: Data(json.utf8))
        }
        return nil
    }

    public func failUnfinishedImports(reason: String) async throws -> Int {
        var unfinished: [(String, String)] = []
        let rows = try await client.query(
            "SELECT user_id, job_json FROM import_job WHERE state IN ('queued', 'running')", logger: logger)
        for try await row in rows.decode((String, String).self) { unfinished.append(row) }
        for (userID, json) in unfinished {
            try await saveImport(
                try ImportJob.decoder().decode(ImportJob.self, from: Data(json.utf8)).failed(reason), userID: userID)
        }
        return unfinished.count
    }
}

/// `postgres://user:password@host:port/database?sslmode=disable|prefer|require`, read
/// into the pool's configuration and a one-off connection's. `sslmode` defaults to
/// `prefer` (TLS when the server offers it, its certificate not verified, as libpq does);
/// `require` verifies the certificate.
struct PostgresURL {
    struct InvalidURL: Error, CustomStringConvertible {
        let reason: String
        var description: String { "bad --postgres URL: \(reason)" }
    }

    /// Connection failures name the server, never the password.
    struct Unreachable: Error, CustomStringConvertible {
        let server: String
        let reason: String
        var description: String { "PostgreSQL at \(server): \(reason)" }
    }

    enum TLSMode { case disable, prefer, require }

    var host: String
    var port: Int
    var user: String
    var password: String?
    var database: String
    var tls: TLSMode

    init(_ text: String) throws {
        guard let url = URLComponents(string: text), ["postgres", "postgresql"].contains(url.scheme ?? "") else {
            throw InvalidURL(reason: "expected postgres://user[:password]@host[:port]/database")
        }
        guard let host = url.host, !host.isEmpty else { throw InvalidURL(reason: "no host") }
        guard let user = url.user, !user.isEmpty else { throw InvalidURL(reason: "no user name") }
        database = String(url.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty else { throw InvalidURL(reason: "no database name after the host") }
        switch url.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "prefer" {
        case "disable": tls = .disable
        case "prefer", "allow": tls = .prefer
        case "require", "verify-ca", "verify-full": tls = .require
        case let mode: throw InvalidURL(reason: "sslmode must be disable, prefer or require, not '\(mode)'")
        }
        self.host = host
        port = url.port ?? 5432
        self.user = user.removingPercentEncoding ?? user
        password = url.password.map { $0.removingPercentEncoding ?? $0 }
    }

    /// `host:port/database`, for messages.
    var server: String { "\(host):\(port)/\(database)" }

    private var tlsConfiguration: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if tls == .prefer { configuration.certificateVerification = .none }
        return configuration
    }

    func clientConfiguration() -> PostgresClient.Configuration {
        let clientTLS: PostgresClient.Configuration.TLS =
            switch tls {
            case .disable: .disable
            case .prefer: .prefer(tlsConfiguration)
            case .require: .require(tlsConfiguration)
            }
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: clientTLS)
        configuration.options.maximumConnections = 8
        return configuration
    }

    /// One connection, made at once: the pool retries a refused connection for a minute
    /// before it gives up, so the store first tries this to fail fast with the reason.
    func probe(logger: Logger) async throws {
        let connectionTLS: PostgresConnection.Configuration.TLS =
            switch tls {
            case .disable: .disable
            case .prefer: .prefer(try NIOSSLContext(configuration: tlsConfiguration))
            case .require: .require(try NIOSSLContext(configuration: tlsConfiguration))
            }
        let connection = try await PostgresConnection.connect(
            on: PostgresClient.defaultEventLoopGroup.next(),
            configuration: .init(
                host: host, port: port, username: user, password: password, database: database, tls: connectionTLS),
            id: 0, logger: logger
        ).get()
        try await connection.close()
    }

    /// `error` with the server named and the password left out.
    func describe(_ error: any Error) -> any Error {
        var error = error
        if let failed = error as? PostgresTransactionError {
            error = failed.closureError ?? failed.beginError ?? failed.commitError ?? error
        }
        if let error = error as? PSQLError {
            let reason = error.serverInfo?[.message] ?? error.underlying.map { "\($0)" } ?? "\(error.code)"
            return Unreachable(server: server, reason: reason)
        }
        return Unreachable(server: server, reason: "\(error)")
    }
}

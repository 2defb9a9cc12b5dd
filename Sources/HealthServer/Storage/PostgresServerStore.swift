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
        var configuration = try PostgresURL.configuration(url)
        if let schema {
            guard schema.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                throw PostgresURL.InvalidURL(reason: "a schema name is letters, digits and _ only")
            }
            configuration.options.additionalStartupParameters.append(("search_path", schema))
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
            throw PostgresURL.describe(error, url: url)
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
        // One order for every writer, so two overlapping batches cannot deadlock.
        let rows = try days.map { try DailyMetricsColumns($0, encoder: encoder) }
            .sorted { ($0.localDate, $0.normalizationVersion) < ($1.localDate, $1.normalizationVersion) }
        let now = Date().timeIntervalSince1970
        return try await client.withTransaction(logger: logger) { connection in
            var counts = UpsertCounts()
            for day in rows {
                // Inserted (xmax = 0), updated, or — when every value but created_at is the
                // same — left alone and not returned at all.
                let result = try await connection.query(
                    """
                    INSERT INTO daily_metrics (user_id, local_date, normalization_version, timezone, utc_day_start,
                        utc_day_end, steps_normalized, steps_raw_sum, steps_sources_json, active_energy_kcal, sleep_hours,
                        resting_hr_bpm, hrv_ms, created_at, updated_at)
                    VALUES (\(userID), \(day.localDate), \(day.normalizationVersion), \(day.timezone), \(day.utcDayStart),
                        \(day.utcDayEnd), \(day.stepsNormalized), \(day.stepsRawSum), \(day.stepsSourcesJSON),
                        \(day.activeEnergyKcal), \(day.sleepHours), \(day.restingHRBpm), \(day.hrvMs), \(day.createdAt), \(now))
                    ON CONFLICT (user_id, local_date, normalization_version) DO UPDATE SET
                        timezone = EXCLUDED.timezone, utc_day_start = EXCLUDED.utc_day_start,
                        utc_day_end = EXCLUDED.utc_day_end, steps_normalized = EXCLUDED.steps_normalized,
                        steps_raw_sum = EXCLUDED.steps_raw_sum, steps_sources_json = EXCLUDED.steps_sources_json,
                        active_energy_kcal = EXCLUDED.active_energy_kcal, sleep_hours = EXCLUDED.sleep_hours,
                        resting_hr_bpm = EXCLUDED.resting_hr_bpm, hrv_ms = EXCLUDED.hrv_ms,
                        created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at
                    WHERE (daily_metrics.timezone, daily_metrics.utc_day_start, daily_metrics.utc_day_end,
                        daily_metrics.steps_normalized, daily_metrics.steps_raw_sum, daily_metrics.steps_sources_json,
                        daily_metrics.active_energy_kcal, daily_metrics.sleep_hours, daily_metrics.resting_hr_bpm,
                        daily_metrics.hrv_ms)
                        IS DISTINCT FROM (EXCLUDED.timezone, EXCLUDED.utc_day_start, EXCLUDED.utc_day_end,
                        EXCLUDED.steps_normalized, EXCLUDED.steps_raw_sum, EXCLUDED.steps_sources_json,
                        EXCLUDED.active_energy_kcal, EXCLUDED.sleep_hours, EXCLUDED.resting_hr_bpm, EXCLUDED.hrv_ms)
                    RETURNING (xmax = 0)
                    """, logger: logger)
                var answered = false
                for try await inserted in result.decode(Bool.self) {
                    answered = true
                    if inserted { counts.inserted += 1 } else { counts.updated += 1 }
                }
                if !answered { counts.unchanged += 1 }
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
        let rows = try await client.query(
            """
            SELECT local_date, timezone, utc_day_start, utc_day_end, steps_normalized, steps_raw_sum, steps_sources_json,
                active_energy_kcal, sleep_hours, resting_hr_bpm, hrv_ms, created_at
            FROM daily_metrics
            WHERE user_id = \(userID) AND normalization_version = \(version) AND local_date BETWEEN \(first) AND \(last)
            ORDER BY local_date
            """, logger: logger)
        var days: [NormalizedDailyMetrics] = []
        for try await c in rows.decode(
            (String, String, Double, Double, Int?, Int?, String?, Double?, Double?, Double?, Double?, Double).self)
        {
            let columns = DailyMetricsColumns(
                localDate: c.0, normalizationVersion: version, timezone: c.1, utcDayStart: c.2, utcDayEnd: c.3,
                stepsNormalized: c.4, stepsRawSum: c.5, stepsSourcesJSON: c.6, activeEnergyKcal: c.7, sleepHours: c.8,
                restingHRBpm: c.9, hrvMs: c.10, createdAt: c.11)
            days.append(try columns.metrics(userID: userID, decoder: decoder))
        }
        return days
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

/// `postgres://user:password@host:port/database?sslmode=disable|prefer|require` →
/// a client configuration. `sslmode` defaults to `prefer` (TLS when the server offers
/// it, its certificate not verified, as libpq does); `require` verifies the certificate.
enum PostgresURL {
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

    static func configuration(_ text: String) throws -> PostgresClient.Configuration {
        guard let url = URLComponents(string: text), ["postgres", "postgresql"].contains(url.scheme ?? "") else {
            throw InvalidURL(reason: "expected postgres://user[:password]@host[:port]/database")
        }
        guard let host = url.host, !host.isEmpty else { throw InvalidURL(reason: "no host") }
        guard let user = url.user, !user.isEmpty else { throw InvalidURL(reason: "no user name") }
        let database = String(url.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty else { throw InvalidURL(reason: "no database name after the host") }
        let mode = url.queryItems?.first(where: { $0.name == "sslmode" })?.value ?? "prefer"
        let tls: PostgresClient.Configuration.TLS
        switch mode {
        case "disable":
            tls = .disable
        case "prefer", "allow":
            var unverified = TLSConfiguration.makeClientConfiguration()
            unverified.certificateVerification = .none
            tls = .prefer(unverified)
        case "require", "verify-ca", "verify-full":
            tls = .require(.makeClientConfiguration())
        default:
            throw InvalidURL(reason: "sslmode must be disable, prefer or require, not '\(mode)'")
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: url.port ?? 5432, username: user.removingPercentEncoding ?? user,
            password: url.password.map { $0.removingPercentEncoding ?? $0 }, database: database, tls: tls)
        configuration.options.maximumConnections = 32
        return configuration
    }

    /// `error` with the server named and the password left out.
    static func describe(_ error: any Error, url: String) -> any Error {
        guard let components = URLComponents(string: url) else { return error }
        let server = "\(components.host ?? "?"):\(components.port ?? 5432)\(components.path)"
        var error = error
        if let failed = error as? PostgresTransactionError {
            error = failed.closureError ?? failed.beginError ?? failed.commitError ?? error
        }
        if let error = error as? PSQLError {
            let reason = error.serverInfo?[.message] ?? "\(error.code)"
            return Unreachable(server: server, reason: reason)
        }
        return Unreachable(server: server, reason: "\(error)")
    }
}

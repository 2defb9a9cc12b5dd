import Foundation
import GRDB
import HealthMetrics
import HealthPostgres
import HealthServer
import HealthServerHost
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import Logging
import PostgresNIO
import Testing

/// The server's stores the tests run against. SQLite always; PostgreSQL when
/// `HEALTHPIPE_TEST_POSTGRES_URL` names a database (`.ci/run` starts one and sets it).
enum ServerBackend: String, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    static let postgresURL = ProcessInfo.processInfo.environment["HEALTHPIPE_TEST_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// Every test of the server takes these as its arguments.
    static let enabled: [ServerBackend] = postgresURL == nil ? [.sqlite] : [.sqlite, .postgres]

    var testDescription: String { rawValue }
}

/// A server on a fresh store (a new SQLite file, or a new PostgreSQL schema) with three
/// users: `alice` and `bob` (read, write) and `reader` (read only).
struct ServerHarness {
    let backend: ServerBackend
    let store: any ServerStore
    let folder: URL
    let app: any ApplicationProtocol
    /// What the application was built over.
    let repositories: ServerRepositories
    let tokens: [String: String]
    let ids: [String: String]
    let schema: String?
    /// With PostgreSQL, the users' samples are there too (as `serve --postgres` keeps them).
    let samples: PostgresHealthDatabase?

    /// `configure` adjusts the server's configuration, `adjust` its repositories (a test's
    /// stand-in for one of them) before the server is built.
    init(
        _ backend: ServerBackend, configure: (inout ServerConfiguration) -> Void = { _ in },
        adjust: (inout ServerRepositories) -> Void = { _ in }
    ) async throws {
        self.backend = backend
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("healthpipe-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        switch backend {
        case .sqlite:
            schema = nil
            samples = nil
            store = try SQLiteServerStore(path: folder.appendingPathComponent("server.sqlite").path)
        case .postgres:
            let schema = try await TestSchemas.shared.make()
            self.schema = schema
            let server = try await PostgresServerStore(url: ServerBackend.postgresURL!, schema: schema)
            store = server
            samples = try await PostgresHealthDatabase(pool: server.pool)
        }
        var tokens: [String: String] = [:]
        var ids: [String: String] = [:]
        for (name, scopes) in [("alice", "read,write"), ("bob", "read,write"), ("reader", "read")] {
            let (user, token) = try await store.addUser(name: name, scopes: Scope.parse(scopes)!)
            tokens[name] = token.text
            ids[name] = user.id
        }
        self.tokens = tokens
        self.ids = ids
        var configuration = ServerConfiguration()
        configure(&configuration)
        let healthStores: any UserHealthStores =
            samples.map(PostgresUserHealthStores.init(database:)) ?? SQLiteUserHealthStores(folder: folder.path)
        // Built as `healthpipe serve` builds it (the composition root), over this test's stores.
        var host = ServerHost(
            storage: ServerStorage(records: store, healthStores: healthStores, release: {}), dataFolder: folder.path)
        adjust(&host.repositories)
        repositories = host.repositories
        app = try host.application(configuration: configuration)
    }

    /// A second server on this harness's PostgreSQL schema (its users, its samples), with
    /// its own pool and its own import queue loop, as another process would be.
    func anotherServer() async throws -> OtherServer {
        let store = try await PostgresServerStore(url: ServerBackend.postgresURL!, schema: schema!)
        let samples = try await PostgresHealthDatabase(pool: store.pool)
        let app = try ServerHost(
            storage: ServerStorage(records: store, healthStores: PostgresUserHealthStores(database: samples), release: {}),
            dataFolder: folder.appendingPathComponent("second").path
        ).application(configuration: ServerConfiguration())
        return OtherServer(store: store, samples: samples, app: app)
    }

    struct OtherServer {
        let store: PostgresServerStore
        let samples: PostgresHealthDatabase
        let app: any ApplicationProtocol

        func close() {
            let (store, samples) = (store, samples)
            Task {
                await samples.close()
                await store.close()
            }
        }
    }

    /// Removes the folder; closes the store and drops its schema in the background (a
    /// schema left behind is swept by the next run).
    func cleanUp() {
        try? FileManager.default.removeItem(at: folder)
        let (store, schema, samples) = (store, schema, samples)
        Task {
            await samples?.close()
            await store.close()
            if let schema { await TestSchemas.shared.drop(schema) }
        }
    }

    func headers(_ user: String?, json: Bool = true, idempotencyKey: String? = nil) -> HTTPFields {
        var fields: HTTPFields = [:]
        if let user { fields[.authorization] = "Bearer \(tokens[user] ?? user)" }
        if json { fields[.contentType] = "application/json" }
        if let idempotencyKey { fields[.init("Idempotency-Key")!] = idempotencyKey }
        return fields
    }

    /// Posts `SamplesRouteTests.batch` (steps, resting HR and a night on 2024-06-01) for
    /// `user`, and settles its days (``settleDays(_:user:)``).
    func postSampleBatch(_ client: some TestClientProtocol, user: String = "alice") async throws {
        try await client.execute(
            uri: "/v1/samples", method: .post, headers: headers(user, idempotencyKey: "one"),
            body: ByteBuffer(string: SamplesRouteTests.batch)
        ) { response in
            #expect(response.status == .ok)
        }
        try await settleDays(client, user: user)
    }

    /// Computes the days `user`'s writes left pending (the server computes them after its
    /// answers): a read of days computes what is still dirty first, under the person's days
    /// lock, so afterwards no computation of those writes is left to change a table.
    func settleDays(_ client: some TestClientProtocol, user: String) async throws {
        try await client.execute(
            uri: "/v1/daily-metrics?from=2000-01-01&to=2000-01-01", method: .get, headers: headers(user)
        ) { response in
            #expect(response.status == .ok)
        }
    }

    /// Headers of an export.zip upload.
    func upload(_ user: String) -> HTTPFields {
        var fields = headers(user, json: false)
        fields[.contentType] = "application/zip"
        return fields
    }

    /// A day in `zone` with its true UTC bounds and the given values.
    static func day(
        _ date: String, zone: String = "Europe/Amsterdam", steps: Int? = 8000, sleep: Double? = 8, restingHR: Double? = 55,
        hrv: Double? = exp(4), energy: Double? = 500
    ) -> NormalizedDailyMetrics {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        let parts = date.split(separator: "-").map { Int($0)! }
        let start = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))!
        let end = calendar.date(byAdding: .day, value: 1, to: start)!
        return NormalizedDailyMetrics(
            localDate: date, timezoneIdentifier: zone, utcDayStart: start, utcDayEnd: end, stepsNormalized: steps,
            activeEnergyKcal: energy, sleepHours: sleep, restingHRBpm: restingHR, hrvMs: hrv, normalizationVersion: "norm_v1",
            createdAt: Date(timeIntervalSince1970: 1_700_000_000))
    }

    /// `YYYY-MM-DD` of `offset` days after 2024-06-01.
    static func date(_ offset: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let day = calendar.date(
            byAdding: .day, value: offset, to: calendar.date(from: DateComponents(year: 2024, month: 6, day: 1))!)!
        let parts = calendar.dateComponents([.year, .month, .day], from: day)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    static func body(_ days: [NormalizedDailyMetrics]) throws -> ByteBuffer {
        ByteBuffer(bytes: try NormalizedDailyMetrics.backendEncoder().encode(days))
    }

    static func json(_ buffer: ByteBuffer) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any]) ?? [:]
    }
}

/// Schemas of the PostgreSQL test database, one per harness. The first use sweeps schemas
/// that earlier runs left behind.
actor TestSchemas {
    static let shared = TestSchemas()

    fileprivate let logger = Logger(label: "healthpipe.tests.postgres")
    /// The admin client, ready once earlier runs' schemas are swept. Every caller awaits
    /// this one task, so no schema is made before the sweep has finished.
    private var ready: Task<PostgresClient, any Error>?

    fileprivate func admin() async throws -> PostgresClient {
        if let ready { return try await ready.value }
        let logger = logger
        let task = Task {
            let url = URLComponents(string: ServerBackend.postgresURL!)!
            let client = PostgresClient(
                configuration: .init(
                    host: url.host ?? "127.0.0.1", port: url.port ?? 5432, username: url.user ?? "postgres",
                    password: url.password, database: String(url.path.dropFirst()), tls: .disable))
            Task { await client.run() }
            var stale: [String] = []
            for try await name in try await client.query(
                "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'hp_test_%'", logger: logger
            ).decode(String.self) {
                stale.append(name)
            }
            for name in stale { try await client.query("DROP SCHEMA IF EXISTS \(unescaped: name) CASCADE", logger: logger) }
            return client
        }
        ready = task
        return try await task.value
    }

    func make() async throws -> String {
        _ = try await admin()
        return "hp_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
    }

    func drop(_ schema: String) async {
        _ = try? await admin().query("DROP SCHEMA IF EXISTS \(unescaped: schema) CASCADE", logger: logger)
    }
}

extension ServerHarness {
    /// Every row of every server table, as text, sorted (SQLite file or PostgreSQL schema).
    func dumpTables() async throws -> [String] {
        switch backend {
        case .sqlite:
            let queue = try DatabaseQueue(path: folder.appendingPathComponent("server.sqlite").path)
            defer { try? queue.close() }
            return try await queue.read { db in
                var rows: [String] = []
                for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") {
                    rows += try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"").map { "\(table) \($0)" }
                }
                return rows.sorted()
            }
        case .postgres:
            return try await TestSchemas.shared.dump(schema!).sorted()
        }
    }
}

extension ServerHarness {
    /// Forgets every remembered Idempotency-Key answer (as a crash before remembering would).
    func forgetIdempotencyKeys() async throws {
        switch backend {
        case .sqlite:
            let queue = try DatabaseQueue(path: folder.appendingPathComponent("server.sqlite").path)
            defer { try? queue.close() }
            try await queue.write { db in try db.execute(sql: "DELETE FROM idempotency_key") }
        case .postgres:
            try await TestSchemas.shared.admin().query(
                "DELETE FROM \(unescaped: schema!).idempotency_key", logger: TestSchemas.shared.logger)
        }
    }
}

extension TestSchemas {
    /// Every row of every table of `schema`, as `table (row text)`.
    func dump(_ schema: String) async throws -> [String] {
        let client = try await admin()
        var tables: [String] = []
        for try await name in try await client.query(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = \(schema)", logger: logger
        ).decode(String.self) {
            tables.append(name)
        }
        var rows: [String] = []
        for table in tables {
            for try await text in try await client.query(
                "SELECT t::text FROM \(unescaped: schema).\(unescaped: table) t", logger: logger
            ).decode(String.self) {
                rows.append("\(table) \(text)")
            }
        }
        return rows
    }
}

import Foundation
import HealthCore
import Logging
import PostgresNIO

/// The process's connection pool to one PostgreSQL database, shared by the server's own
/// records (`PostgresServerStore`) and the health samples (``PostgresHealthDatabase``).
///
/// It runs the pool itself; call ``close()`` when done.
public final class PostgresPool: Sendable {
    public let client: PostgresClient
    /// A second, small pool (two connections) for short autocommit statements that run
    /// while a transaction of ``client`` is open and waits for them — interning a new name
    /// (``InternedNames``). They never wait for a connection of `client`, which open
    /// transactions may all hold; and they commit before the transaction goes on.
    let autocommit: PostgresClient
    /// A third pool, as large as ``client``, whose transactions hold the advisory locks that
    /// order computations of one person's days across servers while the work itself runs
    /// on ``client``: a lock never waits for a connection the work holds. Each computation
    /// holds one of its connections, so its size is how many people's days are computed at
    /// once (with two, 64 people writing and reading waited in line: a read of a dirty day
    /// took 2 s at the median under `bench load`).
    let locks: PostgresClient
    public let logger: Logger
    /// Where it connects (for messages: never the password).
    public let url: PostgresURL
    private let runner: Task<Void, Never>
    private let closed = Locked(false)

    /// `true` once ``close()`` was called: long-running loops over the pool stop.
    public var isClosed: Bool { closed.withLock { $0 } }

    /// A migration: an id recorded in `schema_migrations` once applied, and its statements.
    public struct Migration: Sendable {
        public let id: String
        public let statements: [String]

        public init(id: String, statements: [String]) {
            self.id = id
            self.statements = statements
        }
    }

    /// Connects to `url` (`postgres://user:password@host:port/database?sslmode=…`), with
    /// `schema` as the search path when given (created if needed: tests use one each).
    /// Fails at once, naming the server, when it cannot connect.
    public init(
        url text: String, schema: String? = nil, maximumConnections: Int = 8,
        logger: Logger = Logger(label: "healthpipe.postgres")
    ) async throws {
        let url = try PostgresURL(text)
        var configuration = url.clientConfiguration()
        configuration.options.maximumConnections = maximumConnections
        if let schema {
            guard schema.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                throw PostgresURL.InvalidURL(reason: "a schema name is letters, digits and _ only")
            }
            configuration.options.additionalStartupParameters.append(("search_path", schema))
        }
        do {
            try await url.probe(logger: logger)
        } catch {
            throw url.describe(error)
        }
        let client = PostgresClient(configuration: configuration)
        var small = configuration
        small.options.maximumConnections = 2
        let autocommit = PostgresClient(configuration: small)
        let locks = PostgresClient(configuration: configuration)
        self.client = client
        self.autocommit = autocommit
        self.locks = locks
        self.logger = logger
        self.url = url
        runner = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await client.run() }
                group.addTask { await autocommit.run() }
                group.addTask { await locks.run() }
            }
        }
        if let schema {
            do {
                try await client.query("CREATE SCHEMA IF NOT EXISTS \(unescaped: schema)", logger: logger)
            } catch {
                await close()
                throw url.describe(error)
            }
        }
    }

    /// Releases the connections; the pool is unusable afterwards.
    public func close() async {
        closed.withLock { $0 = true }
        runner.cancel()
        await runner.value
    }

    /// Applies the migrations not applied yet, in order, in one transaction under an
    /// advisory lock, so that several processes can start at once.
    public func migrate(_ migrations: [Migration]) async throws {
        do {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(7244231)", logger: logger)
                try await connection.query(
                    """
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        id TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
                    """, logger: logger)
                var applied = Set<String>()
                for try await id in try await connection.query("SELECT id FROM schema_migrations", logger: logger)
                    .decode(String.self)
                {
                    applied.insert(id)
                }
                for migration in migrations where !applied.contains(migration.id) {
                    for statement in migration.statements {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.query(
                        "INSERT INTO schema_migrations (id) VALUES (\(migration.id))", logger: logger)
                }
            }
        } catch {
            throw url.describe(error)
        }
    }
}

extension PostgresClient {
    /// The rows of a prepared statement (prepared once per connection), collected. postgres-nio
    /// keeps a failed preparation for the life of its connection — every later run of the
    /// statement there fails the same way (found by the review of issue 37: one lock timeout
    /// made a connection fail every readiness read until a restart) — so a connection on
    /// which a prepared statement failed is closed, and the pool opens another.
    package func rows<Statement: PostgresPreparedStatement>(
        _ statement: Statement, logger: Logger
    ) async throws -> [Statement.Row] where Statement.Row: Sendable {
        try await withConnection { connection in
            do {
                var rows: [Statement.Row] = []
                for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
                return rows
            } catch let error as PSQLError {
                try? await connection.close()
                throw error
            }
        }
    }
}

extension PostgresBindings {
    /// Bindings of text values, in order: the parameters of a prepared statement that takes
    /// ids and dates.
    package init(texts: String...) {
        self.init(capacity: texts.count)
        for text in texts { append(text) }
    }
}

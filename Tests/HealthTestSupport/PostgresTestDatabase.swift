import Foundation
import HealthPostgres

/// A PostgreSQL health database for tests, in a schema of its own, when
/// `HEALTHPIPE_TEST_POSTGRES_URL` names a server (`.ci/run` starts one and sets it).
public struct PostgresTestDatabase: Sendable {
    /// The server's URL, or `nil`: PostgreSQL tests are then skipped.
    public static let url = ProcessInfo.processInfo.environment["HEALTHPIPE_TEST_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }

    public let pool: PostgresPool
    public let database: PostgresHealthDatabase
    public let schema: String

    /// A new schema with the health tables (`name` prefixes it, for a person reading the server's logs).
    public static func make(_ name: String = "health") async throws -> PostgresTestDatabase {
        let schema = "t_\(name)_\(UUID().uuidString.prefix(8).lowercased())"
        return try await open(schema: schema)
    }

    /// Another pool and database on the same schema: a second server.
    public func another() async throws -> PostgresTestDatabase { try await Self.open(schema: schema) }

    private static func open(schema: String) async throws -> PostgresTestDatabase {
        let pool = try await PostgresPool(url: url!, schema: schema)
        do {
            return PostgresTestDatabase(pool: pool, database: try await PostgresHealthDatabase(pool: pool), schema: schema)
        } catch {
            await pool.close()
            throw error
        }
    }

    /// Closes the pool; `drop` also drops the schema with everything in it.
    public func close(drop: Bool = true) async {
        await database.close()
        if drop { _ = try? await pool.client.query("DROP SCHEMA \(unescaped: schema) CASCADE", logger: pool.logger) }
        await pool.close()
    }
}

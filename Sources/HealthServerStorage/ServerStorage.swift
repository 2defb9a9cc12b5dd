import Foundation
import HealthPostgres
import HealthServerRecords

/// Where a server keeps its records and its users' samples.
public enum ServerStoreLocation: Sendable, Equatable {
    /// The records in the SQLite file `path`; each user's samples in a file of their own,
    /// `dataFolder/users/<id>.sqlite`.
    case sqlite(path: String, dataFolder: String)
    /// The records and every user's samples in one PostgreSQL database, over one pool
    /// (`postgres://user[:password]@host[:port]/database[?sslmode=…]`).
    case postgres(url: String)
}

/// The server's records and its users' health stores, opened together from one
/// ``ServerStoreLocation``: the one place the server's storage is chosen (the CLI and the
/// tests' harness open it here and hand the ports to the server).
public struct ServerStorage: Sendable {
    /// Users, tokens, days, idempotency keys, import jobs, devices, consent and sessions.
    public let records: any ServerStore
    /// Each user's samples.
    public let healthStores: any UserHealthStores
    private let release: @Sendable () async -> Void

    public init(
        records: any ServerStore, healthStores: any UserHealthStores, release: @escaping @Sendable () async -> Void
    ) {
        self.records = records
        self.healthStores = healthStores
        self.release = release
    }

    /// Opens (creating and migrating) the storage at `location`.
    public static func open(_ location: ServerStoreLocation) async throws -> ServerStorage {
        switch location {
        case .sqlite(let path, let dataFolder):
            let records = try SQLiteServerStore(path: path)
            return ServerStorage(
                records: records, healthStores: SQLiteUserHealthStores(folder: dataFolder), release: { await records.close() })
        case .postgres(let url):
            let pool = try await PostgresPool(url: url)
            do {
                let records = try await PostgresServerStore(pool: pool)
                let samples = try await PostgresHealthDatabase(pool: pool)
                return ServerStorage(
                    records: records, healthStores: PostgresUserHealthStores(database: samples),
                    release: {
                        await samples.close()
                        await pool.close()
                    })
            } catch {
                await pool.close()
                throw error
            }
        }
    }

    /// Releases the database connections; the storage is unusable afterwards.
    public func close() async { await release() }
}

import Foundation
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import Logging

/// The server composed in one place: its storage (``ServerStorage``), the repositories the
/// application runs on, the chores of a start, the application. `healthpipe serve` and
/// `healthpipe users delete`, the sync benchmark's loopback server and the tests' harness
/// build the server here.
///
/// ```swift
/// var host = try await ServerHost.open(.sqlite(path: "data/server.sqlite", dataFolder: "data"), dataFolder: "data")
/// _ = try await host.sealDeviceKeys(under: key)
/// _ = try await host.prepareStart()
/// try await host.application(configuration: ServerConfiguration()).runService()
/// await host.close()
/// ```
public struct ServerHost: Sendable {
    /// The records and the users' health stores; closed by ``close()``.
    public let storage: ServerStorage
    /// What the application runs on (a test may put a stand-in in one of them).
    public var repositories: ServerRepositories
    /// Where users' files and uploads are (`uploads/`, and `users/` with SQLite).
    public let dataFolder: String

    /// Over `storage`, opened by ``open(_:dataFolder:)`` or by a caller with stores of its
    /// own (a test's PostgreSQL schema); uploads in `dataFolder/uploads`.
    public init(storage: ServerStorage, dataFolder: String) {
        self.storage = storage
        self.dataFolder = dataFolder
        repositories = ServerRepositories(store: storage.records, healthStores: storage.healthStores, dataFolder: dataFolder)
    }

    /// Opens (creating and migrating) the storage at `location` (``ServerStorage/open(_:)``).
    public static func open(_ location: ServerStoreLocation, dataFolder: String) async throws -> ServerHost {
        ServerHost(storage: try await ServerStorage.open(location), dataFolder: dataFolder)
    }

    /// From now on device keys are sealed at rest under `key`; keys still stored in clear are
    /// sealed now, and counted. Throws ``ServerKeyError`` when stored keys do not open under
    /// `key` (another server key).
    public mutating func sealDeviceKeys(under key: ServerKey) async throws -> Int {
        let (sealed, count) = try await repositories.sealingDeviceKeys(under: key)
        repositories = sealed
        return count
    }

    /// What a start did before the server listens.
    public struct StartChores: Hashable, Sendable {
        /// Imports an earlier process left unfinished, now failed ("upload again").
        public var interruptedImports = 0
        /// Uploads of no import and stores of deleted users, removed.
        public var swept = ServerMaintenance.Swept()
    }

    /// The chores of a start. Alone on its database, a server marks its interrupted imports
    /// failed; sharing one (PostgreSQL's import queue), it leaves them to the queue — another
    /// server may be running them, and a dead server's job is claimed again. Then uploads of
    /// no import and the stores of deleted users are removed (``ServerMaintenance/sweep(repositories:dataFolder:now:)``).
    public func prepareStart(now: Date = Date()) async throws -> StartChores {
        var chores = StartChores()
        if repositories.importQueue == nil {
            chores.interruptedImports = try await repositories.imports.failUnfinishedImports(
                reason: "the server stopped before this import finished; upload the export again")
        }
        chores.swept = try await ServerMaintenance.sweep(repositories: repositories, dataFolder: dataFolder, now: now)
        return chores
    }

    /// The application over ``repositories`` (``buildApplication(configuration:repositories:logger:)``).
    public func application(
        configuration: ServerConfiguration, logger: Logger = Logger(label: "healthpipe.serve")
    ) throws -> some ApplicationProtocol {
        try buildApplication(configuration: configuration, repositories: repositories, logger: logger)
    }

    /// Releases the storage's connections.
    public func close() async { await storage.close() }
}

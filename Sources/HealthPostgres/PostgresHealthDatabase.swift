import Foundation
import HealthCore
import Logging
import PostgresNIO

/// Every user's health samples in one PostgreSQL database (docs/store.md §PostgreSQL): the
/// store behind `healthpipe serve --postgres`, so that several servers share one database.
///
/// ```swift
/// let pool = try await PostgresPool(url: "postgres://hp@db/health")
/// let database = try await PostgresHealthDatabase(pool: pool)
/// let store = database.store(for: userID)      // MutableHealthStore
/// ```
///
/// Each user's writes are serialised by a row lock on `health_store`, taken first in
/// every write transaction, which also holds the user's last anchor: anchors are handed
/// out in commit order, so a change feed read at any moment never skips a change that
/// commits later. Commits are announced with `NOTIFY` on ``notificationChannel``; every
/// process listens, so observers hear of other servers' writes too.
public final class PostgresHealthDatabase: Sendable {
    /// The channel of change notices: `<user id> <last anchor> <type identifiers, comma-separated>`.
    public static let notificationChannel = "health_changes"

    let pool: PostgresPool
    let names: InternedNames
    private let observers = Locked<[String: ChangeObservers]>([:])
    private let listener = Locked<Task<Void, Never>?>(nil)
    /// The table of the users who own stores, once ``requireOwners(in:)`` named it.
    let ownerTable = Locked<String?>(nil)

    /// The health tables in `pool`'s database, migrated.
    public convenience init(pool: PostgresPool) async throws {
        try await self.init(pool: pool, migrations: PostgresHealthSchema.migrations)
    }

    /// The health tables migrated as far as `migrations` go (tests of a migration stop before it).
    init(pool: PostgresPool, migrations: [PostgresPool.Migration]) async throws {
        self.pool = pool
        self.names = InternedNames()
        try await pool.migrate(migrations)
        try await startListening()
    }

    var client: PostgresClient { pool.client }
    var logger: Logger { pool.logger }

    /// The samples of `userID`: reads see only theirs, writes write only theirs.
    public func store(for userID: String) -> PostgresHealthStore {
        PostgresHealthStore(database: self, userID: userID)
    }

    /// Stops listening for notices and ends every observer's sequence. The pool stays open.
    public func close() async {
        let task = listener.withLock { task in
            defer { task = nil }
            return task
        }
        task?.cancel()
        await task?.value
        for observers in observers.withLock({ Array($0.values) }) { observers.finishAll() }
    }

    /// From now on every write of a user's samples or records first locks the user's row
    /// of `table` (`SELECT … FOR KEY SHARE`, `table` keyed by `id`) and fails with
    /// ``HealthStoreOwnerGone`` when there is none. A deletion of the user that locks the
    /// row `FOR UPDATE` and deletes it waits for every such write in flight, in any process,
    /// and no write commits after it: nothing is stored again for a deleted user.
    public func requireOwners(in table: String) {
        precondition(Self.isPlainName(table), "a table name is letters, digits and _ only")
        ownerTable.withLock { $0 = table }
    }

    /// ``requireOwners(in:)`` when `table` exists (the CLI's `--postgres --user` beside a
    /// server's `users`); nothing otherwise.
    public func requireOwnersIfPresent(in table: String) async throws {
        precondition(Self.isPlainName(table), "a table name is letters, digits and _ only")
        for try await exists in try await client.query(
            "SELECT to_regclass('\(unescaped: table)') IS NOT NULL", logger: logger
        ).decode(Bool.self) where exists {
            requireOwners(in: table)
        }
    }

    /// Whether `userID` is one of the owners when owners are required
    /// (``requireOwners(in:)``); `nil` when they are not (no server's users beside the samples).
    public func isOwner(_ userID: String) async throws -> Bool? {
        guard let table = ownerTable.withLock({ $0 }) else { return nil }
        let rows = try await client.query("SELECT 1 FROM \(unescaped: table) WHERE id = \(userID)", logger: logger).collect()
        return !rows.isEmpty
    }

    private static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// ``lockOwner(_:userID:)``, then locks the user's `health_store` row (creating it) and
    /// returns their last anchor, in one statement: the owner's row is locked first (the
    /// insert's `SELECT` reads it before the insert), as every writer locks them.
    func lockOwnerAndStore(_ connection: PostgresConnection, userID: String) async throws -> Int64 {
        let upsert = "ON CONFLICT (user_id) DO UPDATE SET last_anchor = health_store.last_anchor RETURNING last_anchor"
        let query: PostgresQuery
        if let table = ownerTable.withLock({ $0 }) {
            query = """
                WITH owner AS (SELECT 1 FROM \(unescaped: table) WHERE id = \(userID) FOR KEY SHARE)
                INSERT INTO health_store (user_id) SELECT \(userID) WHERE EXISTS (SELECT 1 FROM owner)
                \(unescaped: upsert)
                """
        } else {
            query = "INSERT INTO health_store (user_id) VALUES (\(userID)) \(unescaped: upsert)"
        }
        for try await last in try await connection.query(query, logger: logger).decode(Int64.self) { return last }
        throw HealthStoreOwnerGone(userID: userID)
    }

    /// When owners are required (``requireOwners(in:)``): locks the row of `userID` in their
    /// table `FOR KEY SHARE` until the transaction on `connection` ends, or throws
    /// ``HealthStoreOwnerGone``. Every transaction that writes a user's rows calls it first.
    func lockOwner(_ connection: PostgresConnection, userID: String) async throws {
        guard let table = ownerTable.withLock({ $0 }) else { return }
        let rows = try await connection.query(
            "SELECT 1 FROM \(unescaped: table) WHERE id = \(userID) FOR KEY SHARE", logger: logger
        ).collect()
        guard !rows.isEmpty else { throw HealthStoreOwnerGone(userID: userID) }
    }

    /// Deletes everything stored of `userID` — samples, tombstones, summaries, records,
    /// import runs, the app's records, and the sources and devices no other user uses — in
    /// one transaction; returns how many samples there were.
    ///
    /// It locks the user's `health_store` row first, as every write of samples does: it
    /// waits for a write in flight, even one that has only just inserted that row.
    public func deleteUser(_ userID: String) async throws -> Int {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query(
                """
                INSERT INTO health_store (user_id) VALUES (\(userID))
                ON CONFLICT (user_id) DO UPDATE SET last_anchor = health_store.last_anchor
                """, logger: logger)
            var samples = 0
            for try await count in try await connection.query(
                "SELECT count(*) FROM health_sample WHERE user_id = \(userID)", logger: logger
            ).decode(Int.self) {
                samples = count
            }
            for table in [
                "health_sample", "health_tombstone", "health_correlation_member", "health_type_span",
                "health_activity_summary", "health_record", "health_characteristic", "health_import_run",
                "health_daily_log", "health_planned_workout", "health_coach_interaction", "health_dirty_span",
                "health_store",
            ] {
                try await connection.query("DELETE FROM \(unescaped: table) WHERE user_id = \(userID)", logger: logger)
            }
            // Then the sources and devices no one else uses ("Jane's Apple Watch"): issue 32, P4.
            try await names.deleteUnused(after: userID, connection: connection, logger: logger)
            return samples
        }
    }

    // MARK: observation

    /// Notices of `userID`'s committed changes to `types` (all when `nil`), from any process.
    func observe(userID: String, types: Set<SampleType>?) -> ChangeNotices {
        let userObservers = observers.withLock { all in
            if let existing = all[userID] { return existing }
            let created = ChangeObservers()
            all[userID] = created
            return created
        }
        return userObservers.add(types)
    }

    /// Starts the one `LISTEN` of this process (on a connection of its own from the pool)
    /// and returns once it listens; it listens again after a lost connection (notices sent
    /// while it was away are lost: an observer follows the change feed, which loses nothing).
    private func startListening() async throws {
        let (client, logger, pool) = (client, logger, pool)
        let listening = AsyncStream<Void>.makeStream()
        let task = Task { [weak self] in
            while !Task.isCancelled {
                do {
                    try await client.withConnection { connection in
                        try await connection.listen(on: Self.notificationChannel) { notifications in
                            listening.continuation.yield()
                            for try await notification in notifications {
                                self?.deliver(notification.payload)
                            }
                        }
                    }
                } catch {
                    if Task.isCancelled || pool.isClosed { break }
                    logger.warning("health notices: listening again after an error")
                    try? await Task.sleep(for: .milliseconds(200))
                }
            }
            listening.continuation.finish()
        }
        listener.withLock { $0 = task }
        for await _ in listening.stream { return }
    }

    private func deliver(_ payload: String) {
        let parts = payload.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, let anchor = Int64(parts[1]),
            let userObservers = observers.withLock({ $0[String(parts[0])] })
        else { return }
        let types = Set(parts[2].split(separator: ",").map { SampleType(String($0)) })
        userObservers.notify(ChangeNotice(types: types, lastAnchor: QueryAnchor(anchor)))
    }
}

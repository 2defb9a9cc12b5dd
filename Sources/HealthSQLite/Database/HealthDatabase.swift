import Foundation
import GRDB
import HealthCore

/// One SQLite file (WAL mode) holding HealthKit data in HealthKit's model.
///
/// ```swift
/// let database = try HealthDatabase(path: "health.sqlite")
/// let store = database.store          // HealthQuerying
/// let counts = try database.counts()  // rows per table
/// ```
public final class HealthDatabase: Sendable {
    /// Settings of a database connection.
    public struct Configuration: Sendable {
        /// SQLite page cache per connection, in KiB. Bounded: imports stream, whatever their size.
        /// 32 MiB is as fast as 64 MiB for imports and reads, and a 150 MB export already
        /// fills it, so an import's peak memory is the same from 150 MB of XML upwards.
        public var cacheSizeKiB = 32_768
        /// Open read-only (no migration).
        public var readOnly = false
        /// How often observers' watch for other processes' commits looks at the file, in
        /// seconds (docs/store.md §Observation). Commits through this database are
        /// notified at once.
        public var commitPollInterval: TimeInterval = 0.05
        /// How long a statement waits for another process's transaction, in seconds.
        public var busyTimeout: TimeInterval = 10
        /// The file is a new store that no other connection will open until it is moved into
        /// place (``PrivateStoreBuild``): an import writes it without a rollback journal and
        /// without syncs, each page once, since a failed build is deleted whole.
        public var isPrivateBuild = false

        public init() {}
    }

    let pool: DatabasePool
    public let path: String
    /// Observers of committed changes, and the watcher of other processes' commits.
    let observers = ChangeObservers()
    let watcher: CommitWatcher
    /// Connections for the one-statement reads every HTTP request makes of a person's
    /// store (its dirty spans), on the calling thread: two, one for each of the two threads
    /// that run requests (with one, the second reader of a person went through the pool's
    /// thread hand-offs and the p99 of a daily read doubled); each holds two descriptors,
    /// which the server's limit of open stores counts.
    let pointReads: PointReads
    /// ``Configuration/isPrivateBuild``.
    let isPrivateBuild: Bool

    /// Opens (creating if needed) the database at `path` and migrates it to the current schema.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        self.path = path
        isPrivateBuild = configuration.isPrivateBuild
        var config = GRDB.Configuration()
        config.readonly = configuration.readOnly
        // Other processes write the same file (an import, `healthpipe log`, a sync reading
        // it): wait for their transaction instead of failing with "database is locked".
        config.busyMode = .timeout(configuration.busyTimeout)
        let cacheSize = configuration.cacheSizeKiB
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA page_size = 8192")
            try db.execute(sql: "PRAGMA cache_size = -\(cacheSize)")
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        if !configuration.readOnly {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        pool = try DatabasePool(path: path, configuration: config)
        pointReads = PointReads(path: path, limit: 2)
        watcher = CommitWatcher(
            pool: pool, observers: observers, interval: configuration.commitPollInterval, readOnly: configuration.readOnly)
        if !configuration.readOnly {
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            try HealthDatabase.migrator.migrate(pool)
        }
    }

    /// Closes every connection to the file (waiting for reads under way); any later use of
    /// this database fails. The last connection to close writes WAL mode's log into the file.
    public func close() throws {
        pointReads.close()
        // Readers first: the pool closes its writer first, and a reader closing last cannot
        // write the log into the file.
        pool.releaseMemory()
        try pool.close()
    }

    /// The query API over this database.
    public var store: SQLiteHealthStore { SQLiteHealthStore(database: self) }

    /// Writes a consistent copy of the store to `path` (SQLite's `VACUUM INTO`; `path` must
    /// not exist): a snapshot to change without touching this store.
    public func copy(to path: String) async throws {
        try await pool.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [path]) }
    }

    /// Row counts of every table, for summaries and tests.
    public func counts() throws -> [String: Int] {
        try pool.read { db in
            let tables = try String.fetchAll(
                db,
                sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'"
            )
            var counts: [String: Int] = [:]
            for table in tables {
                counts[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \"\(table)\"") ?? 0
            }
            return counts
        }
    }

    /// The anchor of the most recently stored sample (0 for an empty store). Anchors only
    /// grow; a duplicate that was skipped may leave a gap (SQLite's AUTOINCREMENT counts
    /// the attempt), which anchored queries do not notice.
    public func lastAnchor() throws -> QueryAnchor {
        try pool.read { db in try Self.lastAnchor(db) }
    }

    /// The anchor of the latest addition or deletion.
    static func lastAnchor(_ db: Database) throws -> QueryAnchor {
        QueryAnchor(
            try Int64.fetchOne(
                db,
                sql: "SELECT max(coalesce((SELECT max(anchor) FROM sample), 0), coalesce((SELECT max(anchor) FROM tombstone), 0))"
            ) ?? 0)
    }

    /// Stored samples per type identifier.
    public func sampleCountsByType() throws -> [String: Int] {
        try pool.read { db in
            let rows = try Row.fetchAll(
                db,
                sql:
                    "SELECT t.identifier, count(*) AS n FROM sample s JOIN sample_type t ON t.id = s.type_id GROUP BY t.identifier"
            )
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["identifier"] as String, $0["n"] as Int) })
        }
    }

    /// The latest import recorded for `fingerprint` (a quick identity: the importer decides
    /// whether it can be trusted or the content hash must decide).
    package func importRun(fingerprint: String) throws -> ImportRun? {
        try pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM import_run WHERE fingerprint = ? ORDER BY id DESC LIMIT 1", arguments: [fingerprint]
            ).map(ImportRun.init(row:))
        }
    }

    /// Runs `body` in one write transaction with a ``RecordWriter``: either everything it
    /// wrote is committed, or (when it throws) nothing is; after a commit that added or
    /// deleted samples, every observer of their types is told once. Blocks the calling thread.
    public func write<T>(_ body: (RecordWriter) throws -> T) throws -> T {
        try pool.write { db in try Self.run(body, in: db, observers: observers, watcher: watcher) }
    }

    /// The page cache of an import's transaction, in KiB: its peak memory is the cache,
    /// the batches in flight and the program (about 45 MiB), and a 150 MB export already
    /// fills the cache, so this bounds an import's memory whatever the export's size
    /// (16 MiB imports as fast as 32 MiB and keeps the peak under 100 MB, measured to 1 GB
    /// of XML: docs/benchmarks.md).
    public static let importCacheKiB = 16_384

    /// ``write(_:)`` for an import: the same transaction with the page cache of
    /// ``importCacheKiB`` and without SQLite's foreign-key checks (the connection's own
    /// settings are restored afterwards).
    ///
    /// A `sample` row refers to its type, source and device, and SQLite checks each
    /// reference with a look-up in the parent table: three per row, a third of what the
    /// rows themselves cost (`scripts/sqlite-floor.c` with and without them: 0.60 → 0.82 s
    /// for a 150 MB export's rows). The ``RecordWriter`` only ever binds ids it read from or
    /// inserted into those tables in this very transaction, and an import deletes no parent
    /// row, so the checks cannot fail; `PRAGMA foreign_key_check` after an import proves it
    /// in the tests. The pragma is a no-op inside a transaction, hence one of our own.
    ///
    /// In a private build (``Configuration/isPrivateBuild``) the transaction has no journal:
    /// in WAL mode every page is written twice, to the log and then to the file, and the
    /// log's checkpoint at the commit alone took 0.1 s of a 150 MB export's 0.6 s in SQLite
    /// (docs/store.md §A new store). The store is in WAL mode again afterwards.
    public func importWrite<T>(_ body: (RecordWriter) throws -> T) throws -> T {
        // Leaving WAL mode needs the only connection to the file: readers the pool opened
        // (to recognise the export) are closed first.
        if isPrivateBuild { pool.releaseMemory() }
        return try pool.writeWithoutTransaction { db in
            let kept = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2_000
            let keptForeignKeys = try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? true
            defer {
                try? db.execute(sql: "PRAGMA cache_size = \(kept); PRAGMA foreign_keys = \(keptForeignKeys ? "ON" : "OFF")")
            }
            try db.execute(sql: "PRAGMA cache_size = -\(Self.importCacheKiB); PRAGMA foreign_keys = OFF")
            // Another connection to the file (one this process keeps elsewhere) makes the
            // switch fail with SQLITE_BUSY: the import then keeps WAL's journal.
            let unjournaled = isPrivateBuild && (try? String.fetchOne(db, sql: "PRAGMA journal_mode = OFF")) == "off"
            if unjournaled { try db.execute(sql: "PRAGMA synchronous = OFF") }
            var result: T?
            do {
                try db.inTransaction {
                    result = try Self.run(body, in: db, observers: observers, watcher: watcher)
                    return .commit
                }
            } catch {
                // The build is deleted; its mode no longer matters.
                if unjournaled { try? db.execute(sql: "PRAGMA journal_mode = WAL") }
                throw error
            }
            // A store moved into place in any other mode would be read without WAL's snapshots.
            if unjournaled {
                guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                    throw DatabaseError(resultCode: .SQLITE_ERROR, message: "the new store did not return to WAL mode")
                }
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
            }
            return result!
        }
    }

    /// ``write(_:)`` for async code (the same name would be chosen over it in any async
    /// context, blocking or not, hence its own): the transaction runs on the database's own writer
    /// queue while the caller is suspended, so neither a NIO event loop nor a thread of the
    /// cooperative pool waits for SQLite.
    public func writeAsync<T: Sendable>(_ body: @escaping @Sendable (RecordWriter) throws -> T) async throws -> T {
        let (observers, watcher) = (observers, watcher)
        return try await pool.write { db in try Self.run(body, in: db, observers: observers, watcher: watcher) }
    }

    private static func run<T>(
        _ body: (RecordWriter) throws -> T, in db: Database, observers: ChangeObservers, watcher: CommitWatcher
    ) throws -> T {
        let writer = try RecordWriter(db: db)
        let result = try body(writer)
        try writer.finish()
        let types = writer.changedTypes
        if !types.isEmpty {
            let notice = ChangeNotice(types: types, lastAnchor: writer.lastAnchor)
            // On the writer's queue, right after the commit: serialised with the watcher.
            db.afterNextTransaction(onCommit: { _ in
                watcher.committedHere(upTo: notice.lastAnchor)
                observers.notify(notice)
            })
        }
        return result
    }

    /// Notices of committed changes to `types` (all types when `nil`), from this process
    /// and — polled every ``CommitWatcher/interval`` while anyone observes — from other
    /// processes writing the same file (docs/store.md §Observation).
    public func observe(_ types: Set<SampleType>?) -> ChangeNotices {
        let watcher = watcher
        return observers.add(types) { count in watcher.observersChanged(count: count) }
    }
}

extension HealthDatabase {
    /// Whether the writer's connection checks foreign keys now (an import turns the checks
    /// off inside its own transaction only), and how many rows refer to a parent row that
    /// does not exist (`PRAGMA foreign_key_check`).
    package func foreignKeyState() throws -> (enforced: Bool, violations: Int) {
        try pool.writeWithoutTransaction { db in
            let enforced = try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? false
            return (enforced, try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count)
        }
    }
}

extension ImportRun {
    init(row: Row) {
        self.init(
            id: row["id"], fingerprint: row["fingerprint"], path: row["path"], inputKind: row["input_kind"],
            startedAt: Date(timeIntervalSince1970: row["started_at"]),
            finishedAt: Date(timeIntervalSince1970: row["finished_at"]), locale: row["locale"],
            exportDate: (row["export_date"] as Double?).map(Date.init(timeIntervalSince1970:)),
            exportVersion: row["export_version"], bytes: row["bytes"], recordsRead: row["records_read"],
            recordsAdded: row["records_added"], duplicates: row["duplicates"], contentHash: row["content_hash"])
    }
}

extension HealthDatabase {
    /// Every distinct device in the store.
    public func deviceRows() throws -> [Device] {
        try pool.read { db in try Row.fetchAll(db, sql: "SELECT * FROM device ORDER BY id").map { DeviceRow.device(from: $0) } }
    }
}

extension HealthDatabase {
    /// Every stored ECG recording, oldest first.
    public func electrocardiograms() throws -> [Electrocardiogram] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM electrocardiogram ORDER BY recorded_date, id").map { row in
                let blob: Data = row["voltages"]
                let voltages = blob.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
                let header =
                    (try? JSONDecoder().decode([MetadataEntry].self, from: Data((row["header_json"] as String).utf8))) ?? []
                return Electrocardiogram(
                    fileName: row["file_name"],
                    recordedDate: (row["recorded_date"] as Double?).map(Date.init(timeIntervalSince1970:)),
                    classification: row["classification"], symptoms: row["symptoms"], softwareVersion: row["software_version"],
                    device: row["device"], sampleRateHz: row["sample_rate_hz"], lead: row["lead"], unit: row["unit"],
                    header: header, voltages: voltages)
            }
        }
    }
}

import Foundation
import GRDBSQLite

/// What SQLite alone needs to store an import's rows — no parsing, no Swift values, no
/// deduplication work beyond the indexes: the floor `healthpipe bench import` prints
/// beside the import's own time, so the ratio to it is the figure to track.
///
/// It writes `samples` rows shaped like `sample` (ordered 16-byte content keys, the one
/// unique (type, start, key) index of a new store) and `details` rows shaped like `metadata`
/// (a five-column `WITHOUT ROWID` table, which is what metadata, beats, route points and
/// correlation links each are), 32 rows per `INSERT` as the importer does, into a new
/// file with the page size and cache of an import into a new store, and as it, without a
/// journal (``PrivateStoreBuild``), in one transaction. The same program in C is
/// `scripts/sqlite-floor.c` (`JOURNAL=WAL` for a store's journal).
public enum InsertFloor {
    /// How long the inserts and the commit took.
    public struct Timing: Sendable {
        public var inserts: TimeInterval
        public var commit: TimeInterval
        public var total: TimeInterval { inserts + commit }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes the rows into a new database at `path` (any file there is replaced, and
    /// removed afterwards) and times it.
    public static func measure(path: String, samples: Int, details: Int) throws -> Timing {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
        var handle: OpaquePointer?
        guard sqlite3_open(path, &handle) == SQLITE_OK, let db = handle else {
            throw Failure(description: "cannot open \(path)")
        }
        defer { sqlite3_close(db) }
        try execute(
            db,
            """
            PRAGMA page_size=8192; PRAGMA cache_size=-\(HealthDatabase.importCacheKiB); PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
            CREATE TABLE sample (anchor INTEGER PRIMARY KEY AUTOINCREMENT, type_id INTEGER NOT NULL,
             start REAL NOT NULL, end REAL NOT NULL, utc_offset INTEGER, time_zone TEXT, value REAL,
             value_text TEXT, unit TEXT, source_id INTEGER NOT NULL, device_id INTEGER, creation_date REAL,
             import_id INTEGER, content_key BLOB NOT NULL);
            CREATE UNIQUE INDEX sample_type_start_key ON sample(type_id, start, content_key);
            CREATE TABLE metadata (owner_kind INTEGER NOT NULL, owner INTEGER NOT NULL,
             position INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL,
             PRIMARY KEY (owner_kind, owner, position)) WITHOUT ROWID;
            """)
        let perStatement = 32
        let sampleInsert = try prepare(
            db,
            "INSERT OR IGNORE INTO sample (anchor, type_id, start, end, utc_offset, time_zone, value, value_text,"
                + " unit, source_id, device_id, creation_date, content_key) VALUES ",
            row: "(?,?,?,?,?,?,?,?,?,?,?,?,?)", count: perStatement)
        defer { sqlite3_finalize(sampleInsert) }
        let detailInsert = try prepare(
            db, "INSERT INTO metadata VALUES ", row: "(0,?,?,?,?)", count: perStatement)
        defer { sqlite3_finalize(detailInsert) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        let started = Date()
        try execute(db, "BEGIN")
        var parameter: Int32 = 0
        var key = [UInt8](repeating: 0, count: 16)
        for row in 0..<samples {
            // Keys sorted like the importer's: type, start second, then a hash.
            let type = row / 20_000
            let start = 1_700_000_000 + Int64(row) * 60
            key[0] = UInt8(truncatingIfNeeded: type >> 8)
            key[1] = UInt8(truncatingIfNeeded: type)
            for byte in 0..<6 { key[2 + byte] = UInt8(truncatingIfNeeded: start >> (40 - 8 * byte)) }
            let mixed = UInt32(truncatingIfNeeded: row) &* 2_654_435_761
            for byte in 8..<16 { key[byte] = UInt8(truncatingIfNeeded: mixed >> (UInt32(byte % 4) * 8)) }
            func next() -> Int32 {
                parameter += 1
                return parameter
            }
            sqlite3_bind_int64(sampleInsert, next(), Int64(row + 1))
            sqlite3_bind_int64(sampleInsert, next(), Int64(type))
            sqlite3_bind_double(sampleInsert, next(), Double(start))
            sqlite3_bind_double(sampleInsert, next(), Double(start + 30))
            sqlite3_bind_int64(sampleInsert, next(), 3600)
            sqlite3_bind_null(sampleInsert, next())
            sqlite3_bind_double(sampleInsert, next(), 42.5)
            sqlite3_bind_null(sampleInsert, next())
            sqlite3_bind_text(sampleInsert, next(), "count/min", -1, transient)
            sqlite3_bind_int64(sampleInsert, next(), 3)
            sqlite3_bind_int64(sampleInsert, next(), 2)
            sqlite3_bind_double(sampleInsert, next(), Double(start + 100))
            key.withUnsafeBytes { _ = sqlite3_bind_blob(sampleInsert, next(), $0.baseAddress, 16, transient) }
            if parameter == 13 * Int32(perStatement) {
                try step(db, sampleInsert)
                parameter = 0
            }
        }
        parameter = 0
        for row in 0..<details {
            // Spread over the samples like metadata: a few rows for each owner.
            let owner = Int64(row / 3 * 8 + 1)
            sqlite3_bind_int64(detailInsert, parameter + 1, owner)
            sqlite3_bind_int64(detailInsert, parameter + 2, Int64(row % 3))
            sqlite3_bind_text(detailInsert, parameter + 3, "HKMetadataKeyHeartRateMotionContext", -1, transient)
            sqlite3_bind_text(detailInsert, parameter + 4, "1", -1, transient)
            parameter += 4
            if parameter == 4 * Int32(perStatement) {
                try step(db, detailInsert)
                parameter = 0
            }
        }
        let inserted = Date()
        try execute(db, "COMMIT")
        return Timing(inserts: inserted.timeIntervalSince(started), commit: Date().timeIntervalSince(inserted))
    }

    /// The rows an import stored in the SQLite store at `path`: samples, and the rows of
    /// the narrow tables that hang from them (metadata, beats, route points, correlation
    /// links, workout events and statistics, audiogram points).
    public static func rows(inStoreAt path: String) throws -> (samples: Int, details: Int) {
        let db = try open(path, flags: SQLITE_OPEN_READONLY)
        defer { sqlite3_close(db) }
        func count(_ table: String) throws -> Int {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(db, "SELECT count(*) FROM \(table)", -1, &statement, nil) == SQLITE_OK,
                let statement
            else { throw Failure(description: String(cString: sqlite3_errmsg(db))) }
            defer { sqlite3_finalize(statement) }
            guard sqlite3_step(statement) == SQLITE_ROW else { throw Failure(description: String(cString: sqlite3_errmsg(db))) }
            return Int(sqlite3_column_int64(statement, 0))
        }
        let details = try replayedTables.map(\.name).filter { $0 != "sample" }.reduce(0) { try $0 + count($1) }
        return (try count("sample"), details)
    }

    static func open(_ path: String, flags: Int32) throws -> OpaquePointer {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let db = handle else {
            sqlite3_close(handle)
            throw Failure(description: "cannot open \(path)")
        }
        return db
    }

    static func execute(_ db: OpaquePointer, _ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw Failure(description: String(cString: sqlite3_errmsg(db)))
        }
    }

    static func prepare(_ db: OpaquePointer, _ head: String, row: String, count: Int) throws -> OpaquePointer {
        let sql = head + Array(repeating: row, count: count).joined(separator: ",")
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw Failure(description: String(cString: sqlite3_errmsg(db)))
        }
        return statement
    }

    static func step(_ db: OpaquePointer, _ statement: OpaquePointer) throws {
        guard sqlite3_step(statement) == SQLITE_DONE else {
            throw Failure(description: String(cString: sqlite3_errmsg(db)))
        }
        sqlite3_reset(statement)
    }
}

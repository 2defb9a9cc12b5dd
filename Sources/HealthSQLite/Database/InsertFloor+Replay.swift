import Foundation
import GRDBSQLite

extension InsertFloor {
    /// The tables an import fills with one row per record or detail, replayed in this order,
    /// each as ``RecordWriter`` writes it: rows per statement, and whether duplicates are
    /// ignored. All but `sample` are the detail rows ``rows(inStoreAt:)`` counts.
    static let replayedTables: [(name: String, rowsPerStatement: Int, ignoresDuplicates: Bool)] = [
        ("sample", 32, true), ("metadata", 64, false), ("hrv_beat", 64, false), ("route_point", 64, false),
        ("correlation_member", 1, true), ("workout_event", 1, false), ("workout_statistic", 1, false),
        ("audiogram_point", 1, false),
    ]

    /// What SQLite alone needs for the very rows an import stored, in the order it stored
    /// them: the floor of ``measure(path:samples:details:)`` with the import's own rows
    /// instead of made-up ones.
    ///
    /// The made-up rows come one type after another with ascending content keys, so every
    /// insert lands at the end of both indexes, SQLite's cheapest case. An export that
    /// interleaves types (the generated one alternates active energy and distance, as a
    /// watch records them) lands in the middle of both indexes, and SQLite alone needs 22–30 %
    /// longer for the same number of rows (docs/benchmarks.md, 2026-11-27). This floor keeps
    /// that cost out of the import's overhead.
    ///
    /// The tables and indexes are created from the store's own schema in a new file at
    /// `path` (replaced, and removed afterwards), with the page size and cache of an import
    /// into a new store, and as it, without a journal (``PrivateStoreBuild``). Each table's
    /// rows are read a chunk at a time, untimed — `sample` in anchor order, the import's
    /// order; the detail tables in key order, which is at most as dear —
    /// then written as many rows per statement as the importer writes (`INSERT OR IGNORE`
    /// where it ignores duplicates). All samples go first, then the detail tables; the import
    /// interleaves them, and tries the duplicates it ignores. Both make this floor lower,
    /// never higher, than SQLite's share of the import.
    public static func replay(storeAt source: String, path: String) throws -> Timing {
        try replay(storeAt: source, path: path, keepingFile: false)
    }

    /// ``replay(storeAt:path:)``, leaving the written file for a test to read when `keepingFile`.
    package static func replay(storeAt source: String, path: String, keepingFile: Bool) throws -> Timing {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        defer { if !keepingFile { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } } }
        let from = try open(source, flags: SQLITE_OPEN_READONLY)
        defer { sqlite3_close(from) }
        let into = try open(path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        defer { sqlite3_close(into) }
        try execute(
            into,
            """
            PRAGMA page_size=8192; PRAGMA cache_size=-\(HealthDatabase.importCacheKiB);
            PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
            """)
        let names = replayedTables.map { "'\($0.name)'" }.joined(separator: ",")
        try query(
            from,
            "SELECT sql FROM sqlite_master WHERE type IN ('table', 'index') AND tbl_name IN (\(names)) AND sql IS NOT NULL"
                + " ORDER BY type = 'index', rowid"
        ) { try execute(into, String(cString: sqlite3_column_text($0, 0))) }
        try execute(into, "BEGIN")
        var inserts = Duration.zero
        for table in replayedTables {
            inserts += try replayRows(
                of: table.name, perStatement: table.rowsPerStatement, ignoringDuplicates: table.ignoresDuplicates,
                from: from, into: into)
        }
        let committing = ContinuousClock.now
        try execute(into, "COMMIT")
        let commit = ContinuousClock.now - committing
        return Timing(inserts: inserts.seconds, commit: commit.seconds)
    }

    /// Copies one table's rows, timing only the writes.
    private static func replayRows(
        of table: String, perStatement: Int, ignoringDuplicates: Bool, from: OpaquePointer, into: OpaquePointer
    ) throws -> Duration {
        let order = table == "sample" ? " ORDER BY anchor" : ""
        let reader = try prepare(from, "SELECT * FROM \(table)\(order)", row: "", count: 0)
        defer { sqlite3_finalize(reader) }
        let columns = Int(sqlite3_column_count(reader))
        let verb = ignoringDuplicates ? "INSERT OR IGNORE" : "INSERT"
        let row = "(" + Array(repeating: "?", count: columns).joined(separator: ",") + ")"
        let full = try prepare(into, "\(verb) INTO \(table) VALUES ", row: row, count: perStatement)
        defer { sqlite3_finalize(full) }
        let single = try prepare(into, "\(verb) INTO \(table) VALUES ", row: row, count: 1)
        defer { sqlite3_finalize(single) }
        // Values of 4,096 rows or so at a time (whole statements): copies the timed writes bind from.
        let chunk = columns * perStatement * (4_096 / perStatement)
        var values: [OpaquePointer?] = []
        values.reserveCapacity(chunk)
        defer { values.forEach(sqlite3_value_free) }
        var elapsed = Duration.zero
        var finished = false
        while !finished {
            values.forEach(sqlite3_value_free)
            values.removeAll(keepingCapacity: true)
            while values.count < chunk {
                let result = sqlite3_step(reader)
                guard result == SQLITE_ROW else {
                    guard result == SQLITE_DONE else { throw Failure(description: String(cString: sqlite3_errmsg(from))) }
                    finished = true
                    break
                }
                for column in 0..<Int32(columns) {
                    guard let value = sqlite3_value_dup(sqlite3_column_value(reader, column)) else {
                        throw Failure(description: "out of memory copying a row of \(table)")
                    }
                    values.append(value)
                }
            }
            let started = ContinuousClock.now
            var first = 0
            while first < values.count {
                let rows = (values.count - first) / columns >= perStatement ? perStatement : 1
                let statement = rows == perStatement ? full : single
                for parameter in 0..<rows * columns {
                    sqlite3_bind_value(statement, Int32(parameter + 1), values[first + parameter])
                }
                try step(into, statement)
                first += rows * columns
            }
            elapsed += ContinuousClock.now - started
        }
        return elapsed
    }

    private static func query(_ db: OpaquePointer, _ sql: String, _ each: (OpaquePointer) throws -> Void) throws {
        let statement = try prepare(db, sql, row: "", count: 0)
        defer { sqlite3_finalize(statement) }
        while true {
            let result = sqlite3_step(statement)
            guard result == SQLITE_ROW else {
                guard result == SQLITE_DONE else { throw Failure(description: String(cString: sqlite3_errmsg(db))) }
                return
            }
            try each(statement)
        }
    }
}

extension Duration {
    fileprivate var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}

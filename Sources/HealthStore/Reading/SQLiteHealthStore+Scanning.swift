import Foundation
import GRDB
import HealthCore

/// Streaming reads from a cursor in one read transaction (a consistent snapshot even while
/// an import writes). Each row is handed on and dropped: memory stays flat.
extension SQLiteHealthStore: SampleScanning {
    /// The page cache of a scanning connection, in KiB.
    static let scanCacheKiB = 4096

    public func storedSampleTypes() throws -> [SampleType] {
        try database.pool.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT identifier FROM sample_type t
                    WHERE EXISTS (SELECT 1 FROM sample WHERE type_id = t.id) ORDER BY identifier
                    """
            ).map(SampleType.init)
        }
    }

    public func scanSamples(
        of type: SampleType, startingIn interval: DateInterval?, _ body: (SampleRow) throws -> Void
    ) throws {
        try database.pool.read { db in
            guard
                let typeID = try Int64.fetchOne(
                    db, sql: "SELECT id FROM sample_type WHERE identifier = ?", arguments: [type.identifier])
            else { return }
            var sql = """
                SELECT s.start, s.end, s.value, s.value_text, s.unit, src.name, s.time_zone
                FROM sample s JOIN source src ON src.id = s.source_id WHERE s.type_id = ?
                """
            var arguments: StatementArguments = [typeID]
            if let interval {
                sql += " AND s.start >= ? AND s.start < ?"
                arguments += [interval.start.timeIntervalSince1970, interval.end.timeIntervalSince1970]
            }
            // A scan reads each page once: a small page cache keeps the memory flat (the
            // connection's usual cache is restored afterwards).
            let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
            try db.execute(sql: "PRAGMA cache_size = -\(Self.scanCacheKiB)")
            defer { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }
            let cursor = try Row.fetchCursor(db, sql: sql + " ORDER BY s.start, s.anchor", arguments: arguments)
            while let row = try cursor.next() {
                try body(
                    SampleRow(
                        start: row[0], end: row[1], value: row[2], valueText: row[3], unit: row[4], sourceName: row[5],
                        timeZoneIdentifier: row[6]))
            }
        }
    }

    /// The union of ``sampleSpans()``: index probes per type, never a scan of the table.
    public func storedSpan() throws -> DateInterval? {
        try database.pool.read { db in SampleTypeSpan.union(try Self.typeSpans(db)) }
    }

    public func clinicalRecords() throws -> [ClinicalRecord] {
        try database.pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT type, identifier, source_name, source_url, fhir_version, received_date, resource_file_path,
                        resource_json FROM clinical_record ORDER BY received_date, id
                    """
            ).map { row in
                ClinicalRecord(
                    type: row[0], identifier: row[1], sourceName: row[2], sourceURL: row[3], fhirVersion: row[4],
                    receivedDate: (row[5] as Double?).map(Date.init(timeIntervalSince1970:)), resourceFilePath: row[6],
                    resourceJSON: row[7])
            }
        }
    }
}

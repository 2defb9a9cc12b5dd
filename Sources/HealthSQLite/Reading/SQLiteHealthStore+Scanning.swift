import Foundation
import GRDB
import HealthCore

/// Streaming reads for exports: pages of ``sampleScanPageSize`` rows, each read by keyset
/// from the last along the `(type_id, start)` index (whose entries end in the anchor), in a
/// read transaction of its own. Each page is handed on and dropped: memory stays flat.
extension SQLiteHealthStore {
    /// The page cache of a connection while it reads a page of a scan, in KiB.
    static let scanCacheKiB = 4096

    public func samplePages(of type: SampleType, startingIn interval: DateInterval?) -> SamplePages {
        let lower = interval?.start.timeIntervalSince1970 ?? -Double.greatestFiniteMagnitude
        let upper = interval?.end.timeIntervalSince1970 ?? Double.greatestFiniteMagnitude
        let pool = database.pool
        return SamplePages {
            guard
                let typeID = try await pool.read({ db in
                    try Int64.fetchOne(db, sql: "SELECT id FROM sample_type WHERE identifier = ?", arguments: [type.identifier])
                })
            else { return SampleScanPage(rows: [], next: nil) }
            return try await Self.scanPage(pool, typeID: typeID, from: lower, below: upper, after: nil)
        }
    }

    /// The page past `after` (start, anchor) and the reading of the one after it.
    static func scanPage(
        _ pool: DatabasePool, typeID: Int64, from lower: Double, below upper: Double, after: (start: Double, anchor: Int64)?
    ) async throws -> SampleScanPage {
        let page = try await Self.page(pool, typeID: typeID, from: lower, below: upper, after: after)
        guard page.rows.count == sampleScanPageSize, let last = page.last else {
            return SampleScanPage(rows: page.rows, next: nil)
        }
        return SampleScanPage(rows: page.rows) {
            try await scanPage(pool, typeID: typeID, from: lower, below: upper, after: last)
        }
    }

    /// One page of a scan and the (start, anchor) it ends at.
    struct ScanPage: Sendable {
        var rows: [SampleRow]
        var last: (start: Double, anchor: Int64)?
    }

    /// Up to ``sampleScanPageSize`` samples of `typeID` starting in `lower..<upper`, past
    /// `after`'s (start, anchor): later starts, or its start and later anchors.
    static func page(
        _ pool: DatabasePool, typeID: Int64, from lower: Double, below upper: Double, after: (start: Double, anchor: Int64)?
    ) async throws -> ScanPage {
        try await pool.read { db in
            var sql = """
                SELECT s.start, s.end, s.value, s.value_text, s.unit, src.name, s.time_zone, s.anchor
                FROM sample s JOIN source src ON src.id = s.source_id
                WHERE s.type_id = ? AND s.start >= ? AND s.start < ?
                """
            var arguments: StatementArguments = [typeID, max(lower, after?.start ?? lower), upper]
            if let after {
                sql += " AND (s.start > ? OR s.anchor > ?)"
                arguments += [after.start, after.anchor]
            }
            // A scan reads each page once: a small page cache keeps the memory flat (the
            // connection's usual cache is restored afterwards).
            let cacheSize = try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000
            try db.execute(sql: "PRAGMA cache_size = -\(scanCacheKiB)")
            defer { try? db.execute(sql: "PRAGMA cache_size = \(cacheSize)") }
            // The connection keeps the statement prepared for the next page (pages after the
            // first share one SQL text); a cursor reuses one row: no row object per sample,
            // only the lean SampleRows.
            let statement = try db.cachedStatement(sql: sql + " ORDER BY s.start, s.anchor LIMIT \(sampleScanPageSize)")
            let cursor = try Row.fetchCursor(statement, arguments: arguments)
            var page = ScanPage(rows: [], last: nil)
            page.rows.reserveCapacity(sampleScanPageSize)
            while let row = try cursor.next() {
                page.rows.append(
                    SampleRow(
                        start: row[0], end: row[1], value: row[2], valueText: row[3], unit: row[4], sourceName: row[5],
                        timeZoneIdentifier: row[6]))
                page.last = (row[0], row[7])
            }
            return page
        }
    }

    public func clinicalRecords() async throws -> [ClinicalRecord] {
        try await database.pool.read { db in
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

import Foundation
import HealthCore
import PostgresNIO

/// Streaming reads over one user's samples in PostgreSQL, for CSV exports: pages of
/// ``sampleScanPageSize`` rows in (start, anchor) order, each read by keyset from the last,
/// so memory does not grow with the number of rows. Async throughout: nothing blocks a
/// thread while PostgreSQL answers.
extension PostgresHealthStore {
    public func samplePages(of type: SampleType, startingIn interval: DateInterval?) -> SamplePages {
        let lower = interval?.start.timeIntervalSince1970 ?? -Double.greatestFiniteMagnitude
        let upper = interval?.end.timeIntervalSince1970 ?? Double.greatestFiniteMagnitude
        return SamplePages { try await self.scanPage(type, from: lower, below: upper, after: nil) }
    }

    /// The page past `after` (start, anchor) and the reading of the one after it.
    private func scanPage(
        _ type: SampleType, from lower: Double, below upper: Double, after: (start: Double, anchor: Int64)?
    ) async throws -> SampleScanPage {
        let page = try await self.page(
            type, from: lower, below: upper, after: after ?? (-Double.greatestFiniteMagnitude, Int64.min))
        guard page.rows.count == sampleScanPageSize, let last = page.last else {
            return SampleScanPage(rows: page.rows, next: nil)
        }
        return SampleScanPage(rows: page.rows) { try await self.scanPage(type, from: lower, below: upper, after: last) }
    }

    fileprivate typealias Columns = (Double, Int64, Double, Double?, String?, String?, Int32, String?)

    private func page(
        _ type: SampleType, from lower: Double, below upper: Double, after: (start: Double, anchor: Int64)
    ) async throws -> (rows: [SampleRow], last: (start: Double, anchor: Int64)?) {
        var columns: [Columns] = []
        columns.reserveCapacity(sampleScanPageSize)
        for try await row in try await database.client.query(
            """
            SELECT s.start, s.anchor, s."end", s.value, s.value_text, s.unit, s.source_id, s.time_zone
            FROM health_sample s
            WHERE s.user_id = \(userID) AND s.type_id = (SELECT id FROM health_sample_type WHERE identifier = \(type.identifier))
                AND s.start >= \(lower) AND s.start < \(upper) AND (s.start, s.anchor) > (\(after.start), \(after.anchor))
            ORDER BY s.start, s.anchor LIMIT \(sampleScanPageSize)
            """, logger: database.logger
        ).decode(Columns.self) {
            columns.append(row)
        }
        let sources = try await database.names.resolve(
            types: [], sources: Set(columns.map(\.6)), devices: [], client: database.client, logger: database.logger
        ).sources
        let rows = columns.map { column in
            SampleRow(
                start: column.0, end: column.2, value: column.3, valueText: column.4, unit: column.5,
                sourceName: sources[column.6]?.name ?? "", timeZoneIdentifier: column.7)
        }
        return (rows, columns.last.map { ($0.0, $0.1) })
    }

    public func clinicalRecords() async throws -> [ClinicalRecord] {
        var records: [ClinicalRecord] = []
        for try await json in try await database.client.query(
            """
            SELECT body::text FROM health_record WHERE user_id = \(userID)
                AND family = \(HealthRecord.Family.clinicalRecord.rawValue)
            ORDER BY received NULLS FIRST, content_key
            """, logger: database.logger
        ).decode(String.self) {
            records.append(try JSONText.decode(ClinicalRecord.self, from: json))
        }
        return records
    }

}

extension PostgresHealthStore {
    /// Index probes per type, as in SQLite: the latest end lies among the samples that start
    /// at most the type's longest duration before its latest start.
    public func sampleSpans() async throws -> [SampleTypeSpan] {
        let query: PostgresQuery = """
            SELECT t.identifier, x.first, x.last FROM health_type_span p
            JOIN health_sample_type t ON t.id = p.type_id
            CROSS JOIN LATERAL (
                SELECT (SELECT min(start) FROM health_sample WHERE user_id = p.user_id AND type_id = p.type_id) AS first,
                    (SELECT max("end") FROM health_sample WHERE user_id = p.user_id AND type_id = p.type_id
                        AND start >= (SELECT max(start) FROM health_sample WHERE user_id = p.user_id AND type_id = p.type_id)
                            - p.max_duration) AS last
            ) x
            WHERE p.user_id = \(userID) AND x.first IS NOT NULL
            """
        var spans: [SampleTypeSpan] = []
        for try await (identifier, first, last) in try await database.client.query(query, logger: database.logger).decode(
            (String, Double, Double).self)
        {
            spans.append(
                SampleTypeSpan(
                    type: SampleType(identifier), first: Date(timeIntervalSince1970: first),
                    last: Date(timeIntervalSince1970: last)))
        }
        return spans.sorted { $0.type < $1.type }
    }
}

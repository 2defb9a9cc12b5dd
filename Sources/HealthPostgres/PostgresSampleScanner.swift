import Foundation
import HealthCore
import PostgresNIO

/// ``SampleScanning`` over one user's samples in PostgreSQL, for CSV exports: pages of
/// 5,000 rows in (start, anchor) order, each read by keyset from the last, so memory does
/// not grow with the number of rows. Synchronous, as the protocol is: call it from a thread
/// that may block (the server's CSV stream runs on a Dispatch worker), never from the
/// cooperative pool or an event loop.
public struct PostgresSampleScanner: SampleScanning {
    let store: PostgresHealthStore
    /// Rows per page.
    var pageSize = 5_000

    public init(store: PostgresHealthStore) { self.store = store }

    private var database: PostgresHealthDatabase { store.database }

    public func storedSampleTypes() throws -> [SampleType] {
        let (database, userID) = (database, store.userID)
        return try BlockingWork.wait {
            var types: [SampleType] = []
            for try await identifier in try await database.client.query(
                """
                SELECT t.identifier FROM health_sample_type t
                WHERE EXISTS (SELECT 1 FROM health_sample s WHERE s.user_id = \(userID) AND s.type_id = t.id)
                ORDER BY t.identifier
                """, logger: database.logger
            ).decode(String.self) {
                types.append(SampleType(identifier))
            }
            return types
        }
    }

    public func scanSamples(
        of type: SampleType, startingIn interval: DateInterval?, _ body: (SampleRow) throws -> Void
    )
        throws
    {
        let lower = interval?.start.timeIntervalSince1970 ?? -Double.greatestFiniteMagnitude
        let upper = interval?.end.timeIntervalSince1970 ?? Double.greatestFiniteMagnitude
        var after: (start: Double, anchor: Int64) = (-Double.greatestFiniteMagnitude, Int64.min)
        while true {
            let page = try self.page(type, from: lower, below: upper, after: after)
            for row in page.rows { try body(row) }
            guard page.rows.count == pageSize, let last = page.last else { return }
            after = last
        }
    }

    private typealias Columns = (Double, Int64, Double, Double?, String?, String?, Int32, String?)

    private func page(
        _ type: SampleType, from lower: Double, below upper: Double, after: (start: Double, anchor: Int64)
    ) throws -> (rows: [SampleRow], last: (start: Double, anchor: Int64)?) {
        let (database, userID, limit) = (database, store.userID, pageSize)
        let columns: [Columns] = try BlockingWork.wait {
            var rows: [Columns] = []
            rows.reserveCapacity(limit)
            for try await row in try await database.client.query(
                """
                SELECT s.start, s.anchor, s."end", s.value, s.value_text, s.unit, s.source_id, s.time_zone
                FROM health_sample s
                WHERE s.user_id = \(userID) AND s.type_id = (SELECT id FROM health_sample_type WHERE identifier = \(type.identifier))
                    AND s.start >= \(lower) AND s.start < \(upper) AND (s.start, s.anchor) > (\(after.start), \(after.anchor))
                ORDER BY s.start, s.anchor LIMIT \(limit)
                """, logger: database.logger
            ).decode(Columns.self) {
                rows.append(row)
            }
            return rows
        }
        let sources = try BlockingWork.wait {
            try await database.names.resolve(
                types: [], sources: Set(columns.map(\.6)), devices: [], client: database.client, logger: database.logger
            ).sources
        }
        let rows = columns.map { column in
            SampleRow(
                start: column.0, end: column.2, value: column.3, valueText: column.4, unit: column.5,
                sourceName: sources[column.6]?.name ?? "", timeZoneIdentifier: column.7)
        }
        return (rows, columns.last.map { ($0.0, $0.1) })
    }

    public func clinicalRecords() throws -> [ClinicalRecord] {
        let (database, userID) = (database, store.userID)
        return try BlockingWork.wait {
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

    public func storedSpan() throws -> DateInterval? {
        let store = store
        return try BlockingWork.wait { try await store.storedSpan() }
    }
}

extension PostgresHealthStore {
    /// From the earliest start to the latest end of the user's samples; `nil` when none:
    /// the union of ``sampleSpans()``.
    public func storedSpan() async throws -> DateInterval? {
        SampleTypeSpan.union(try await sampleSpans())
    }

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

    /// Synchronous streaming reads for CSV exports (``PostgresSampleScanner``).
    public var scanner: PostgresSampleScanner { PostgresSampleScanner(store: self) }
}

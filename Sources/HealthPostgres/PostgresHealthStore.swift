import Foundation
import HealthCore
import PostgresNIO

/// One user's samples in a ``PostgresHealthDatabase``: ``HealthQuerying`` with the SQLite
/// store's semantics, statement for statement (docs/store.md §PostgreSQL).
///
/// Range queries use the `(user_id, type_id, start)` index, bounded below by the longest
/// duration the user ever stored for the type, as in SQLite. Each answer is one statement,
/// so it reads one snapshot.
public struct PostgresHealthStore: Sendable {
    public let database: PostgresHealthDatabase
    public let userID: String

    init(database: PostgresHealthDatabase, userID: String) {
        self.database = database
        self.userID = userID
    }

    /// Appends the condition on `health_sample s` of the user's rows of `type` overlapping
    /// `interval` (``Sample/overlaps(_:)``): the type and its longest duration are looked
    /// up by the statement itself (once), so the index scan is bounded on both sides.
    func appendOverlapping(_ type: SampleType, _ interval: DateInterval, to sql: inout SQLBuilder) {
        let lower = interval.start.timeIntervalSince1970
        sql.append("s.user_id = ")
        sql.bind(userID)
        sql.append(" AND s.type_id = (SELECT id FROM health_sample_type WHERE identifier = ")
        sql.bind(type.identifier)
        sql.append(") AND s.start < ")
        sql.bind(interval.end.timeIntervalSince1970)
        sql.append(" AND s.start >= ")
        sql.bind(lower)
        sql.append(
            """
             - coalesce((SELECT p.max_duration FROM health_type_span p JOIN health_sample_type t ON t.id = p.type_id
                WHERE p.user_id = 
            """)
        sql.bind(userID)
        sql.append(" AND t.identifier = ")
        sql.bind(type.identifier)
        sql.append("), 0) AND (s.\"end\" > ")
        sql.bind(lower)
        sql.append(" OR s.start >= ")
        sql.bind(lower)
        sql.append(")")
    }
}

extension PostgresHealthStore: HealthQuerying {
    public func samples(of type: SampleType, overlapping interval: DateInterval) async throws -> [Sample] {
        try await fetch(type, overlapping: interval, order: "s.start, s.anchor").map(\.sample)
    }

    /// Every request in one statement (one round trip, one snapshot): each one's rows as
    /// ``samples(of:overlapping:)`` selects them, tagged with its position.
    public func samples(of requests: [(type: SampleType, interval: DateInterval)]) async throws -> [[Sample]] {
        if requests.count == 1 { return [try await samples(of: requests[0].type, overlapping: requests[0].interval)] }
        guard !requests.isEmpty else { return [] }
        var sql = SQLBuilder(capacity: requests.count * 8)
        for (index, request) in requests.enumerated() {
            sql.append(index == 0 ? "" : " UNION ALL ")
            sql.append("(SELECT \(SampleColumns.select), \(index) FROM health_sample s WHERE ")
            appendOverlapping(request.type, request.interval, to: &sql)
            sql.append(")")
        }
        var rows: [SampleColumns.Row] = []
        var positions: [Int32] = []
        for try await row in try await database.client.query(sql.query, logger: database.logger) {
            let (columns, position) = try SampleColumns.decode(row, extra: Int32.self)
            rows.append(columns)
            positions.append(position)
        }
        var answers = [[(anchor: Int64, sample: Sample)]](repeating: [], count: requests.count)
        for (row, position) in zip(try await SampleColumns.samples(rows, database: database), positions) {
            answers[Int(position)].append(row)
        }
        // A union's rows come in no promised order: each answer as `samples(of:overlapping:)` orders it.
        return answers.map { rows in
            rows.sorted { ($0.sample.start, $0.anchor) < ($1.sample.start, $1.anchor) }.map(\.sample)
        }
    }

    /// Two probes, as in SQLite: the latest-starting sample that ends by `instant` bounds
    /// the answer's end from below, so the answer starts at most `max_duration` before it.
    public func latestSample(of type: SampleType, endingBy instant: Date) async throws -> Sample? {
        let limit = instant.timeIntervalSince1970
        let query: PostgresQuery = """
            WITH t AS (SELECT id FROM health_sample_type WHERE identifier = \(type.identifier)),
            latest AS (
                SELECT s.start FROM health_sample s WHERE s.user_id = \(userID) AND s.type_id = (SELECT id FROM t)
                    AND s.start <= \(limit) AND s."end" <= \(limit) ORDER BY s.start DESC LIMIT 1),
            span AS (SELECT coalesce(max(max_duration), 0) AS d FROM health_type_span
                WHERE user_id = \(userID) AND type_id = (SELECT id FROM t))
            SELECT \(unescaped: SampleColumns.select) FROM health_sample s
            WHERE s.user_id = \(userID) AND s.type_id = (SELECT id FROM t)
                AND s.start >= (SELECT start FROM latest) - (SELECT d FROM span)
                AND s.start <= \(limit) AND s."end" <= \(limit)
            ORDER BY s."end" DESC, s.anchor DESC LIMIT 1
            """
        return try await SampleColumns.fetch(query, database: database).first?.sample
    }

    public func statistics(of type: SampleType, over interval: DateInterval, unit: HealthUnit) async throws -> SampleStatistics {
        SampleStatistics.compute(try await samples(of: type, overlapping: interval), over: interval, unit: unit)
    }

    public func latestAnchor() async throws -> QueryAnchor {
        let query: PostgresQuery = "SELECT last_anchor FROM health_store WHERE user_id = \(userID)"
        for try await anchor in try await database.client.query(query, logger: database.logger).decode(Int64.self) {
            return QueryAnchor(anchor)
        }
        return .initial
    }

    /// Additions and tombstones after `anchor` in one statement (one snapshot: a write
    /// committing between two reads could otherwise hide an addition below a tombstone).
    public func changes(of type: SampleType, since anchor: QueryAnchor, limit: Int) async throws -> AnchoredChanges {
        let rows = limit + 1
        let query: PostgresQuery = """
            WITH t AS (SELECT id FROM health_sample_type WHERE identifier = \(type.identifier))
            (SELECT \(unescaped: SampleColumns.select), false AS deleted FROM health_sample s
                WHERE s.user_id = \(userID) AND s.type_id = (SELECT id FROM t) AND s.anchor > \(anchor.rawValue)
                ORDER BY s.anchor LIMIT \(rows))
            UNION ALL
            (SELECT d.anchor, d.uuid, d.type_id, 0, 0, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, true
                FROM health_tombstone d
                WHERE d.user_id = \(userID) AND d.type_id = (SELECT id FROM t) AND d.anchor > \(anchor.rawValue)
                ORDER BY d.anchor LIMIT \(rows))
            """
        var added: [SampleColumns.Row] = []
        var deleted: [DeletedObject] = []
        for try await row in try await database.client.query(query, logger: database.logger) {
            let columns = try SampleColumns.decode(row, extra: Bool.self)
            if columns.1 {
                deleted.append(DeletedObject(uuid: columns.0.1, type: type, anchor: QueryAnchor(columns.0.0)))
            } else {
                added.append(columns.0)
            }
        }
        deleted.sort { $0.anchor < $1.anchor }
        let samples = try await SampleColumns.samples(added, database: database)
        return AnchoredChanges.merging(
            added: samples.map { (QueryAnchor($0.anchor), $0.sample) }, deleted: deleted, since: anchor, limit: limit)
    }

    /// The user's samples of `type` overlapping `interval`, with their anchors, in `order`.
    func fetch(
        _ type: SampleType, overlapping interval: DateInterval, order: String
    ) async throws -> [(
        anchor: Int64, sample: Sample
    )] {
        var sql = SQLBuilder("SELECT \(SampleColumns.select) FROM health_sample s WHERE ")
        appendOverlapping(type, interval, to: &sql)
        sql.append(" ORDER BY " + order)
        return try await SampleColumns.fetch(sql.query, database: database)
    }
}

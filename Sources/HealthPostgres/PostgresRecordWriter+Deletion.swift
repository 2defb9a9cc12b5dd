import Foundation
import HealthCore
import PostgresNIO

/// Deletions, as in SQLite (docs/store.md §Identity and deletions): a deleted sample leaves
/// no row of itself, its details or its correlation links, the members of a correlation
/// that no other correlation holds go with it, and each leaves a tombstone whose anchor
/// comes from the sequence additions use.
extension PostgresRecordWriter {
    /// Deletes the samples with these UUIDs; unknown ones (or deleted already) are reported
    /// in `unknown` and change nothing.
    public func delete(uuids: [UUID]) async throws -> DeletionReport {
        try await flush()
        var report = DeletionReport()
        for uuid in uuids where !(try await deleteSample(uuid: uuid, into: &report)) {
            report.unknown.append(uuid)
        }
        return report
    }

    /// Deletes the samples of `type` overlapping `interval` (``Sample/overlaps(_:)``), of the
    /// source named `source` only when it is given, in anchor order.
    public func delete(
        _ type: SampleType, overlapping interval: DateInterval, source: String?
    ) async throws
        -> DeletionReport
    {
        try await flush()
        var sql = SQLBuilder("SELECT s.uuid FROM health_sample s WHERE ")
        PostgresHealthStore(database: database, userID: userID).appendOverlapping(type, interval, to: &sql)
        if let source {
            sql.append(" AND s.source_id IN (SELECT id FROM health_source WHERE name = ")
            sql.bind(source)
            sql.append(")")
        }
        sql.append(" ORDER BY s.anchor")
        var uuids: [UUID] = []
        for try await uuid in try await connection.query(sql.query, logger: logger).decode(UUID.self) { uuids.append(uuid) }
        var report = DeletionReport()
        for uuid in uuids { try await deleteSample(uuid: uuid, into: &report) }
        return report
    }

    /// Deletes one sample with its links and leaves its tombstone, then the members of a
    /// correlation that no other correlation holds (in anchor order). One statement per
    /// sample; `false` when no such sample is stored.
    @discardableResult
    func deleteSample(uuid: UUID, into report: inout DeletionReport) async throws -> Bool {
        let query: PostgresQuery = """
            WITH d AS (
                DELETE FROM health_sample WHERE user_id = \(userID) AND uuid = \(uuid) RETURNING uuid, type_id, start, "end"),
            m AS (
                SELECT c.member FROM health_correlation_member c
                WHERE c.user_id = \(userID) AND c.correlation = \(uuid) AND NOT EXISTS (
                    SELECT 1 FROM health_correlation_member o
                    WHERE o.user_id = \(userID) AND o.member = c.member AND o.correlation <> \(uuid))),
            l AS (
                DELETE FROM health_correlation_member
                WHERE user_id = \(userID) AND (correlation = \(uuid) OR member = \(uuid))),
            t AS (
                INSERT INTO health_tombstone (user_id, anchor, uuid, type_id)
                SELECT \(userID), \(nextAnchor), uuid, type_id FROM d)
            SELECT d.type_id, d.start, d."end", ARRAY(
                SELECT m.member FROM m JOIN health_sample s ON s.user_id = \(userID) AND s.uuid = m.member
                ORDER BY s.anchor)
            FROM d
            """
        var deleted: (Int32, Double, Double, [UUID])?
        for try await row in try await connection.query(query, logger: logger).decode((Int32, Double, Double, [UUID]).self) {
            deleted = row
        }
        guard let (typeID, start, end, members) = deleted else { return false }
        lastAnchor = nextAnchor
        nextAnchor += 1
        deletedByTypeID[typeID, default: 0] += 1
        let type =
            if let identifier = interned.types.first(where: { $0.value == typeID })?.key {
                SampleType(identifier)
            } else {
                try await database.names.type(typeID, client: database.pool.autocommit, logger: logger)
            }
        report.add(uuid, type: type, start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: end))
        for member in members { try await deleteSample(uuid: member, into: &report) }
        return true
    }
}

import Foundation
import GRDB
import HealthCore

/// Deletions (docs/store.md §Identity and deletions): a deleted sample leaves no row of
/// itself or of anything attached to it, and a tombstone `(anchor, uuid, type)` whose
/// anchor comes from the sequence additions use, so the change feed reports it in order.
extension RecordWriter {
    /// Deletes the samples with these UUIDs. An unknown UUID, or one deleted already, is
    /// reported in `unknown` and changes nothing.
    public func delete(uuids: [UUID]) throws -> DeletionReport {
        var report = DeletionReport()
        for uuid in uuids {
            if let stored = try storedSample(uuid: uuid) {
                try deleteSample(anchor: stored.anchor, into: &report)
            } else {
                report.unknown.append(uuid)
            }
        }
        return report
    }

    /// Deletes the samples of `type` that overlap `interval` (``Sample/overlaps(_:)``),
    /// of the source named `source` only when it is given.
    public func delete(_ type: SampleType, overlapping interval: DateInterval, source: String?) throws -> DeletionReport {
        var report = DeletionReport()
        guard let (typeID, maxDuration) = try SQLiteHealthStore.typeInfo(db, type) else { return report }
        var (sql, arguments) = SQLiteHealthStore.overlapping(interval, typeID: typeID, maxDuration: maxDuration)
        sql = "SELECT s.anchor FROM sample s WHERE " + sql
        if let source {
            sql += " AND s.source_id IN (SELECT id FROM source WHERE name = ?)"
            arguments += [source]
        }
        for anchor in try Int64.fetchAll(db, sql: sql + " ORDER BY s.anchor", arguments: arguments) {
            try deleteSample(anchor: anchor, into: &report)
        }
        return report
    }

    /// The anchor and type id of the stored sample whose UUID is `uuid`: a writer-given
    /// one, or one its content key derives (a search of the 64 keys that derive it).
    func storedSample(uuid: UUID) throws -> (anchor: Int64, typeID: Int64)? {
        let bytes = Data(uuid.bytes)
        if let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT anchor, type_id FROM sample WHERE uuid = ?"), arguments: [bytes])
        {
            return (row[0], row[1])
        }
        guard let range = ContentKey.keyRange(of: uuid) else { return nil }
        let keys: StatementArguments = [Data(range.lowerBound.bytes), Data(range.upperBound.bytes)]
        let found = "SELECT anchor, type_id FROM sample WHERE content_key BETWEEN ? AND ? AND uuid IS NULL"
        guard samplesKeyedByTypeAndStart else {
            return try Row.fetchOne(db.cachedStatement(sql: found + " LIMIT 1"), arguments: keys).map { ($0[0], $0[1]) }
        }
        // The one index leads with the type and the start. A sample's key leads with its
        // type's tag and its start second (ContentKey.ordered), which the UUID keeps whole.
        let tag = range.lowerBound.high >> 48
        let second = Double(Int64(range.lowerBound.high & 0xFFFF_FFFF_FFFF) - (1 << 47))
        for typeID in try typeIDs(taggedAs: tag) {
            if let anchor = try Int64.fetchOne(
                db.cachedStatement(sql: found + " AND type_id = ? AND start >= ? AND start < ? LIMIT 1"),
                arguments: keys + [typeID, second, second + 1])
            {
                return (anchor, typeID)
            }
        }
        // Workouts', correlations' and audiograms' keys are hashes alone; their rows hold no
        // number, and the keys of such rows (categories' too) have an index of their own.
        return try Row.fetchOne(
            db.cachedStatement(sql: found + " AND value IS NULL LIMIT 1"), arguments: keys
        ).map { ($0[0], $0[1]) }
    }

    /// The ids of the stored types whose tag (``ContentKey/typeTag(_:)``) is `tag`.
    private func typeIDs(taggedAs tag: UInt64) throws -> [Int64] {
        if typeIDsByTag == nil {
            var byTag: [UInt64: [Int64]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, identifier FROM sample_type ORDER BY id") {
                byTag[ContentKey.typeTag(row[1]), default: []].append(row[0])
            }
            typeIDsByTag = byTag
        }
        return typeIDsByTag?[tag] ?? []
    }

    /// Deletes the sample at `anchor` (a replaced one: not reported).
    func deleteSample(anchor: Int64) throws {
        var report = DeletionReport()
        try deleteSample(anchor: anchor, into: &report)
    }

    /// Deletes the sample at `anchor` with its metadata, beats, audiogram points, workout
    /// children and correlation links, and the members of a correlation that no other
    /// correlation holds; leaves a tombstone for each sample deleted.
    private func deleteSample(anchor: Int64, into report: inout DeletionReport) throws {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT s.type_id, s.content_key, s.uuid, s.start, s.end, t.identifier
                    FROM sample s JOIN sample_type t ON t.id = s.type_id WHERE s.anchor = ?
                    """, arguments: [anchor])
        else { return }
        let typeID: Int64 = row["type_id"]
        let uuid = try UUID.ofSampleRow(given: row["uuid"] as Data?, key: row["content_key"] as Data)
        let members = try Int64.fetchAll(
            db,
            sql: """
                SELECT member FROM correlation_member m WHERE correlation = ?
                    AND NOT EXISTS (SELECT 1 FROM correlation_member o WHERE o.member = m.member AND o.correlation != ?)
                """, arguments: [anchor, anchor])
        for sql in Self.cascade { try db.cachedStatement(sql: sql).execute(arguments: [anchor]) }
        try db.execute(
            sql: "INSERT INTO tombstone (anchor, uuid, type_id) VALUES (?, ?, ?)",
            arguments: [nextAnchor, Data(uuid.bytes), typeID])
        nextAnchor += 1
        deletedByTypeID[typeID, default: 0] += 1
        report.add(
            uuid, type: SampleType(row["identifier"]), start: Date(timeIntervalSince1970: row["start"]),
            end: Date(timeIntervalSince1970: row["end"]))
        for member in members { try deleteSample(anchor: member, into: &report) }
    }

    /// What deleting the sample at anchor `?` deletes, children first.
    private static let cascade = [
        "DELETE FROM metadata WHERE owner_kind = \(MetadataOwner.sample.rawValue) AND owner = ?",
        "DELETE FROM hrv_beat WHERE sample = ?",
        "DELETE FROM audiogram_point WHERE sample = ?",
        "DELETE FROM correlation_member WHERE correlation = ?1 OR member = ?1",
        """
        DELETE FROM metadata WHERE owner_kind = \(MetadataOwner.workoutEvent.rawValue)
            AND owner IN (SELECT id FROM workout_event WHERE workout = ?)
        """,
        "DELETE FROM workout_event WHERE workout = ?",
        "DELETE FROM workout_statistic WHERE workout = ?",
        """
        DELETE FROM metadata WHERE owner_kind = \(MetadataOwner.workoutRoute.rawValue)
            AND owner IN (SELECT id FROM workout_route WHERE workout = ?)
        """,
        "DELETE FROM route_point WHERE route IN (SELECT id FROM workout_route WHERE workout = ?)",
        "DELETE FROM workout_route WHERE workout = ?",
        "DELETE FROM workout WHERE anchor = ?",
        "DELETE FROM sample WHERE anchor = ?",
    ]
}

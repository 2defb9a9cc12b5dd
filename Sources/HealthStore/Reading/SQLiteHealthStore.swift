import Foundation
import GRDB
import HealthCore

/// ``HealthQuerying`` over a ``HealthDatabase``.
///
/// Time-range queries use the `(type_id, start)` index, bounded below by the longest
/// duration ever stored for the type, so an overlap query reads only candidate rows.
public struct SQLiteHealthStore: HealthQuerying {
    let database: HealthDatabase

    public init(database: HealthDatabase) { self.database = database }

    private static let columns = """
        s.anchor, s.content_key, s.uuid, s.start, s.end, s.utc_offset, s.value, s.value_text, s.unit, s.creation_date,
        t.identifier AS type, src.name AS source_name, src.version AS source_version,
        d.id AS device_id, d.name AS d_name, d.manufacturer AS d_manufacturer, d.model AS d_model,
        d.hardware AS d_hardware, d.software AS d_software, d.firmware AS d_firmware,
        d.local_identifier AS d_local_identifier, d.udi_device_identifier AS d_udi_device_identifier,
        d.creation_date AS d_creation_date
        FROM sample s JOIN sample_type t ON t.id = s.type_id JOIN source src ON src.id = s.source_id
        LEFT JOIN device d ON d.id = s.device_id
        """

    public func samples(of type: SampleType, overlapping interval: DateInterval) async throws -> [Sample] {
        try await database.pool.read { db in
            guard let (typeID, maxDuration) = try Self.typeInfo(db, type) else { return [] }
            let (condition, arguments) = Self.overlapping(interval, typeID: typeID, maxDuration: maxDuration)
            return try Self.fetch(db, where: condition + " ORDER BY s.start, s.anchor", arguments: arguments)
        }
    }

    /// The condition on `sample s` of the rows of a type that overlap `interval`
    /// (``Sample/overlaps(_:)``), bounded below by the type's longest duration so that the
    /// `(type_id, start)` index reads only candidates.
    static func overlapping(
        _ interval: DateInterval, typeID: Int64, maxDuration: Double
    ) -> (condition: String, arguments: StatementArguments) {
        let lower = interval.start.timeIntervalSince1970
        let upper = interval.end.timeIntervalSince1970
        return (
            "s.type_id = ? AND s.start < ? AND s.start >= ? AND (s.end > ? OR s.start >= ?)",
            [typeID, upper, lower - maxDuration, lower, lower]
        )
    }

    /// Two indexed probes: the latest-starting sample that ends by `instant` bounds the
    /// answer's end from below, so the answer starts at most `max_duration` before it.
    public func latestSample(of type: SampleType, endingBy instant: Date) async throws -> Sample? {
        try await database.pool.read { db in
            let limit = instant.timeIntervalSince1970
            guard let (typeID, maxDuration) = try Self.typeInfo(db, type),
                let latestStart = try Double.fetchOne(
                    db, sql: "SELECT start FROM sample WHERE type_id = ? AND start <= ? AND end <= ? ORDER BY start DESC LIMIT 1",
                    arguments: [typeID, limit, limit])
            else { return nil }
            return try Self.fetch(
                db,
                where:
                    "s.type_id = ? AND s.start >= ? AND s.start <= ? AND s.end <= ? ORDER BY s.end DESC, s.anchor DESC LIMIT 1",
                arguments: [typeID, latestStart - maxDuration, limit, limit]
            ).first
        }
    }

    public func statistics(
        of type: SampleType, over interval: DateInterval, unit: HealthUnit
    ) async throws
        -> SampleStatistics
    {
        SampleStatistics.compute(try await samples(of: type, overlapping: interval), over: interval, unit: unit)
    }

    public func latestAnchor() async throws -> QueryAnchor {
        try await database.pool.read { db in try HealthDatabase.lastAnchor(db) }
    }

    public func changes(of type: SampleType, since anchor: QueryAnchor, limit: Int) async throws -> AnchoredChanges {
        try await database.pool.read { db in
            guard let (typeID, _) = try Self.typeInfo(db, type) else {
                return AnchoredChanges(changes: [], nextAnchor: anchor, hasMore: false)
            }
            // `+s.type_id`: walk the rows in anchor order from `since` and stop at `limit`,
            // rather than collect every row of the type from the (type_id, start) index and
            // sort them, which made each page of a large type cost as much as the whole type.
            let added = try Self.fetchWithAnchors(
                db, where: "+s.type_id = ? AND s.anchor > ? ORDER BY s.anchor LIMIT ?",
                arguments: [typeID, anchor.rawValue, limit + 1])
            let deleted = try Row.fetchAll(
                db, sql: "SELECT anchor, uuid FROM tombstone WHERE type_id = ? AND anchor > ? ORDER BY anchor LIMIT ?",
                arguments: [typeID, anchor.rawValue, limit + 1]
            ).compactMap { row in
                UUID(bytes: row["uuid"] as Data).map { DeletedObject(uuid: $0, type: type, anchor: QueryAnchor(row["anchor"])) }
            }
            return AnchoredChanges.merging(
                added: added.map { (QueryAnchor($0.anchor), $0.sample) }, deleted: deleted, since: anchor, limit: limit)
        }
    }

    /// The id and longest stored duration of `type`; `nil` when none was ever stored.
    static func typeInfo(_ db: Database, _ type: SampleType) throws -> (Int64, Double)? {
        try Row.fetchOne(db, sql: "SELECT id, max_duration FROM sample_type WHERE identifier = ?", arguments: [type.identifier])
            .map { ($0["id"], $0["max_duration"]) }
    }

    private static func fetch(_ db: Database, where clause: String, arguments: StatementArguments) throws -> [Sample] {
        try fetchWithAnchors(db, where: clause, arguments: arguments).map(\.sample)
    }

    /// Samples with their metadata and HRV beats, in the order of `clause`.
    private static func fetchWithAnchors(
        _ db: Database, where clause: String, arguments: StatementArguments
    ) throws
        -> [(anchor: Int64, sample: Sample)]
    {
        let rows = try Row.fetchAll(db, sql: "SELECT \(columns) WHERE \(clause)", arguments: arguments)
        guard !rows.isEmpty else { return [] }
        let anchors = rows.map { $0["anchor"] as Int64 }
        var metadata: [Int64: [MetadataEntry]] = [:]
        var beats: [Int64: [HeartbeatInstant]] = [:]
        for chunk in stride(from: 0, to: anchors.count, by: 500).map({ anchors[$0..<min($0 + 500, anchors.count)] }) {
            let list = chunk.map(String.init).joined(separator: ",")
            for row in try Row.fetchAll(
                db,
                sql: "SELECT owner, key, value FROM metadata WHERE owner_kind = 0 AND owner IN (\(list)) ORDER BY owner, position"
            ) {
                metadata[row["owner"], default: []].append(MetadataEntry(key: row["key"], value: row["value"]))
            }
            for row in try Row.fetchAll(
                db, sql: "SELECT sample, time, bpm FROM hrv_beat WHERE sample IN (\(list)) ORDER BY sample, position")
            {
                beats[row["sample"], default: []].append(
                    HeartbeatInstant(time: Date(timeIntervalSince1970: row["time"]), beatsPerMinute: row["bpm"]))
            }
        }
        return try rows.map { row in
            let anchor: Int64 = row["anchor"]
            let unit: String? = row["unit"]
            let value: SampleValue
            if let unit, let number = row["value"] as Double? {
                value = .quantity(number, unit: unit)
            } else if let text = row["value_text"] as String? {
                value = .category(text)
            } else {
                value = .none
            }
            let version: String = row["source_version"]
            let sample = Sample(
                type: SampleType(row["type"]), start: Date(timeIntervalSince1970: row["start"]),
                end: Date(timeIntervalSince1970: row["end"]), value: value,
                source: Source(name: row["source_name"], version: version.isEmpty ? nil : version),
                device: (row["device_id"] as Int64?) == nil ? nil : DeviceRow.device(from: row, prefix: "d_"),
                creationDate: (row["creation_date"] as Double?).map(Date.init(timeIntervalSince1970:)),
                metadata: metadata[anchor] ?? [], utcOffsetSeconds: row["utc_offset"], beats: beats[anchor],
                uuid: try UUID.ofSampleRow(given: row["uuid"], key: row["content_key"]))
            return (anchor, sample)
        }
    }
}

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

    /// The columns a sample is read from, in `SELECT` order: rows are read by position (a
    /// lookup by name compares every column name, case-insensitively, for each value).
    private enum Column: Int, CaseIterable {
        case anchor, contentKey, uuid, start, end, utcOffset, value, valueText, unit, creationDate, type
        case sourceName, sourceVersion, deviceID
        /// The device's nine fields follow, in ``DeviceRow/device(from:at:)``'s order.
        case device

        var sql: String {
            switch self {
            case .anchor: "s.anchor"
            case .contentKey: "s.content_key"
            case .uuid: "s.uuid"
            case .start: "s.start"
            case .end: "s.end"
            case .utcOffset: "s.utc_offset"
            case .value: "s.value"
            case .valueText: "s.value_text"
            case .unit: "s.unit"
            case .creationDate: "s.creation_date"
            case .type: "t.identifier"
            case .sourceName: "src.name"
            case .sourceVersion: "src.version"
            case .deviceID: "d.id"
            case .device: DeviceRow.fields.map { "d.\($0)" }.joined(separator: ", ")
            }
        }
    }

    private static let columns =
        Column.allCases.map(\.sql).joined(separator: ", ") + """
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
    static func fetchWithAnchors(
        _ db: Database, where clause: String, arguments: StatementArguments
    ) throws
        -> [(anchor: Int64, sample: Sample)]
    {
        let rows = try Row.fetchAll(db.cachedStatement(sql: "SELECT \(columns) WHERE \(clause)"), arguments: arguments)
        guard !rows.isEmpty else { return [] }
        let anchors = rows.map { $0[Column.anchor.rawValue] as Int64 }
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
            func column<Value: DatabaseValueConvertible>(_ column: Column) -> Value { row[column.rawValue] }
            let anchor: Int64 = column(.anchor)
            let unit: String? = column(.unit)
            let value: SampleValue
            if let unit, let number = column(.value) as Double? {
                value = .quantity(number, unit: unit)
            } else if let text = column(.valueText) as String? {
                value = .category(text)
            } else {
                value = .none
            }
            let version: String = column(.sourceVersion)
            let sample = Sample(
                type: SampleType(column(.type)), start: Date(timeIntervalSince1970: column(.start)),
                end: Date(timeIntervalSince1970: column(.end)), value: value,
                source: Source(name: column(.sourceName), version: version.isEmpty ? nil : version),
                device: (column(.deviceID) as Int64?) == nil ? nil : DeviceRow.device(from: row, at: Column.device.rawValue),
                creationDate: (column(.creationDate) as Double?).map(Date.init(timeIntervalSince1970:)),
                metadata: metadata[anchor] ?? [], utcOffsetSeconds: column(.utcOffset), beats: beats[anchor],
                uuid: try UUID.ofSampleRow(given: column(.uuid), key: column(.contentKey)))
            return (anchor, sample)
        }
    }
}

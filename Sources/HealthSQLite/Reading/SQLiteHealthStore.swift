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
        case sourceName, sourceVersion, deviceID, hasMetadata, hasBeats
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
            // Most samples have neither: asking here spares a lookup per sample afterwards.
            case .hasMetadata: "EXISTS (SELECT 1 FROM metadata m WHERE m.owner_kind = 0 AND m.owner = s.anchor)"
            case .hasBeats: "EXISTS (SELECT 1 FROM hrv_beat b WHERE b.sample = s.anchor)"
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

    /// `[1,2,3]`: a list of row ids bound as one argument, read back with `json_each`.
    private static func jsonArray(_ ids: [Int64]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    /// Samples with their metadata and HRV beats, in the order of `clause`.
    static func fetchWithAnchors(
        _ db: Database, where clause: String, arguments: StatementArguments
    ) throws
        -> [(anchor: Int64, sample: Sample)]
    {
        let statement = try db.cachedStatement(sql: "SELECT \(columns) WHERE \(clause)")
        let cursor = try Row.fetchCursor(statement, arguments: arguments)
        var read = StatementColumns(statement)
        // A store has a handful of devices: each is decoded once, not once per sample.
        var devices: [Int64: Device] = [:]
        var found: [(anchor: Int64, sample: Sample)] = []
        var withMetadata: [Int64] = []
        var withBeats: [Int64] = []
        while let row = try cursor.next() {
            let anchor = read.int64(Column.anchor.rawValue)
            if read.int64(Column.hasMetadata.rawValue) != 0 { withMetadata.append(anchor) }
            if read.int64(Column.hasBeats.rawValue) != 0 { withBeats.append(anchor) }
            let value: SampleValue
            if let unit = read.repeatedText(Column.unit.rawValue), let number = read.optionalDouble(Column.value.rawValue) {
                value = .quantity(number, unit: unit)
            } else if let text = read.text(Column.valueText.rawValue) {
                value = .category(text)
            } else {
                value = .none
            }
            var device: Device?
            if let id = read.optionalInt64(Column.deviceID.rawValue) {
                device = devices[id] ?? DeviceRow.device(from: row, at: Column.device.rawValue)
                devices[id] = device
            }
            let version = read.repeatedText(Column.sourceVersion.rawValue) ?? ""
            let uuid = try UUID.ofSampleRow(
                given: read.bytes(Column.uuid.rawValue),
                key: read.bytes(Column.contentKey.rawValue) ?? .init(start: nil, count: 0))
            let sample = Sample(
                type: SampleType(read.repeatedText(Column.type.rawValue) ?? ""),
                start: Date(timeIntervalSince1970: read.double(Column.start.rawValue)),
                end: Date(timeIntervalSince1970: read.double(Column.end.rawValue)), value: value,
                source: Source(
                    name: read.repeatedText(Column.sourceName.rawValue) ?? "", version: version.isEmpty ? nil : version),
                device: device,
                creationDate: read.optionalDouble(Column.creationDate.rawValue).map(Date.init(timeIntervalSince1970:)),
                metadata: [], utcOffsetSeconds: read.optionalInt64(Column.utcOffset.rawValue).map { Int($0) },
                beats: nil, uuid: uuid)
            found.append((anchor, sample))
        }
        guard !withMetadata.isEmpty || !withBeats.isEmpty else { return found }
        // Metadata and beats of the samples that have some, one query each, attached by position.
        var position: [Int64: Int] = [:]
        position.reserveCapacity(found.count)
        for (index, row) in found.enumerated() { position[row.anchor] = index }
        let metadata = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT owner, key, value FROM metadata WHERE owner_kind = 0
                    AND owner IN (SELECT value FROM json_each(?)) ORDER BY owner, position
                    """), arguments: [Self.jsonArray(withMetadata)])
        while let row = try metadata.next() {
            guard let index = position[row[0]] else { continue }
            found[index].sample.metadata.append(MetadataEntry(key: row[1], value: row[2]))
        }
        let beats = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT sample, time, bpm FROM hrv_beat
                    WHERE sample IN (SELECT value FROM json_each(?)) ORDER BY sample, position
                    """), arguments: [Self.jsonArray(withBeats)])
        while let row = try beats.next() {
            guard let index = position[row[0]] else { continue }
            let beat = HeartbeatInstant(time: Date(timeIntervalSince1970: row[1]), beatsPerMinute: row[2])
            if found[index].sample.beats == nil { found[index].sample.beats = [] }
            found[index].sample.beats?.append(beat)
        }
        return found
    }
}

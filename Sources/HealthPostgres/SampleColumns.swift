import Foundation
import HealthCore
import Logging
import PostgresNIO

/// How a `health_sample` row is read into a ``Sample``: the columns, in `SELECT` order,
/// and the decoding, with types, sources and devices from ``InternedNames``.
enum SampleColumns {
    /// Columns of `health_sample s`.
    static let select = """
        s.anchor, s.uuid, s.type_id, s.start, s."end", s.utc_offset, s.value, s.value_text, s.unit, s.source_id,
        s.device_id, s.creation_date, s.metadata::text, s.beats::text
        """

    typealias Row = (
        Int64, UUID, Int32, Double, Double, Int32?, Double?, String?, String?, Int32, Int32?, Double?, String?, String?
    )

    /// The row's ``select`` columns and one more after them.
    static func decode<Extra: PostgresDecodable>(_ row: PostgresRow, extra: Extra.Type) throws -> (Row, Extra) {
        let c = try row.decode(
            (
                Int64, UUID, Int32, Double, Double, Int32?, Double?, String?, String?, Int32, Int32?, Double?, String?,
                String?, Extra
            ).self)
        return ((c.0, c.1, c.2, c.3, c.4, c.5, c.6, c.7, c.8, c.9, c.10, c.11, c.12, c.13), c.14)
    }

    /// Runs `query` (selecting ``select`` first, maybe more after) and reads every row.
    static func fetch(
        _ query: PostgresQuery, database: PostgresHealthDatabase, on connection: PostgresConnection? = nil
    ) async throws -> [(anchor: Int64, sample: Sample)] {
        var rows: [Row] = []
        let sequence =
            if let connection {
                try await connection.query(query, logger: database.logger)
            } else {
                try await database.client.query(query, logger: database.logger)
            }
        for try await row in sequence {
            rows.append(try row.decode(Row.self))
        }
        return try await samples(rows, database: database)
    }

    /// Samples of decoded rows.
    static func samples(_ rows: [Row], database: PostgresHealthDatabase) async throws -> [(anchor: Int64, sample: Sample)] {
        guard !rows.isEmpty else { return [] }
        var typeIDs = Set<Int32>()
        var sourceIDs = Set<Int32>()
        var deviceIDs = Set<Int32>()
        for row in rows {
            typeIDs.insert(row.2)
            sourceIDs.insert(row.9)
            if let device = row.10 { deviceIDs.insert(device) }
        }
        let names = try await database.names.resolve(
            types: typeIDs, sources: sourceIDs, devices: deviceIDs, client: database.client, logger: database.logger)
        return try rows.map { row in
            let value: SampleValue
            if let unit = row.8, let number = row.6 {
                value = .quantity(number, unit: unit)
            } else if let text = row.7 {
                value = .category(text)
            } else {
                value = .none
            }
            let sample = Sample(
                type: names.types[row.2]!, start: Date(timeIntervalSince1970: row.3), end: Date(timeIntervalSince1970: row.4),
                value: value, source: names.sources[row.9]!, device: row.10.flatMap { names.devices[$0] },
                creationDate: row.11.map(Date.init(timeIntervalSince1970:)),
                metadata: try row.12.map(MetadataJSON.decode) ?? [], utcOffsetSeconds: row.5.map(Int.init),
                beats: try row.13.map(BeatsJSON.decode), uuid: row.1)
            return (row.0, sample)
        }
    }
}

/// A sample's metadata as a JSON array of `[key, value]` pairs, in order (keys may repeat).
enum MetadataJSON {
    static func encode(_ metadata: [MetadataEntry]) -> String? {
        guard !metadata.isEmpty else { return nil }
        var json = "["
        for (index, entry) in metadata.enumerated() {
            if index > 0 { json += "," }
            json += "["
            JSONString.append(entry.key, to: &json)
            json += ","
            JSONString.append(entry.value, to: &json)
            json += "]"
        }
        return json + "]"
    }

    static func decode(_ json: String) throws -> [MetadataEntry] {
        try JSONDecoder().decode([[String]].self, from: Data(json.utf8)).map { pair in
            guard pair.count == 2 else { throw PostgresHealthStoreError("a metadata entry is not a [key, value] pair") }
            return MetadataEntry(key: pair[0], value: pair[1])
        }
    }
}

/// HRV beats as a JSON array of `[time, bpm]` pairs (seconds since 1970; Swift prints
/// doubles exactly, so they read back bit for bit).
enum BeatsJSON {
    static func encode(_ beats: [HeartbeatInstant]?) -> String? {
        guard let beats, !beats.isEmpty else { return nil }
        return "[" + beats.map { "[\($0.time.timeIntervalSince1970),\($0.beatsPerMinute)]" }.joined(separator: ",") + "]"
    }

    static func decode(_ json: String) throws -> [HeartbeatInstant] {
        try JSONDecoder().decode([[Double]].self, from: Data(json.utf8)).map { pair in
            guard pair.count == 2 else { throw PostgresHealthStoreError("a beat is not a [time, bpm] pair") }
            return HeartbeatInstant(time: Date(timeIntervalSince1970: pair[0]), beatsPerMinute: pair[1])
        }
    }
}

enum JSONString {
    /// Appends `text` as a JSON string literal.
    static func append(_ text: String, to json: inout String) {
        json += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case "\n": json += "\\n"
            case "\r": json += "\\r"
            case "\t": json += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0:
                json += String(format: "\\u%04x", scalar.value)
            default: json.unicodeScalars.append(scalar)
            }
        }
        json += "\""
    }
}

extension ContentKey {
    /// The key's 16 bytes as PostgreSQL stores them (a `uuid` column: fixed size, compared
    /// as bytes).
    var storedUUID: UUID {
        let b = bytes
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }

    init(storedUUID: UUID) {
        self = ContentKey(bytes: storedUUID.bytes)!
    }
}

/// The `health_device` columns of a ``Device``.
enum DeviceColumns {
    static let select =
        "id, name, manufacturer, model, hardware, software, firmware, local_identifier, udi_device_identifier, creation_date"

    static func decode(_ row: PostgresRow) throws -> (Int32, Device) {
        let (id, name, manufacturer, model, hardware, software, firmware, local, udi, created) = try row.decode(
            (Int32, String?, String?, String?, String?, String?, String?, String?, String?, String?).self)
        return (
            id,
            Device(
                name: name, manufacturer: manufacturer, model: model, hardware: hardware, software: software,
                firmware: firmware, localIdentifier: local, udiDeviceIdentifier: udi, creationDate: created)
        )
    }
}

/// The `health_sample` columns a ``Sample`` fills by itself, as every writer stores them.
struct SampleValueColumns {
    let start: Double
    let end: Double
    let utcOffset: Int32?
    let timeZone: String?
    let value: Double?
    let text: String?
    let unit: String?
    let created: Double?
    let metadata: String?
    let beats: String?

    init(_ sample: Sample) {
        var (value, text, unit): (Double?, String?, String?) = (nil, nil, nil)
        switch sample.value {
        case .quantity(let number, let symbol): (value, unit) = (number, symbol)
        case .category(let category): (value, text) = (Double(category).flatMap { $0.isFinite ? $0 : nil }, category)
        case .none: break
        }
        (self.value, self.text, self.unit) = (value, text, unit)
        start = sample.start.timeIntervalSince1970
        end = sample.end.timeIntervalSince1970
        utcOffset = sample.utcOffsetSeconds.map(Int32.init)
        timeZone = sample.timeZoneIdentifier
        created = sample.creationDate?.timeIntervalSince1970
        metadata = MetadataJSON.encode(sample.metadata)
        beats = BeatsJSON.encode(sample.beats)
    }
}

import Foundation
import HealthCore

/// One compact, correct picture of the user's state for a coach (the AirFit seed's
/// `HealthContextSnapshot`), assembled by ``ContextAssembler``.
///
/// Every field the seed names is here (read them straight off the snapshot, e.g.
/// `snapshot.stepCountToday`), plus the zone the day was taken in and ``missing``: one
/// entry per empty field saying why it is empty. JSON uses snake-case keys, writes empty
/// fields as `null`, and writes instants in ISO 8601 with the snapshot zone's offset.
@dynamicMemberLookup
public struct HealthContextSnapshot: Hashable, Sendable {
    /// When the snapshot was taken (the "as of" instant: nothing later is in it).
    public var timestamp: Date
    /// The local day of ``timestamp``: "today" for every "today" field.
    public var date: LocalDate
    /// The zone of that day (`HKTimeZone` evidence, `--tz`, or the home zone).
    public var timezone: TimeZone
    public var values: ContextValues
    /// Why each empty field is empty, in ``ContextField`` order.
    public var missing: [MissingPart]

    public init(timestamp: Date, date: LocalDate, timezone: TimeZone, values: ContextValues, missing: [MissingPart]) {
        self.timestamp = timestamp
        self.date = date
        self.timezone = timezone
        self.values = values
        self.missing = missing
    }

    public subscript<Value>(dynamicMember path: KeyPath<ContextValues, Value>) -> Value { values[keyPath: path] }

    /// An empty part of a snapshot and the reason.
    public struct MissingPart: Hashable, Sendable, Codable {
        /// The JSON name of the field (or `timezone`).
        public var field: String
        /// The provider that was asked for it.
        public var provider: String
        public var reason: String

        public init(field: String, provider: String, reason: String) {
            self.field = field
            self.provider = provider
            self.reason = reason
        }
    }
}

extension HealthContextSnapshot: Codable {
    private enum TopKey: String, CodingKey {
        case timestamp, date, timezone, missing
    }

    public func encode(to encoder: any Encoder) throws {
        var top = encoder.container(keyedBy: TopKey.self)
        try top.encode(LocalTimestamp.format(timestamp, in: timezone), forKey: .timestamp)
        try top.encode(date, forKey: .date)
        try top.encode(timezone.identifier, forKey: .timezone)
        var fields = encoder.container(keyedBy: ContextField.self)
        try values.encode(to: &fields, zone: timezone)
        try top.encode(missing, forKey: .missing)
    }

    public init(from decoder: any Decoder) throws {
        let top = try decoder.container(keyedBy: TopKey.self)
        let stamp = try top.decode(String.self, forKey: .timestamp)
        guard let timestamp = LocalTimestamp.parse(stamp) else {
            throw DecodingError.dataCorruptedError(
                forKey: .timestamp, in: top, debugDescription: "not an ISO 8601 date-time with an offset")
        }
        let identifier = try top.decode(String.self, forKey: .timezone)
        guard let zone = TimeZone(identifier: identifier) else {
            throw DecodingError.dataCorruptedError(forKey: .timezone, in: top, debugDescription: "unknown time zone")
        }
        let fields = try decoder.container(keyedBy: ContextField.self)
        let values = try ContextValues(from: fields)
        self.init(
            timestamp: timestamp, date: try top.decode(LocalDate.self, forKey: .date), timezone: zone, values: values,
            missing: try top.decode([MissingPart].self, forKey: .missing))
    }
}

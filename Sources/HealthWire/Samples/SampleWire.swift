import Foundation
import HealthCore
import HealthMetrics

/// A sample as the HTTP API and the CLI write it and `POST /v1/samples` takes it: the
/// columns of the store's `sample` table, the UUID and the device.
///
/// ```json
/// {"uuid": "6F1C2A8E-3B5D-4E0A-9C7B-2D4E6F8A0B1C", "type": "HKQuantityTypeIdentifierStepCount",
///  "start": "2024-06-01T08:00:00Z", "end": "2024-06-01T08:05:00Z", "value": 412, "unit": "count",
///  "source": "Jane’s iPhone", "device": {"name": "iPhone", "model": "iPhone"},
///  "metadata": {"HKTimeZone": "Europe/Paris"}}
/// ```
public struct SampleWire: Codable, Sendable, Hashable {
    /// The sample's UUID: optional when writing (an export record's is derived from its
    /// content), always present when read.
    public var uuid: UUID?
    public var type: String
    public var start: Date
    public var end: Date
    /// The number of a quantity (with `unit`).
    public var value: Double?
    public var unit: String?
    /// A category value (`HKCategoryValueSleepAnalysisAsleepCore`).
    public var valueText: String?
    public var source: String
    public var sourceVersion: String?
    public var device: DeviceWire?
    public var metadata: [String: String]?
    /// A workout's events, statistics, totals and routes (``WorkoutWire``): only on a
    /// sample of type `HKWorkoutTypeIdentifier`. Without it a workout is its sample row.
    public var workout: WorkoutWire?
    /// A correlation's readings (a blood pressure's systolic and diastolic, a meal's
    /// nutrients), each a sample with its own UUID: only on a sample of an
    /// `HKCorrelationTypeIdentifier…` type. Without it a correlation is its sample row.
    public var members: [SampleWire]?

    /// The most members a correlation carries.
    public static let maximumMembers = 100

    enum CodingKeys: String, CodingKey {
        case uuid, type, start, end, value, unit
        case valueText = "value_text"
        case source
        case sourceVersion = "source_version"
        case device, metadata, workout, members
    }

    /// The wire form of a stored sample.
    public init(_ sample: Sample) {
        uuid = sample.uuid
        type = sample.type.identifier
        start = sample.start
        end = sample.end
        switch sample.value {
        case .quantity(let number, let unit):
            value = number
            self.unit = unit
        case .category(let text): valueText = text
        case .none: break
        }
        source = sample.source.name
        sourceVersion = sample.source.version
        device = sample.device.map(DeviceWire.init)
        // Keys repeat in some exports: the last one wins here, as in the store's readers.
        metadata = sample.metadata.isEmpty ? nil : Dictionary(sample.metadata.map { ($0.key, $0.value) }) { $1 }
    }

    /// The sample, or a ``WireFieldError`` naming the field (`/samples/<index>/…`).
    public func sample(at index: Int) throws -> Sample {
        try sample(pointer: "/samples/\(index)")
    }

    /// The record: the sample, or the workout whole when ``workout`` is given; a
    /// ``WireFieldError`` names the field under `pointer`.
    public func record(pointer: String) throws -> HealthRecord {
        let sample = try sample(pointer: pointer)
        if let members { return .correlation(try correlation(sample, members: members, pointer: pointer)) }
        guard let workout else { return .sample(sample) }
        return .workout(try workout.workout(header: sample, pointer: "\(pointer)/workout"))
    }

    /// The sample, or a ``WireFieldError`` naming the field under `pointer`.
    public func sample(pointer: String) throws -> Sample {
        func at(_ field: String) -> String { "\(pointer)/\(field)" }
        guard !type.isEmpty, type.count <= 200 else {
            throw WireFieldError("type must be a type identifier", pointer: at("type"))
        }
        let sampleType = try Self.resolve(type, pointer: at("type"))
        for (field, instant) in [("start", start), ("end", end)] where !Self.acceptedInstants.contains(instant) {
            throw WireFieldError("\(field) must be within the years 1900–2199", pointer: at(field))
        }
        if let problem = PlausibleRange.spanViolation(start: start, end: end) {
            throw WireFieldError(problem, pointer: at("end"))
        }
        guard !source.isEmpty else { throw WireFieldError("source must name the app or device", pointer: at("source")) }
        let sampleValue: SampleValue
        switch (value, valueText) {
        case (let number?, nil):
            // A category's value is its name (HealthKit's raw integer 1 would be stored and read as nothing).
            guard !sampleType.identifier.hasPrefix("HKCategoryTypeIdentifier") else {
                throw WireFieldError(
                    "a category type takes value_text (HKCategoryValue…), not a number", pointer: at("value"))
            }
            guard number.isFinite else { throw WireFieldError("value must be a finite number", pointer: at("value")) }
            guard let unit, !unit.isEmpty else { throw WireFieldError("a value needs its unit", pointer: at("unit")) }
            if let problem = PlausibleRange.violation(value: number, unit: unit, type: sampleType) {
                throw WireFieldError(problem, pointer: at("value"))
            }
            sampleValue = .quantity(number, unit: unit)
        case (nil, let text?):
            // A quantity as text would be stored and counted without a value. (Workout details
            // on a quantity type are refused for that, by `record(pointer:)`.)
            guard workout != nil || !sampleType.identifier.hasPrefix("HKQuantityTypeIdentifier") else {
                throw WireFieldError("a quantity type takes value (a number) and unit, not value_text", pointer: at("value_text"))
            }
            sampleValue = .category(text)
        case (nil, nil):
            sampleValue = .none
        default:
            throw WireFieldError("give value (with unit) or value_text, not both", pointer: at("value_text"))
        }
        return Sample(
            type: sampleType, start: start, end: end, value: sampleValue,
            source: Source(name: source, version: sourceVersion), device: device?.device,
            metadata: (metadata ?? [:]).sorted { $0.key < $1.key }.map { MetadataEntry(key: $0.key, value: $0.value) },
            uuid: uuid)
    }

    /// The instants a sample may start and end at: 1900-01-01 through 2199-12-31 (UTC), the
    /// dates the server's queries serve. A sample of year 0 would be stored where no query
    /// reaches it, and recompute ten years of empty days.
    static let acceptedInstants = Date(timeIntervalSince1970: -2_208_988_800)...Date(timeIntervalSince1970: 7_258_118_399)

    /// The type `name` means: a name or identifier of the table (`steps`, `heart_rate`,
    /// `HKQuantityTypeIdentifierStepCount`: ``SampleTypeNames``), or an identifier beyond it
    /// kept as sent (`HK…`, a newer HealthKit type; `HAE:<name>`); anything else is refused
    /// with the closest names, never stored as a type of its own.
    static func resolve(_ name: String, pointer: String) throws -> SampleType {
        do {
            return try SampleTypeNames.type(named: name)
        } catch {
            if name.hasPrefix("HK") || name.hasPrefix("HAE:") { return SampleType(name) }
            throw WireFieldError(error.description, pointer: pointer)
        }
    }

    /// The encoder of samples and change feeds: sorted keys, RFC 3339 instants with
    /// milliseconds when they have a fraction (``RFC3339/format(_:)``).
    public static func encoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(instant(date))
        }
        return encoder
    }

    /// The decoder of samples and sync batches: instants are RFC 3339 (``RFC3339``), any
    /// offset, any fraction.
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            guard let date = RFC3339.parse(try container.decode(String.self)) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "Expected an RFC 3339 date-time such as 2024-06-01T08:00:00Z.")
            }
            return date
        }
        return decoder
    }

    /// `2024-06-01T08:00:00Z`, or `2024-06-01T08:00:00.250Z` for an instant with a fraction.
    public static func instant(_ date: Date) -> String { RFC3339.format(date) }
}

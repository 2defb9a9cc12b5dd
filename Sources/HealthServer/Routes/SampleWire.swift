import Foundation
import HealthCore

/// A sample as `POST /v1/samples` takes it: the columns of the store's `sample` table.
///
/// ```json
/// {"type": "HKQuantityTypeIdentifierStepCount", "start": "2024-06-01T08:00:00Z",
///  "end": "2024-06-01T08:05:00Z", "value": 412, "unit": "count", "source": "Jane’s iPhone",
///  "metadata": {"HKTimeZone": "Europe/Paris"}}
/// ```
struct SampleWire: Codable, Sendable {
    var type: String
    var start: Date
    var end: Date
    /// The number of a quantity (with `unit`).
    var value: Double?
    var unit: String?
    /// A category value (`HKCategoryValueSleepAnalysisAsleepCore`).
    var valueText: String?
    var source: String
    var sourceVersion: String?
    var metadata: [String: String]?

    enum CodingKeys: String, CodingKey {
        case type, start, end, value, unit
        case valueText = "value_text"
        case source
        case sourceVersion = "source_version"
        case metadata
    }

    /// The sample, or a 422 naming the field (`/samples/<index>/…`).
    func sample(at index: Int) throws -> Sample {
        func at(_ field: String) -> String { "/samples/\(index)/\(field)" }
        guard !type.isEmpty, type.count <= 200 else {
            throw Problem.unprocessable("type must be a type identifier", pointer: at("type"))
        }
        guard end >= start else { throw Problem.unprocessable("end must not be before start", pointer: at("end")) }
        guard end.timeIntervalSince(start) <= 31 * 86400 else {
            throw Problem.unprocessable("a sample may span at most 31 days", pointer: at("end"))
        }
        guard !source.isEmpty else { throw Problem.unprocessable("source must name the app or device", pointer: at("source")) }
        let sampleValue: SampleValue
        switch (value, valueText) {
        case (let number?, nil):
            guard number.isFinite else { throw Problem.unprocessable("value must be a finite number", pointer: at("value")) }
            guard let unit, !unit.isEmpty else { throw Problem.unprocessable("a value needs its unit", pointer: at("unit")) }
            sampleValue = .quantity(number, unit: unit)
        case (nil, let text?):
            sampleValue = .category(text)
        case (nil, nil):
            sampleValue = .none
        default:
            throw Problem.unprocessable("give value (with unit) or value_text, not both", pointer: at("value_text"))
        }
        return Sample(
            type: SampleType(type), start: start, end: end, value: sampleValue,
            source: Source(name: source, version: sourceVersion),
            metadata: (metadata ?? [:]).sorted { $0.key < $1.key }.map { MetadataEntry(key: $0.key, value: $0.value) })
    }
}

/// The body of `POST /v1/samples`.
struct SampleBatch: Codable, Sendable {
    var samples: [SampleWire]
}

import Foundation

/// Rows per page of ``HealthQuerying/samplePages(of:startingIn:)`` in the stores.
public let sampleScanPageSize = 5_000

/// One sample as an export needs it: no metadata lists, no device; the source name and
/// the `HKTimeZone` only.
public struct SampleRow: Sendable {
    /// Seconds since 1970 (UTC).
    public var start: Double
    public var end: Double
    /// The number of a quantity, or of a category written as a number.
    public var value: Double?
    /// A category value as written (`HKCategoryValueSleepAnalysisAsleepCore`).
    public var valueText: String?
    /// The unit as the export spells it.
    public var unit: String?
    public var sourceName: String
    /// The `HKTimeZone` of the sample, when it had one.
    public var timeZoneIdentifier: String?

    public init(
        start: Double, end: Double, value: Double?, valueText: String?, unit: String?, sourceName: String,
        timeZoneIdentifier: String?
    ) {
        self.start = start
        self.end = end
        self.value = value
        self.valueText = valueText
        self.unit = unit
        self.sourceName = sourceName
        self.timeZoneIdentifier = timeZoneIdentifier
    }
}

extension SampleRow {
    /// The row of `sample`.
    public init(_ sample: Sample) {
        self.init(
            start: sample.start.timeIntervalSince1970, end: sample.end.timeIntervalSince1970, value: sample.value.number,
            valueText: sample.value.text, unit: sample.value.unit, sourceName: sample.source.name,
            timeZoneIdentifier: sample.timeZoneIdentifier)
    }
}

import Foundation

/// Streaming reads for exports: every sample of a type, in start order, one lean row at a
/// time, with memory that does not grow with the number of rows. The SQLite store answers
/// from a database cursor. (``HealthQuerying`` returns arrays, which suits the pipelines'
/// day-sized questions; an export of millions of rows needs this.)
public protocol SampleScanning: Sendable {
    /// The sample types that have at least one stored sample, by identifier.
    func storedSampleTypes() throws -> [SampleType]

    /// Calls `body` with each sample of `type` whose start lies in `interval` (every sample
    /// when `nil`), ordered by start, then by storage order.
    func scanSamples(of type: SampleType, startingIn interval: DateInterval?, _ body: (SampleRow) throws -> Void) throws

    /// The stored clinical records (FHIR resources), oldest received first.
    func clinicalRecords() throws -> [ClinicalRecord]

    /// From the earliest start to the latest end of any stored sample; `nil` when empty.
    func storedSpan() throws -> DateInterval?
}

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

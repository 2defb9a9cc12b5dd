import Foundation

/// Streaming reads for exports: every sample of a type, in start order, in pages of lean
/// rows, with memory that does not grow with the number of rows. Async from end to end: the
/// stores read a page at a time by keyset (start, then storage order) and the caller's
/// `body` awaits whatever it feeds (a file, an HTTP response), so a slow reader slows the
/// scan and no thread blocks. (``HealthQuerying`` returns arrays, which suits the
/// pipelines' day-sized questions; an export of millions of rows needs this.)
public protocol SampleScanning: Sendable {
    /// The sample types that have at least one stored sample, by identifier.
    func storedSampleTypes() async throws -> [SampleType]

    /// Calls `body` with each page of the samples of `type` whose start lies in `interval`
    /// (every sample when `nil`), ordered by start, then by storage order; pages are never
    /// empty. Each page is read in a transaction of its own: a write that commits during a
    /// scan may or may not be in the pages after it, never half in one.
    func scanSamples(
        of type: SampleType, startingIn interval: DateInterval?, pages body: ([SampleRow]) async throws -> Void
    ) async throws

    /// The stored clinical records (FHIR resources), oldest received first.
    func clinicalRecords() async throws -> [ClinicalRecord]

    /// From the earliest start to the latest end of any stored sample; `nil` when empty.
    func storedSpan() async throws -> DateInterval?
}

/// Rows per page of ``SampleScanning/scanSamples(of:startingIn:pages:)`` in the stores.
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

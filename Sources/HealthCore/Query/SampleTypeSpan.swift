import Foundation

/// Where a store's samples of one type lie: the first sample's start and the latest end.
/// ``HealthQuerying/sampleSpans()`` answers one per stored type; ``DataAnchor`` reads the
/// days with data from them.
public struct SampleTypeSpan: Hashable, Sendable, Codable {
    public var type: SampleType
    /// The earliest start of a sample of ``type``.
    public var first: Date
    /// The latest end of a sample of ``type`` (never before ``first``).
    public var last: Date

    public init(type: SampleType, first: Date, last: Date) {
        self.type = type
        self.first = first
        self.last = max(first, last)
    }

    /// From the earliest start to the latest end of `spans`; `nil` when there are none
    /// (a store's `storedSpan()`).
    public static func union(_ spans: [SampleTypeSpan]) -> DateInterval? {
        guard let first = spans.map(\.first).min(), let last = spans.map(\.last).max() else { return nil }
        return DateInterval(start: first, end: max(first, last))
    }
}

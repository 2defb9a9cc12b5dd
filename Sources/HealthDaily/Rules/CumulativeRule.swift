import Foundation
import HealthCore

/// Steps and active energy for one local day, without counting the same movement twice.
///
/// 1. Every sample overlapping the day is clipped to it; its value is split in proportion
///    to time (a 23:50–00:10 sample of 200 steps gives 100 to each day).
/// 2. Each piece is classified by device: Apple Watch, iPhone, other.
/// 3. `norm_v1`: with Watch pieces, the value is Σ Watch + Σ iPhone pieces that do not
///    overlap the union of Watch pieces (a phone piece touching Watch coverage is dropped
///    whole); other sources are ignored. Without Watch pieces: Σ iPhone. With neither:
///    Σ other (the seed's "else other").
///    `norm_v2`: Watch, then iPhone, then other; each piece counts for the fraction of its
///    time not covered by the pieces of higher-priority sources.
/// 4. The raw sum is Σ of all pieces of all sources.
public enum CumulativeRule {
    /// The figures of one day. `value` and `rawSum` are `nil` when no sample overlaps.
    public struct Result: Hashable, Sendable {
        public var value: Double?
        public var rawSum: Double?
        public var primarySource: SourceCategory?
        public var secondarySourcesUsed: [SourceCategory]
        public var ignoredSources: [SourceCategory]
        public var rawSampleCount: Int
    }

    struct Piece {
        var start: Date
        var end: Date
        var value: Double
        var category: SourceCategory
    }

    /// Applies `version` to `samples` for `day`, in `unit` (samples in other dimensions or
    /// without a number are skipped).
    public static func evaluate(
        _ samples: [Sample], day: DateInterval, unit: HealthUnit, version: NormalizationVersion
    ) -> Result {
        let pieces = clip(samples, to: day, unit: unit)
        guard !pieces.isEmpty else {
            return Result(
                value: nil, rawSum: nil, primarySource: nil, secondarySourcesUsed: [], ignoredSources: [],
                rawSampleCount: 0)
        }
        let rawSum = pieces.reduce(0) { $0 + $1.value }
        let present = Set(pieces.map(\.category)).sorted()
        let primary = present[0]
        var result = Result(
            value: nil, rawSum: rawSum, primarySource: primary, secondarySourcesUsed: [], ignoredSources: [],
            rawSampleCount: pieces.count)
        switch version {
        case .v1:
            let own = pieces.filter { $0.category == primary }
            var value = own.reduce(0) { $0 + $1.value }
            if primary == .appleWatch {
                let coverage = IntervalUnion(own.map { ($0.start, $0.end) })
                let phoneOutside = pieces.filter { $0.category == .iPhone && !coverage.overlaps($0.start, $0.end) }
                let added = phoneOutside.reduce(0) { $0 + $1.value }
                value += added
                if added > 0 { result.secondarySourcesUsed = [.iPhone] }
                if present.contains(.iPhone), added == 0 { result.ignoredSources.append(.iPhone) }
            }
            if primary != .other, present.contains(.other) { result.ignoredSources.append(.other) }
            result.value = value
        case .v2:
            var covered = IntervalUnion()
            var value = 0.0
            for category in present {
                let own = pieces.filter { $0.category == category }
                var counted = 0.0
                for piece in own { counted += piece.value * covered.uncoveredShare(piece.start, piece.end) }
                value += counted
                if category != primary {
                    if counted > 0 {
                        result.secondarySourcesUsed.append(category)
                    } else {
                        result.ignoredSources.append(category)
                    }
                }
                covered = covered.adding(own.map { ($0.start, $0.end) })
            }
            result.value = value
        }
        return result
    }

    /// The parts of the samples inside `day`, values split in proportion to time.
    static func clip(_ samples: [Sample], to day: DateInterval, unit: HealthUnit) -> [Piece] {
        var pieces: [Piece] = []
        var units: [String: HealthUnit?] = [:]
        var plausible: [SampleType: ClosedRange<Double>] = [:]
        for sample in samples {
            guard case .quantity(let raw, let symbol) = sample.value else { continue }
            if units[symbol] == nil { units[symbol] = .some(try? HealthUnit(parsing: symbol)) }
            guard let from = units[symbol] ?? nil, let value = try? from.convert(raw, to: unit) else { continue }
            // A value stored before the plausible ranges existed is skipped, not summed.
            if plausible[sample.type] == nil { plausible[sample.type] = PlausibleRange.bounds(of: sample.type, in: unit) }
            guard plausible[sample.type]?.contains(value) == true else { continue }
            let length = sample.end.timeIntervalSince(sample.start)
            let start = max(sample.start, day.start)
            let end = min(sample.end, day.end)
            if length > 0 {
                guard end > start else { continue }
                pieces.append(
                    Piece(
                        start: start, end: end, value: value * end.timeIntervalSince(start) / length,
                        category: SourceCategory(sample)))
            } else if sample.start >= day.start, sample.start < day.end {
                pieces.append(Piece(start: sample.start, end: sample.start, value: value, category: SourceCategory(sample)))
            }
        }
        return pieces
    }
}

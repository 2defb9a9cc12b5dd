import Foundation

/// Sorted, disjoint time intervals (a union), for coverage and sleep (daily rules, and
/// HealthKit's merge of sources in statistics).
public struct IntervalUnion: Sendable {
    public private(set) var intervals: [(start: Date, end: Date)] = []

    public init() {}

    /// The union of `pieces` (zero-length ones ignored).
    public init(_ pieces: [(start: Date, end: Date)]) {
        for piece in pieces.sorted(by: { $0.start < $1.start }) where piece.end > piece.start {
            if let last = intervals.last, piece.start <= last.end {
                intervals[intervals.count - 1].end = max(last.end, piece.end)
            } else {
                intervals.append(piece)
            }
        }
    }

    public var totalSeconds: Double { intervals.reduce(0) { $0 + $1.end.timeIntervalSince($1.start) } }

    /// `true` when `[start, end)` shares any time with the union (for a zero-length piece:
    /// when the instant lies inside an interval).
    public func overlaps(_ start: Date, _ end: Date) -> Bool {
        intervals.contains { interval in
            end > start ? start < interval.end && end > interval.start : interval.start <= start && start < interval.end
        }
    }

    /// Seconds of `[start, end)` inside the union.
    public func coveredSeconds(_ start: Date, _ end: Date) -> Double {
        intervals.reduce(0) { total, interval in
            total + max(0, min(end, interval.end).timeIntervalSince(max(start, interval.start)))
        }
    }

    /// The union with more pieces added.
    public func adding(_ pieces: [(start: Date, end: Date)]) -> IntervalUnion { IntervalUnion(intervals + pieces) }

    /// The part of `[start, end)` the union does not cover, 0–1 (for a zero-length piece:
    /// 1 outside the union, 0 inside) — how much of a lower-priority source's piece counts.
    public func uncoveredShare(_ start: Date, _ end: Date) -> Double {
        let length = end.timeIntervalSince(start)
        return length > 0 ? 1 - coveredSeconds(start, end) / length : (overlaps(start, end) ? 0 : 1)
    }
}

import Foundation

/// A span of time whose days must be computed again: written by the transaction that
/// changed its samples, cleared once the days are stored (docs/store.md §Dirty days).
///
/// A span covering ``DirtySpan/everything`` stands for the whole store (an import, whose
/// samples are not known before it commits).
public struct DirtySpan: Hashable, Sendable {
    /// Its row, in the order spans were marked.
    public var id: Int64
    public var interval: DateInterval
    /// The zone of its days without recorded zone evidence (the writer's `tz`), when given.
    public var zone: String?

    public init(id: Int64, interval: DateInterval, zone: String? = nil) {
        self.id = id
        self.interval = interval
        self.zone = zone
    }

    /// The span that stands for every stored sample.
    public static let everything = DateInterval(
        start: Date(timeIntervalSince1970: -1e15), end: Date(timeIntervalSince1970: 1e15))

    /// Whether this span stands for every stored sample.
    public var isEverything: Bool { interval.start.timeIntervalSince1970 <= -1e15 }

    /// `intervals` merged where they overlap or lie within `gap` of each other, oldest
    /// first: what a write marks (a batch of a day's samples is one span, not thousands).
    public static func merged(_ intervals: [DateInterval], gap: TimeInterval = 6 * 3600) -> [DateInterval] {
        let sorted = intervals.sorted { $0.start < $1.start }
        var result: [DateInterval] = []
        for interval in sorted {
            if let last = result.last, interval.start <= last.end.addingTimeInterval(gap) {
                result[result.count - 1] = DateInterval(start: last.start, end: max(last.end, interval.end))
            } else {
                result.append(interval)
            }
        }
        return result
    }
}

/// A store that keeps ``DirtySpan``s: marked with the samples' changes, read and cleared by
/// whoever computes the days (docs/store.md §Dirty days).
public protocol DirtySpanTracking: Sendable {
    /// Marks `intervals` dirty, with the zone of their days, in a transaction of their own.
    func markDirty(_ intervals: [DateInterval], zone: String?) async throws
    /// The spans marked and not cleared, oldest first.
    func dirtySpans() async throws -> [DirtySpan]
    /// Clears the spans `ids` (those whose days were just stored; later ones stay).
    func clearDirty(ids: [Int64]) async throws
    /// Runs `body` while no other computation of this store's days runs, in any process
    /// sharing the store: two computations must not store days read before each other's
    /// commits out of order.
    func withDaysLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T
}

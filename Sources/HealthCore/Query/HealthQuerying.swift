import Foundation

/// The questions every pipeline asks of stored HealthKit data: the one read port. The
/// SQLite and PostgreSQL stores, ``InMemoryHealthStore`` and, on Apple platforms, HealthKit
/// (through `HealthKitQuerying`) answer all of it, so a reader never asks a store what it
/// is (no `as?`): a store that keeps less than another (no routes, no Activity summaries)
/// answers "none" for what it does not keep.
///
/// Intervals are half-open, `[start, end)`. "Overlaps" has one meaning everywhere
/// (``Sample/overlaps(_:)``): a sample with a duration overlaps `interval` when
/// `sample.start < interval.end && sample.end > interval.start`; an instantaneous sample
/// (`start == end`, e.g. a Health Auto Export point with only a `date`) overlaps when
/// `interval.start <= sample.start < interval.end`. So an instant at midnight belongs to
/// the day it starts, and a day's answer never depends on the range it was asked in.
public protocol HealthQuerying: Sendable {
    /// Samples of `type` overlapping `interval`, ordered by start, then anchor.
    func samples(of type: SampleType, overlapping interval: DateInterval) async throws -> [Sample]

    /// ``samples(of:overlapping:)`` of each request, one answer per request, in order: a
    /// day's computation asks five at once. A store that can answer them in one question
    /// does (PostgreSQL: one statement instead of five); the default asks each, concurrently.
    func samples(of requests: [(type: SampleType, interval: DateInterval)]) async throws -> [[Sample]]

    /// The sample of `type` with the latest end date at or before `instant` (ties: the
    /// latest stored). A snapshot "as of" a past instant must not see later samples.
    func latestSample(of type: SampleType, endingBy instant: Date) async throws -> Sample?

    /// Sum, average, minimum and maximum of `type` over `interval`, in `unit`.
    /// See ``SampleStatistics`` for exactly what each figure means.
    func statistics(of type: SampleType, over interval: DateInterval, unit: HealthUnit) async throws -> SampleStatistics

    /// What happened to samples of `type` after `anchor` — additions *and* deletions, in
    /// anchor order, at most `limit` of both together — and the anchor to pass next time
    /// (as `HKAnchoredObjectQuery` does). A client that applies successive answers from any
    /// anchor, in any chunk sizes (an addition as an upsert by UUID, a deletion as a removal),
    /// ends with exactly the store's current samples of the type. From ``QueryAnchor/initial``
    /// deletions of samples stored and deleted since are reported too; a client that lost
    /// its anchor must start over from there.
    func changes(of type: SampleType, since anchor: QueryAnchor, limit: Int) async throws -> AnchoredChanges

    /// The anchor of the latest change of any type (``QueryAnchor/initial`` for an empty
    /// store): `changes(of:since:limit:)` from it reports only what happens afterwards.
    /// A sync client reads the history before it by date windows (backfill) and follows
    /// the feed from it.
    func latestAnchor() async throws -> QueryAnchor

    /// Each stored type's first start and latest end (``SampleTypeSpan``), ordered by type;
    /// a type without samples is left out. From the stores' indexes, a few probes per type
    /// and never a scan: every view asks it to find where the data ends (``DataAnchor``).
    func sampleSpans() async throws -> [SampleTypeSpan]

    /// What the store holds, one entry per stored type (``SampleTypeInventory``), by
    /// identifier: the count, the first and the latest start, and the sources (most samples
    /// first).
    func sampleInventory() async throws -> [SampleTypeInventory]

    /// The correlations of `type` overlapping `interval`, ordered by start, each with its
    /// member samples (a blood pressure's systolic and diastolic readings, a meal's
    /// nutrients) in storage order. A store that keeps no links gives no members.
    func correlations(
        of type: SampleType, overlapping interval: DateInterval
    ) async throws -> [(
        correlation: Sample, members: [Sample]
    )]

    /// What each workout overlapping `interval` recorded of itself, by the workout sample's
    /// UUID: the totals on its element and its `WorkoutStatistics`. Workouts that recorded
    /// neither are absent (a store that keeps none answers empty; readers then recompute
    /// from the samples).
    func workoutTotals(overlapping interval: DateInterval) async throws -> [UUID: WorkoutTotals]

    /// The route points of each workout overlapping `interval`, by the workout sample's
    /// UUID, in recorded order, at most `maxPoints` per workout (evenly thinned, first and
    /// last kept). Workouts without a route are absent.
    func workoutRoutes(overlapping interval: DateInterval, maxPoints: Int) async throws -> [UUID: [RoutePoint]]

    /// The workouts overlapping `interval`, ordered by start, each with its totals,
    /// statistics, events, metadata and elements kept as read, but without its routes
    /// (``workout(_:)`` gives them). A store that keeps samples only gives the workouts
    /// without their details.
    func workouts(overlapping interval: DateInterval) async throws -> [Workout]

    /// The workout whose UUID is `uuid`, in full: its sample's fields with the events,
    /// statistics, routes (every point, in recorded order) and elements kept as read that the
    /// store holds of it; `nil` when no workout has that UUID. A store that keeps samples only
    /// gives the workout without its details.
    func workout(_ uuid: UUID) async throws -> Workout?

    /// The Activity summary of local day `date` (`YYYY-MM-DD`), if the store has one.
    func activitySummary(on date: String) async throws -> ActivitySummary?

    /// Streaming reads for exports: the samples of `type` whose start lies in `interval`
    /// (every sample when `nil`), ordered by start, then by storage order, in pages of at most
    /// ``sampleScanPageSize`` (``SamplePages``). The databases read a page at a time by keyset
    /// (start, anchor), each in a transaction of its own, so memory stays a page or two and
    /// a write that commits during a scan is in the pages after it or not, never half in
    /// one. (The other questions return arrays, which suits the pipelines' day-sized
    /// questions; an export of millions of rows needs this.)
    func samplePages(of type: SampleType, startingIn interval: DateInterval?) -> SamplePages

    /// The stored clinical records (FHIR resources), oldest received first; none from a
    /// store that keeps none.
    func clinicalRecords() async throws -> [ClinicalRecord]
}

extension HealthQuerying {
    public func samples(of requests: [(type: SampleType, interval: DateInterval)]) async throws -> [[Sample]] {
        try await withThrowingTaskGroup(of: (Int, [Sample]).self) { group in
            for (index, request) in requests.enumerated() {
                group.addTask { (index, try await samples(of: request.type, overlapping: request.interval)) }
            }
            var answers = [[Sample]](repeating: [], count: requests.count)
            for try await (index, samples) in group { answers[index] = samples }
            return answers
        }
    }

    /// The sample types that have at least one stored sample, by identifier (those of
    /// ``sampleSpans()``).
    public func storedSampleTypes() async throws -> [SampleType] {
        try await sampleSpans().map(\.type).sorted { $0.identifier < $1.identifier }
    }

    /// From the earliest start to the latest end of any stored sample (the union of
    /// ``sampleSpans()``); `nil` when empty.
    public func storedSpan() async throws -> DateInterval? {
        SampleTypeSpan.union(try await sampleSpans())
    }

    /// The sample of `type` with the latest end date (ties: the latest stored).
    public func latestSample(of type: SampleType) async throws -> Sample? {
        try await latestSample(of: type, endingBy: .distantFuture)
    }
}

/// A position in a store's change history. ``initial`` means "from the beginning".
public struct QueryAnchor: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    public let rawValue: Int64

    public init(_ rawValue: Int64) { self.rawValue = rawValue }

    public static let initial = QueryAnchor(0)

    public static func < (lhs: QueryAnchor, rhs: QueryAnchor) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { String(rawValue) }
}

/// The answer to ``HealthQuerying/changes(of:since:limit:)``.
public struct AnchoredChanges: Sendable {
    /// Additions and deletions, in anchor order.
    public var changes: [SampleChange]
    /// The anchor to ask from next time (unchanged when nothing is new).
    public var nextAnchor: QueryAnchor
    /// `true` when `limit` cut the answer short: ask again from `nextAnchor`.
    public var hasMore: Bool

    public init(changes: [SampleChange], nextAnchor: QueryAnchor, hasMore: Bool) {
        self.changes = changes
        self.nextAnchor = nextAnchor
        self.hasMore = hasMore
    }

    /// The samples added, in anchor order (`HKAnchoredObjectQuery`'s `samples`).
    public var samples: [Sample] {
        changes.compactMap { if case .added(let sample, _) = $0 { sample } else { nil } }
    }

    /// The samples deleted, in anchor order (`deletedObjects`).
    public var deletedObjects: [DeletedObject] {
        changes.compactMap { if case .deleted(let object) = $0 { object } else { nil } }
    }

    /// Merges the additions and the tombstones after an anchor, each in anchor order and
    /// each fetched with `limit + 1` rows at most, into one answer.
    public static func merging(
        added: [(anchor: QueryAnchor, sample: Sample)], deleted: [DeletedObject], since anchor: QueryAnchor, limit: Int
    ) -> AnchoredChanges {
        var merged: [SampleChange] = []
        merged.reserveCapacity(min(limit, added.count + deleted.count))
        var (a, d) = (0, 0)
        while merged.count < limit, a < added.count || d < deleted.count {
            if d == deleted.count || (a < added.count && added[a].anchor < deleted[d].anchor) {
                merged.append(.added(added[a].sample, anchor: added[a].anchor))
                a += 1
            } else {
                merged.append(.deleted(deleted[d]))
                d += 1
            }
        }
        return AnchoredChanges(
            changes: merged, nextAnchor: merged.last?.anchor ?? anchor, hasMore: a < added.count || d < deleted.count)
    }
}

/// One entry of a change feed.
public enum SampleChange: Hashable, Sendable {
    /// A sample stored at `anchor`.
    case added(Sample, anchor: QueryAnchor)
    /// A sample deleted (its tombstone).
    case deleted(DeletedObject)

    /// Where the change stands in the store's history.
    public var anchor: QueryAnchor {
        switch self {
        case .added(_, let anchor): anchor
        case .deleted(let object): object.anchor
        }
    }

    /// The UUID of the sample added or deleted.
    public var uuid: UUID {
        switch self {
        case .added(let sample, _): sample.uuid
        case .deleted(let object): object.uuid
        }
    }
}

/// A deleted sample, as HealthKit's `HKDeletedObject`: its UUID and type, and the anchor of
/// the deletion (the same sequence as additions).
public struct DeletedObject: Hashable, Sendable, Codable {
    public var uuid: UUID
    public var type: SampleType
    public var anchor: QueryAnchor

    public init(uuid: UUID, type: SampleType, anchor: QueryAnchor) {
        self.uuid = uuid
        self.type = type
        self.anchor = anchor
    }
}

/// Statistics over an interval.
///
/// - `sum`: each overlapping sample's value counted in proportion to the part of its
///   duration inside the interval (instantaneous samples count whole) — the cumulative
///   total a chart of the interval shows. Sources are *not* deduplicated here; daily
///   normalisation does that.
/// - `average`, `minimum`, `maximum`: over the values of the overlapping samples.
/// - `count`: the number of overlapping samples. All figures are `nil` when it is 0.
public struct SampleStatistics: Hashable, Sendable {
    public var count: Int
    public var sum: Double?
    public var average: Double?
    public var minimum: Double?
    public var maximum: Double?
    public var unit: HealthUnit

    public init(count: Int, sum: Double?, average: Double?, minimum: Double?, maximum: Double?, unit: HealthUnit) {
        self.count = count
        self.sum = sum
        self.average = average
        self.minimum = minimum
        self.maximum = maximum
        self.unit = unit
    }

    /// Computes the statistics of `samples` (assumed to overlap `interval`) in `unit`.
    /// Samples without a numeric value, or whose unit cannot be converted, are skipped.
    public static func compute(_ samples: [Sample], over interval: DateInterval, unit: HealthUnit) -> SampleStatistics {
        var count = 0
        var sum = 0.0
        var total = 0.0
        var minimum = Double.infinity
        var maximum = -Double.infinity
        for sample in samples {
            guard case .quantity(let raw, let symbol) = sample.value,
                let value = try? HealthUnit(parsing: symbol).convert(raw, to: unit)
            else { continue }
            count += 1
            total += value
            minimum = Swift.min(minimum, value)
            maximum = Swift.max(maximum, value)
            sum += value * overlapFraction(of: sample, in: interval)
        }
        guard count > 0 else {
            return SampleStatistics(count: 0, sum: nil, average: nil, minimum: nil, maximum: nil, unit: unit)
        }
        return SampleStatistics(
            count: count, sum: sum, average: total / Double(count), minimum: minimum, maximum: maximum, unit: unit)
    }

    /// The part of a sample's duration that lies in `interval` (1 for an instantaneous one).
    public static func overlapFraction(of sample: Sample, in interval: DateInterval) -> Double {
        let duration = sample.end.timeIntervalSince(sample.start)
        guard duration > 0 else { return 1 }
        let lower = Swift.max(sample.start, interval.start)
        let upper = Swift.min(sample.end, interval.end)
        return Swift.max(0, upper.timeIntervalSince(lower)) / duration
    }
}

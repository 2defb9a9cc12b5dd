import Foundation

/// A cache in front of any ``HealthQuerying`` — the SQLite store, the PostgreSQL store,
/// HealthKit on Apple platforms — as seed 003 §5 asks (`docs/cache.md`): answers kept for
/// ``HealthQueryCacheConfiguration/cacheDuration``, per-type throttling, hit and miss
/// statistics, optional persistence to disk, and, beyond the specification, invalidation by
/// the store's change notices, so that an answer is never older than the last commit of its
/// type.
///
/// The notices are looked at before every answer and again after every fetch: a commit made
/// in this process is noticed at once (the stores notify as they commit), one made by another
/// process as soon as the store's watcher tells of it. A fetch that a commit overtook is
/// answered but not kept.
///
/// Kept: samples, latest samples, statistics, correlations, workouts, spans and inventory.
/// Passed through: the change feed, streaming pages, a workout's details, totals and routes,
/// activity summaries and clinical records.
public final class CachingHealthQuerying: HealthQuerying, Sendable {
    private struct Entry: Sendable {
        var value: any Sendable
        /// The types the answer is about (`nil`: every type, as spans and inventory).
        var types: Set<SampleType>?
        var fetchedAt: Date
        /// The store's latest anchor just before the fetch (a persistent cache's only): a
        /// saved answer must be the store's at the anchor it is saved with.
        var anchor: QueryAnchor?
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// When the store was last asked about each type (since its last change).
        var lastFetch: [SampleType: Date] = [:]
        /// Bumped for a type at each notice of it (`nil` key: any notice at all).
        var generations: [SampleType?: Int] = [:]
        var statistics = HealthQueryCacheStatistics()
    }

    public let base: any HealthQuerying
    public let configuration: HealthQueryCacheConfiguration
    /// Whether answers can be saved (``save(to:)``): each fetch then asks the store's
    /// latest anchor first.
    public let persistent: Bool
    private let notices: ChangeNotices?
    private let clock: @Sendable () -> Date
    private let state = Locked(State())

    /// A cache over `base`, invalidated by `notices` (the store's `observe(nil)`; `nil`: by
    /// time only, as for a store that cannot tell of its commits).
    ///
    /// `persistent`: the answers can be saved to disk (``save(to:)``), at the price of one
    /// question of the store's latest anchor before each fetch.
    public init(
        _ base: any HealthQuerying, configuration: HealthQueryCacheConfiguration = .standard, notices: ChangeNotices?,
        persistent: Bool = false, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.base = base
        self.configuration = configuration
        self.persistent = persistent
        self.notices = notices
        self.clock = clock
    }

    /// A cache over a store that tells of its commits: it observes every type.
    public convenience init(
        store: any MutableHealthStore, configuration: HealthQueryCacheConfiguration = .standard, persistent: Bool = false,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(store, configuration: configuration, notices: store.observe(nil), persistent: persistent, clock: clock)
    }

    deinit { notices?.finish() }

    /// What the cache did so far.
    public var statistics: HealthQueryCacheStatistics { state.withLock { $0.statistics } }

    /// Forgets every answer (the statistics stay).
    public func removeAll() { state.withLock { $0.entries = [:] } }

    // MARK: The cached questions

    public func samples(of type: SampleType, overlapping interval: DateInterval) async throws -> [Sample] {
        try await cached("samples \(type.identifier) \(Self.key(interval))", types: [type]) {
            try await self.base.samples(of: type, overlapping: interval)
        }
    }

    public func latestSample(of type: SampleType, endingBy instant: Date) async throws -> Sample? {
        try await cached("latest \(type.identifier) \(instant.timeIntervalSince1970)", types: [type]) {
            try await self.base.latestSample(of: type, endingBy: instant)
        }
    }

    public func statistics(of type: SampleType, over interval: DateInterval, unit: HealthUnit) async throws -> SampleStatistics {
        try await cached("statistics \(type.identifier) \(Self.key(interval)) \(unit.symbol)", types: [type]) {
            try await self.base.statistics(of: type, over: interval, unit: unit)
        }
    }

    public func correlations(
        of type: SampleType, overlapping interval: DateInterval
    ) async throws -> [(correlation: Sample, members: [Sample])] {
        // Members are samples of other types: any change may touch them.
        let pairs = try await cached("correlations \(type.identifier) \(Self.key(interval))", types: nil) {
            try await self.base.correlations(of: type, overlapping: interval).map {
                CorrelationPair(correlation: $0.0, members: $0.1)
            }
        }
        return pairs.map { ($0.correlation, $0.members) }
    }

    public func workouts(overlapping interval: DateInterval) async throws -> [Workout] {
        try await cached("workouts \(Self.key(interval))", types: nil) {
            try await self.base.workouts(overlapping: interval)
        }
    }

    public func sampleSpans() async throws -> [SampleTypeSpan] {
        try await cached("spans", types: nil) { try await self.base.sampleSpans() }
    }

    public func sampleInventory() async throws -> [SampleTypeInventory] {
        try await cached("inventory", types: nil) { try await self.base.sampleInventory() }
    }

    // MARK: Passed through

    public func changes(of type: SampleType, since anchor: QueryAnchor, limit: Int) async throws -> AnchoredChanges {
        try await base.changes(of: type, since: anchor, limit: limit)
    }

    public func latestAnchor() async throws -> QueryAnchor { try await base.latestAnchor() }

    public func workoutTotals(overlapping interval: DateInterval) async throws -> [UUID: WorkoutTotals] {
        try await base.workoutTotals(overlapping: interval)
    }

    public func workoutRoutes(overlapping interval: DateInterval, maxPoints: Int) async throws -> [UUID: [RoutePoint]] {
        try await base.workoutRoutes(overlapping: interval, maxPoints: maxPoints)
    }

    public func workout(_ uuid: UUID) async throws -> Workout? { try await base.workout(uuid) }

    public func activitySummary(on date: String) async throws -> ActivitySummary? { try await base.activitySummary(on: date) }

    public func samplePages(of type: SampleType, startingIn interval: DateInterval?) -> SamplePages {
        base.samplePages(of: type, startingIn: interval)
    }

    public func clinicalRecords() async throws -> [ClinicalRecord] { try await base.clinicalRecords() }

    // MARK: The cache

    /// Drops the answers the pending notice concerns, and their types' throttles. The notice
    /// is taken under the cache's lock, so no question finds it gone and its answers still kept.
    private func applyNotices() {
        guard let notices else { return }
        state.withLock { state in
            guard let notice = notices.takePending() else { return }
            let before = state.entries.count
            state.entries = state.entries.filter { _, entry in
                entry.types.map { $0.isDisjoint(with: notice.types) } ?? false
            }
            state.statistics.invalidated += before - state.entries.count
            for type in notice.types {
                state.lastFetch[type] = nil
                state.generations[type, default: 0] += 1
            }
            state.generations[nil, default: 0] += 1
        }
    }

    private enum Lookup<Value> {
        case answer(Value)
        case fetch(generation: Int)
    }

    private func cached<Value: Sendable>(
        _ key: String, types: Set<SampleType>?, fetch: @Sendable () async throws -> Value
    ) async throws -> Value {
        applyNotices()
        let now = clock()
        let lookup = try state.withLock { state -> Lookup<Value> in
            let entry = state.entries[key]
            if let entry, now.timeIntervalSince(entry.fetchedAt) < configuration.cacheDuration, let value = entry.value as? Value
            {
                state.statistics.hits += 1
                return .answer(value)
            }
            // Throttled: the type was read from the store a moment ago and has not changed.
            if let type = types?.first, types?.count == 1, let last = state.lastFetch[type],
                now.timeIntervalSince(last) < configuration.throttleInterval
            {
                if let value = entry?.value as? Value {
                    state.statistics.throttledHits += 1
                    return .answer(value)
                }
                state.statistics.rateLimited += 1
                throw HealthQueryCacheError.rateLimited(
                    type: type, retryAfter: configuration.throttleInterval - now.timeIntervalSince(last))
            }
            state.statistics.misses += 1
            for type in types ?? [] { state.lastFetch[type] = now }
            return .fetch(generation: Self.generation(of: types, in: state))
        }
        switch lookup {
        case .answer(let value):
            return value
        case .fetch(let generation):
            let value: Value
            let anchor: QueryAnchor?
            do {
                anchor = persistent ? try await base.latestAnchor() : nil
                value = try await fetch()
            } catch {
                // Nothing was kept: the type is not held back by a fetch that gave nothing.
                state.withLock { state in
                    for type in types ?? [] where state.lastFetch[type] == now { state.lastFetch[type] = nil }
                }
                throw error
            }
            applyNotices()
            state.withLock { state in
                // A commit of these types during the fetch: answered, not kept.
                guard Self.generation(of: types, in: state) == generation else { return }
                state.entries[key] = Entry(value: value, types: types, fetchedAt: now, anchor: anchor)
            }
            return value
        }
    }

    private static func generation(of types: Set<SampleType>?, in state: State) -> Int {
        guard let types else { return state.generations[nil] ?? 0 }
        return types.reduce(0) { $0 + (state.generations[$1] ?? 0) }
    }

    static func key(_ interval: DateInterval) -> String {
        "\(interval.start.timeIntervalSince1970)-\(interval.end.timeIntervalSince1970)"
    }

    private struct CorrelationPair: Sendable {
        var correlation: Sample
        var members: [Sample]
    }
}

extension CachingHealthQuerying {
    /// The kept sample answers written to `url` (JSON) with the store's latest anchor, so
    /// that a cache made later over the same, unchanged store starts warm. Only answers
    /// fetched at that anchor — nothing committed since — are saved (a ``persistent``
    /// cache's; another saves none).
    public func save(to url: URL) async throws {
        let anchor = try await base.latestAnchor()
        applyNotices()
        let kept = state.withLock { state in
            state.entries.compactMap { key, entry -> PersistedEntry? in
                guard entry.anchor == anchor, let samples = entry.value as? [Sample], let types = entry.types else { return nil }
                return PersistedEntry(
                    key: key, types: types.map(\.identifier).sorted(), fetchedAt: entry.fetchedAt, samples: samples)
            }
        }
        let data = try JSONEncoder().encode(Persisted(anchor: anchor.rawValue, entries: kept))
        try data.write(to: url, options: .atomic)
    }

    /// Loads what ``save(to:)`` wrote, if the store has not changed since (its latest
    /// anchor is the saved one); returns how many answers were loaded (0: none, or stale).
    @discardableResult
    public func restore(from url: URL) async throws -> Int {
        guard let data = try? Data(contentsOf: url), let saved = try? JSONDecoder().decode(Persisted.self, from: data) else {
            return 0
        }
        guard try await base.latestAnchor().rawValue == saved.anchor else { return 0 }
        state.withLock { state in
            for entry in saved.entries {
                state.entries[entry.key] = Entry(
                    value: entry.samples, types: Set(entry.types.map(SampleType.init)), fetchedAt: entry.fetchedAt,
                    anchor: QueryAnchor(saved.anchor))
            }
        }
        // After loading: a commit since the anchor was read drops what it concerns.
        applyNotices()
        return saved.entries.count
    }

    private struct Persisted: Codable {
        var anchor: Int64
        var entries: [PersistedEntry]
    }

    private struct PersistedEntry: Codable {
        var key: String
        var types: [String]
        var fetchedAt: Date
        var samples: [Sample]
    }
}

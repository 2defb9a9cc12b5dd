import Foundation

/// A ``MutableHealthStore`` held in memory: for tests, previews and small pipelines.
/// It keeps the same contract as the SQLite store — content-key dedup, UUID identity,
/// tombstones, monotonically increasing anchors shared by additions and deletions, one
/// notice per write — so algorithms and sync logic can be tested without a database.
public actor InMemoryHealthStore: MutableHealthStore {
    private var contents = Contents()
    private let observers = ChangeObservers()

    public init(samples: [Sample] = []) {
        var contents = Contents()
        var changed: Set<SampleType> = []
        for sample in samples { _ = try? contents.insert(sample, changed: &changed) }
        self.contents = contents
    }

    /// Stores samples; duplicates (same content key) are skipped. Returns how many were new.
    @discardableResult
    public func add(_ samples: [Sample]) throws -> Int {
        // All or nothing, as a transaction: a refused sample leaves the store as it was.
        var copy = contents
        var changed: Set<SampleType> = []
        var added = 0
        for sample in samples where try copy.insert(sample, changed: &changed) { added += 1 }
        contents = copy
        notify(changed)
        return added
    }

    /// The number of stored samples.
    public var count: Int { contents.stored.count }

    /// The anchor of the latest addition or deletion (0 for a new store).
    public var currentAnchor: QueryAnchor { QueryAnchor(contents.lastAnchor) }

    public func latestAnchor() -> QueryAnchor { currentAnchor }

    public func delete(uuids: [UUID]) -> DeletionReport {
        var report = DeletionReport()
        var changed: Set<SampleType> = []
        for uuid in uuids {
            guard let anchor = contents.anchorsByUUID[uuid], let sample = contents.remove(anchor: anchor, changed: &changed)
            else {
                report.unknown.append(uuid)
                continue
            }
            report.add(uuid, type: sample.type, start: sample.start, end: sample.end)
        }
        notify(changed)
        return report
    }

    public func delete(_ type: SampleType, overlapping interval: DateInterval, source: String?) -> DeletionReport {
        let anchors = contents.stored.filter {
            $0.sample.type == type && $0.sample.overlaps(interval) && (source == nil || $0.sample.source.name == source)
        }.map(\.anchor)
        var report = DeletionReport()
        var changed: Set<SampleType> = []
        for anchor in anchors {
            guard let sample = contents.remove(anchor: anchor, changed: &changed) else { continue }
            report.add(sample.uuid, type: type, start: sample.start, end: sample.end)
        }
        notify(changed)
        return report
    }

    public nonisolated func observe(_ types: Set<SampleType>?) -> ChangeNotices {
        observers.add(types)
    }

    private func notify(_ changed: Set<SampleType>) {
        observers.notify(ChangeNotice(types: changed, lastAnchor: QueryAnchor(contents.lastAnchor)))
    }

    public func samples(of type: SampleType, overlapping interval: DateInterval) -> [Sample] {
        contents.stored.filter { $0.sample.type == type && $0.sample.overlaps(interval) }
            .sorted { ($0.sample.start, $0.anchor) < ($1.sample.start, $1.anchor) }
            .map(\.sample)
    }

    public func latestSample(of type: SampleType, endingBy instant: Date) -> Sample? {
        contents.stored.filter { $0.sample.type == type && $0.sample.end <= instant }
            .max { ($0.sample.end, $0.anchor) < ($1.sample.end, $1.anchor) }?.sample
    }

    public func statistics(of type: SampleType, over interval: DateInterval, unit: HealthUnit) -> SampleStatistics {
        SampleStatistics.compute(samples(of: type, overlapping: interval), over: interval, unit: unit)
    }

    public func changes(of type: SampleType, since anchor: QueryAnchor, limit: Int) -> AnchoredChanges {
        let added = contents.stored.lazy.filter { $0.anchor > anchor.rawValue && $0.sample.type == type }
            .prefix(limit + 1).map { (anchor: QueryAnchor($0.anchor), sample: $0.sample) }
        let deleted = contents.tombstones.lazy.filter { $0.anchor > anchor && $0.type == type }.prefix(limit + 1)
        return AnchoredChanges.merging(added: Array(added), deleted: Array(deleted), since: anchor, limit: limit)
    }

    /// Each stored type's first start and latest end, by type (one pass: a reference, not an index).
    public func sampleSpans() -> [SampleTypeSpan] {
        var spans: [SampleType: SampleTypeSpan] = [:]
        for (_, sample) in contents.stored {
            if let known = spans[sample.type] {
                spans[sample.type] = SampleTypeSpan(
                    type: sample.type, first: min(known.first, sample.start), last: max(known.last, sample.end))
            } else {
                spans[sample.type] = SampleTypeSpan(type: sample.type, first: sample.start, last: sample.end)
            }
        }
        return spans.values.sorted { $0.type < $1.type }
    }

    /// Per type and source: the count, the first and the latest start (one pass), merged as
    /// the databases merge them (sources with most samples first).
    public func sampleInventory() -> [SampleTypeInventory] {
        struct Group { var count = 0, first = Double.infinity, last = -Double.infinity }
        var groups: [String: [String: Group]] = [:]
        for (_, sample) in contents.stored {
            let start = sample.start.timeIntervalSince1970
            var group = groups[sample.type.identifier, default: [:]][sample.source.name, default: Group()]
            group.count += 1
            group.first = min(group.first, start)
            group.last = max(group.last, start)
            groups[sample.type.identifier, default: [:]][sample.source.name] = group
        }
        let rows = groups.sorted { $0.key < $1.key }.flatMap { type, sources in
            sources.sorted { ($1.value.count, $0.key) < ($0.value.count, $1.key) }.map { source, group in
                (type: type, source: source, count: group.count, first: group.first, last: group.last)
            }
        }
        return SampleTypeInventory.merging(rows)
    }

    /// The correlations of `type`: this store keeps no links to members, so each comes
    /// without them.
    public func correlations(
        of type: SampleType, overlapping interval: DateInterval
    ) -> [(
        correlation: Sample, members: [Sample]
    )] {
        samples(of: type, overlapping: interval).map { ($0, []) }
    }

    /// None: this store keeps samples only, not what a workout recorded of itself.
    public func workoutTotals(overlapping interval: DateInterval) -> [UUID: WorkoutTotals] { [:] }

    /// None: this store keeps samples only, not routes.
    public func workoutRoutes(overlapping interval: DateInterval, maxPoints: Int) -> [UUID: [RoutePoint]] { [:] }

    /// The workout samples as workouts without details: this store keeps samples only.
    public func workouts(overlapping interval: DateInterval) -> [Workout] {
        samples(of: .workout, overlapping: interval).map { Workout(header: $0, details: nil) }
    }

    /// The workout sample `uuid` as a workout without details: this store keeps samples only.
    public func workout(_ uuid: UUID) -> Workout? {
        guard let anchor = contents.anchorsByUUID[uuid],
            let stored = contents.stored.first(where: { $0.anchor == anchor }), stored.sample.type == .workout
        else { return nil }
        return Workout(header: stored.sample, details: nil)
    }

    /// None: this store keeps samples only, not Activity summaries.
    public func activitySummary(on date: String) -> ActivitySummary? { nil }

    /// The samples of `type` starting in `interval`, by start then anchor, in pages of
    /// ``sampleScanPageSize`` (a copy taken when the scan starts).
    public nonisolated func samplePages(of type: SampleType, startingIn interval: DateInterval?) -> SamplePages {
        SamplePages { SampleScanPage.pages(of: await self.rows(of: type, startingIn: interval)) }
    }

    private func rows(of type: SampleType, startingIn interval: DateInterval?) -> [SampleRow] {
        contents.stored.filter { stored in
            stored.sample.type == type
                && (interval.map { $0.start <= stored.sample.start && stored.sample.start < $0.end } ?? true)
        }
        .sorted { ($0.sample.start, $0.anchor) < ($1.sample.start, $1.anchor) }
        .map { SampleRow($0.sample) }
    }

    /// None: this store keeps samples only.
    public func clinicalRecords() -> [ClinicalRecord] { [] }
}

/// What an ``InMemoryHealthStore`` holds.
private struct Contents {
    /// Stored samples in anchor order, each carrying its UUID in `givenUUID`.
    var stored: [(anchor: Int64, sample: Sample)] = []
    var tombstones: [DeletedObject] = []
    /// The UUID of the sample stored under each key, and each anchor's key.
    var uuidsByKey: [ContentKey: UUID] = [:]
    var keysByAnchor: [Int64: ContentKey] = [:]
    var anchorsByUUID: [UUID: Int64] = [:]
    /// The type of every UUID ever stored, deleted ones included.
    var typesByUUID: [UUID: SampleType] = [:]
    var lastAnchor: Int64 = 0

    /// Stores `sample` unless its content is stored; a writer-given UUID that is stored with
    /// other content is replaced; the content of another writer-given UUID's sample is
    /// another sample (``ContentKey/distinguished(by:)``).
    @discardableResult
    mutating func insert(_ sample: Sample, changed: inout Set<SampleType>) throws -> Bool {
        var key = sample.contentKey
        if let holder = uuidsByKey[key] {
            // A given UUID derived from this very content (a feed's sample sent back) names the
            // content, not a writer's sample: the content is stored, so it is a duplicate.
            guard let given = sample.givenUUID, holder != given, holder != key.uuid, given != key.uuid else {
                return false
            }
            key = key.distinguished(by: given)
            guard uuidsByKey[key] == nil else { return false }
        }
        let uuid = sample.givenUUID ?? key.uuid
        if sample.givenUUID != nil {
            guard typesByUUID[uuid, default: sample.type] == sample.type else {
                throw SampleIdentityError(uuid: uuid, type: sample.type)
            }
            if let replaced = anchorsByUUID[uuid] { remove(anchor: replaced, changed: &changed) }
        }
        typesByUUID[uuid] = sample.type
        lastAnchor += 1
        var copy = sample
        copy.givenUUID = uuid
        stored.append((lastAnchor, copy))
        uuidsByKey[key] = uuid
        keysByAnchor[lastAnchor] = key
        anchorsByUUID[uuid] = lastAnchor
        changed.insert(sample.type)
        return true
    }

    /// Deletes the sample at `anchor`, leaving a tombstone; returns it.
    @discardableResult
    mutating func remove(anchor: Int64, changed: inout Set<SampleType>) -> Sample? {
        guard let index = stored.firstIndex(where: { $0.anchor == anchor }) else { return nil }
        let sample = stored.remove(at: index).sample
        if let key = keysByAnchor.removeValue(forKey: anchor) { uuidsByKey[key] = nil }
        anchorsByUUID[sample.uuid] = nil
        lastAnchor += 1
        tombstones.append(DeletedObject(uuid: sample.uuid, type: sample.type, anchor: QueryAnchor(lastAnchor)))
        changed.insert(sample.type)
        return sample
    }
}

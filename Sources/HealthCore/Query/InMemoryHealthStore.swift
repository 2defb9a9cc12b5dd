import Foundation

/// A ``HealthQuerying`` store held in memory: for tests, previews and small pipelines.
/// It keeps the same contract as the SQLite store — content-key dedup, monotonically
/// increasing anchors — so algorithms can be tested without a database.
public actor InMemoryHealthStore: HealthQuerying {
    private var stored: [(anchor: Int64, sample: Sample)] = []
    private var keys: Set<ContentKey> = []
    private var lastAnchor: Int64 = 0

    public init(samples: [Sample] = []) {
        for sample in samples where keys.insert(sample.contentKey).inserted {
            lastAnchor += 1
            stored.append((lastAnchor, sample))
        }
    }

    /// Adds samples; duplicates (same content key) are skipped. Returns how many were new.
    @discardableResult
    public func add(_ samples: [Sample]) -> Int {
        samples.reduce(0) { $0 + (insertNow($1) ? 1 : 0) }
    }

    /// The number of stored samples.
    public var count: Int { stored.count }

    @discardableResult
    private func insertNow(_ sample: Sample) -> Bool {
        guard keys.insert(sample.contentKey).inserted else { return false }
        lastAnchor += 1
        stored.append((lastAnchor, sample))
        return true
    }

    public func samples(of type: SampleType, overlapping interval: DateInterval) -> [Sample] {
        stored.filter { $0.sample.type == type && $0.sample.overlaps(interval) }
            .sorted { ($0.sample.start, $0.anchor) < ($1.sample.start, $1.anchor) }
            .map(\.sample)
    }

    public func latestSample(of type: SampleType, endingBy instant: Date) -> Sample? {
        stored.filter { $0.sample.type == type && $0.sample.end <= instant }
            .max { ($0.sample.end, $0.anchor) < ($1.sample.end, $1.anchor) }?.sample
    }

    public func statistics(of type: SampleType, over interval: DateInterval, unit: HealthUnit) -> SampleStatistics {
        SampleStatistics.compute(samples(of: type, overlapping: interval), over: interval, unit: unit)
    }

    public func changes(of type: SampleType, since anchor: QueryAnchor, limit: Int) -> AnchoredChanges {
        let newer = stored.lazy.filter { $0.anchor > anchor.rawValue && $0.sample.type == type }
        let page = Array(newer.prefix(limit + 1))
        let returned = page.prefix(limit)
        let next = returned.last.map { QueryAnchor($0.anchor) } ?? anchor
        return AnchoredChanges(samples: returned.map(\.sample), nextAnchor: next, hasMore: page.count > limit)
    }
}

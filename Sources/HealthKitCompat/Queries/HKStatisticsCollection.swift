#if !canImport(HealthKit)
    import Foundation
    import HealthCore

    /// Statistics per interval (bucket) from an anchor date by interval components, in the
    /// current calendar and time zone, as HealthKit buckets them.
    public final class HKStatisticsCollection: NSObject, @unchecked Sendable {
        private let buckets: Buckets
        private let byStart: [Date: HKStatistics]
        private let type: HKQuantityType

        init(type: HKQuantityType, buckets: Buckets, statistics: [HKStatistics]) {
            self.type = type
            self.buckets = buckets
            self.byStart = Dictionary(statistics.map { ($0.startDate, $0) }, uniquingKeysWith: { first, _ in first })
            super.init()
        }

        /// The statistics of the buckets that have data, in time order.
        public func statistics() -> [HKStatistics] { byStart.values.sorted { $0.startDate < $1.startDate } }

        /// The statistics of the bucket holding `date`; `nil` when it has no data.
        public func statistics(for date: Date) -> HKStatistics? { byStart[buckets.start(of: date)] }

        /// Every bucket from the one holding `startDate` to the one holding `endDate`, empty
        /// ones included (their quantities are `nil`).
        public func enumerateStatistics(
            from startDate: Date, to endDate: Date, with block: (HKStatistics, UnsafeMutablePointer<ObjCBool>) -> Void
        ) {
            var stop = ObjCBool(false)
            var bucket = buckets.start(of: startDate)
            while bucket <= endDate, !stop.boolValue {
                let next = buckets.next(after: bucket)
                let statistics =
                    byStart[bucket]
                    ?? HKStatistics(
                        type: type, start: bucket, end: next, unit: .count(), figures: HKStatistics.Figures(), bySource: nil)
                withUnsafeMutablePointer(to: &stop) { block(statistics, $0) }
                bucket = next
            }
        }

        /// The sources of the samples counted.
        public func sources() -> Set<HKSource> { Set(byStart.values.flatMap { $0.sources ?? [] }) }
    }

    /// Bucket edges: `anchor + k × components` in a calendar.
    struct Buckets: Sendable {
        let anchor: Date
        let components: DateComponents
        let calendar: Calendar

        /// The edge `k` intervals from the anchor.
        func edge(_ k: Int) -> Date {
            var scaled = DateComponents()
            for unit in [Calendar.Component.year, .month, .weekOfYear, .day, .hour, .minute, .second] {
                if let value = components.value(for: unit), value != 0 { scaled.setValue(value * k, for: unit) }
            }
            return calendar.date(byAdding: scaled, to: anchor) ?? anchor
        }

        /// A rough length of one interval, to guess `k` before correcting it.
        private var approximateLength: TimeInterval {
            let seconds =
                Double(components.year ?? 0) * 365.2425 * 86400 + Double(components.month ?? 0) * 30.436875 * 86400
                + Double(components.weekOfYear ?? 0) * 7 * 86400 + Double(components.day ?? 0) * 86400
                + Double(components.hour ?? 0) * 3600 + Double(components.minute ?? 0) * 60 + Double(components.second ?? 0)
            return max(seconds, 1)
        }

        /// The index of the bucket holding `date`.
        func index(of date: Date) -> Int {
            var k = Int((date.timeIntervalSince(anchor) / approximateLength).rounded(.down))
            while edge(k) > date { k -= 1 }
            while edge(k + 1) <= date { k += 1 }
            return k
        }

        func start(of date: Date) -> Date { edge(index(of: date)) }

        func next(after bucketStart: Date) -> Date { edge(index(of: bucketStart) + 1) }
    }

    /// Statistics of a quantity type per interval: sums of cumulative types with sources
    /// merged by priority and samples split at bucket edges; averages, minima, maxima of
    /// discrete ones. With an update handler it keeps answering as the store changes.
    public final class HKStatisticsCollectionQuery: HKQuery, @unchecked Sendable {
        public let anchorDate: Date
        public let options: HKStatisticsOptions
        public let intervalComponents: DateComponents
        public var initialResultsHandler:
            (@Sendable (HKStatisticsCollectionQuery, HKStatisticsCollection?, (any Error)?) -> Void)?
        public var statisticsUpdateHandler:
            (@Sendable (HKStatisticsCollectionQuery, HKStatistics?, HKStatisticsCollection?, (any Error)?) -> Void)?

        public init(
            quantityType: HKQuantityType, quantitySamplePredicate: NSPredicate?, options: HKStatisticsOptions = [],
            anchorDate: Date, intervalComponents: DateComponents
        ) {
            self.anchorDate = anchorDate
            self.options = options
            self.intervalComponents = intervalComponents
            super.init(objectType: quantityType, predicate: quantitySamplePredicate)
        }

        override func run(on store: HKHealthStore) async {
            let type = objectType as! HKQuantityType
            let notices = statisticsUpdateHandler == nil ? nil : try? store.store().observe([SampleType(type.identifier)])
            defer { notices?.finish() }
            do {
                let collection = try await compute(on: store)
                guard !isStopped else { return }
                initialResultsHandler?(self, collection, nil)
            } catch {
                if !isStopped { initialResultsHandler?(self, nil, error) }
                return
            }
            guard let notices, let update = statisticsUpdateHandler else { return }
            for await _ in notices {
                guard !isStopped else { return }
                do {
                    let collection = try await compute(on: store)
                    guard !isStopped else { return }
                    update(self, collection.statistics().last, collection, nil)
                } catch {
                    if !isStopped { update(self, nil, nil, error) }
                }
            }
        }

        /// The collection over the samples the predicate matches now.
        func compute(on store: HKHealthStore) async throws -> HKStatisticsCollection {
            let type = objectType as! HKQuantityType
            try StatisticsMath.validate(options, for: type)
            guard
                intervalComponents.day != nil || intervalComponents.hour != nil || intervalComponents.minute != nil
                    || intervalComponents.month != nil || intervalComponents.weekOfYear != nil || intervalComponents.year != nil
                    || intervalComponents.second != nil
            else {
                throw HKError(.errorInvalidArgument, message: "intervalComponents must set a positive interval")
            }
            let samples = try await store.fetchSamples(type, predicate: predicate).compactMap { $0 as? HKQuantitySample }
            let buckets = Buckets(anchor: anchorDate, components: intervalComponents, calendar: .current)
            let unit = StatisticsMath.unit(for: type, samples: samples)
            guard let first = samples.map(\.startDate).min(), let last = samples.map(\.endDate).max() else {
                return HKStatisticsCollection(type: type, buckets: buckets, statistics: [])
            }
            // Every edge the samples reach, computed once; each sample finds its first bucket
            // by binary search.
            let lowest = buckets.index(of: first)
            let edges = (lowest...(buckets.index(of: last) + 1)).map(buckets.edge)
            var pieces: [Int: [StatisticsMath.Piece]] = [:]
            for sample in samples {
                var k = Self.lastEdge(atOrBefore: sample.startDate, in: edges)
                while k + 1 < edges.count {
                    if let piece = StatisticsMath.piece(of: sample, start: edges[k], end: edges[k + 1], unit: unit) {
                        pieces[k, default: []].append(piece)
                    }
                    guard edges[k + 1] < sample.endDate else { break }
                    k += 1
                }
            }
            let statistics = pieces.map { k, pieces in
                StatisticsMath.statistics(
                    type: type, pieces: pieces, start: edges[k], end: edges[k + 1], unit: unit, options: options)
            }
            return HKStatisticsCollection(type: type, buckets: buckets, statistics: statistics)
        }

        /// The index of the last edge at or before `date` (edges ascending, the first ≤ date).
        static func lastEdge(atOrBefore date: Date, in edges: [Date]) -> Int {
            var (low, high) = (0, edges.count - 1)
            while low < high {
                let middle = (low + high + 1) / 2
                if edges[middle] <= date { low = middle } else { high = middle - 1 }
            }
            return low
        }
    }
#endif

#if !canImport(HealthKit)
    import Foundation

    /// Samples of a type matching a predicate, sorted, at most `limit` (0: all).
    public final class HKSampleQuery: HKQuery, @unchecked Sendable {
        public let limit: Int
        public let sortDescriptors: [NSSortDescriptor]?
        private let resultsHandler: @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void

        public init(
            sampleType: HKSampleType, predicate: NSPredicate?, limit: Int, sortDescriptors: [NSSortDescriptor]?,
            resultsHandler: @escaping @Sendable (HKSampleQuery, [HKSample]?, (any Error)?) -> Void
        ) {
            self.limit = limit
            self.sortDescriptors = sortDescriptors
            self.resultsHandler = resultsHandler
            super.init(objectType: sampleType, predicate: predicate)
        }

        override func run(on store: HKHealthStore) async {
            do {
                let samples = try await store.fetchSamples(objectType as! HKSampleType, predicate: predicate)
                let sorted = HKSampleQuery.sort(samples, by: sortDescriptors ?? [])
                guard !isStopped else { return }
                resultsHandler(self, limit > 0 ? Array(sorted.prefix(limit)) : sorted, nil)
            } catch {
                if !isStopped { resultsHandler(self, nil, error) }
            }
        }

        /// Sorts by HealthKit's date keys; ties keep the store's order, and a descending key
        /// puts the latest stored of equal dates first.
        static func sort(_ samples: [HKSample], by descriptors: [NSSortDescriptor]) -> [HKSample] {
            guard !descriptors.isEmpty else { return samples }
            let endDate: AnyKeyPath = \HKSample.endDate
            let keys: [(byEnd: Bool, ascending: Bool)] = descriptors.map { ($0.keyPath == endDate, $0.ascending) }
            let indexed = Array(samples.enumerated())
            return indexed.sorted { left, right in
                for (byEnd, ascending) in keys {
                    let a = byEnd ? left.element.endDate : left.element.startDate
                    let b = byEnd ? right.element.endDate : right.element.startDate
                    if a != b { return ascending ? a < b : a > b }
                }
                return keys[0].ascending ? left.offset < right.offset : left.offset > right.offset
            }.map(\.element)
        }
    }
#endif

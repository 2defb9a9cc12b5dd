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
                let samples = try await fetch(on: store)
                let sorted = HKSampleQuery.sort(samples, by: sortDescriptors ?? [])
                guard !isStopped else { return }
                resultsHandler(self, limit > 0 ? Array(sorted.prefix(limit)) : sorted, nil)
            } catch {
                if !isStopped { resultsHandler(self, nil, error) }
            }
        }

        /// The samples to sort. "The latest few" (a limit, latest first) reads growing
        /// windows back from the predicate's end until the limit is reached, not the whole
        /// history: a sample outside a window has both dates before the window's start.
        private func fetch(on store: HKHealthStore) async throws -> [HKSample] {
            let type = objectType as! HKSampleType
            guard limit > 0, let first = sortDescriptors?.first, !first.ascending else {
                return try await store.fetchSamples(type, predicate: predicate)
            }
            let byEnd = first.keyPath == \HKSample.endDate as AnyKeyPath
            let latest = HKObjectPredicate.dateBounds(of: predicate).end ?? Date()
            var span: TimeInterval = 86400
            while span < 200 * 365 * 86400 {
                let lower = latest.addingTimeInterval(-span)
                let window = HKObjectPredicate(.dates(start: lower, end: nil, options: []))
                let narrowed = predicate.map { NSCompoundPredicate(andPredicateWithSubpredicates: [$0, window]) } ?? window
                let found = try await store.fetchSamples(type, predicate: narrowed)
                if found.filter({ (byEnd ? $0.endDate : $0.startDate) >= lower }).count >= limit { return found }
                span *= 8
            }
            return try await store.fetchSamples(type, predicate: predicate)
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

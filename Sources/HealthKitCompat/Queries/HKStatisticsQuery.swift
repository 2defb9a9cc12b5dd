#if !canImport(HealthKit)
    import Foundation

    /// Statistics of the samples a predicate matches, over the predicate's interval (samples
    /// crossing its edges count for the part inside).
    public final class HKStatisticsQuery: HKQuery, @unchecked Sendable {
        private let options: HKStatisticsOptions
        private let completionHandler: @Sendable (HKStatisticsQuery, HKStatistics?, (any Error)?) -> Void

        public init(
            quantityType: HKQuantityType, quantitySamplePredicate: NSPredicate?, options: HKStatisticsOptions = [],
            completionHandler handler: @escaping @Sendable (HKStatisticsQuery, HKStatistics?, (any Error)?) -> Void
        ) {
            self.options = options
            self.completionHandler = handler
            super.init(objectType: quantityType, predicate: quantitySamplePredicate)
        }

        override func run(on store: HKHealthStore) async {
            let type = objectType as! HKQuantityType
            do {
                try StatisticsMath.validate(options, for: type)
                let samples = try await store.fetchSamples(type, predicate: predicate).compactMap { $0 as? HKQuantitySample }
                let window = HKObjectPredicate.dateBounds(of: predicate)
                let start = window.start ?? samples.map(\.startDate).min() ?? Date()
                let end = window.end ?? samples.map(\.endDate).max() ?? start
                let unit = StatisticsMath.unit(for: type, samples: samples)
                let pieces = samples.compactMap { sample in
                    // An instant at the very end of an unbounded range still counts.
                    StatisticsMath.piece(
                        of: sample, start: start, end: window.end == nil ? end.addingTimeInterval(1e-3) : end, unit: unit)
                }
                let statistics = StatisticsMath.statistics(
                    type: type, pieces: pieces, start: start, end: end, unit: unit, options: options)
                guard !isStopped else { return }
                if pieces.isEmpty {
                    completionHandler(self, nil, HKError(.errorNoData, message: "No data available for the specified predicate."))
                } else {
                    completionHandler(self, statistics, nil)
                }
            } catch {
                if !isStopped { completionHandler(self, nil, error) }
            }
        }
    }
#endif

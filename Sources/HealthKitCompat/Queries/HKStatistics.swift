#if !canImport(HealthKit)
    import Foundation
    import HealthCore

    /// What a statistics query computes.
    public struct HKStatisticsOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let separateBySource = HKStatisticsOptions(rawValue: 1 << 0)
        public static let discreteAverage = HKStatisticsOptions(rawValue: 1 << 1)
        public static let discreteMin = HKStatisticsOptions(rawValue: 1 << 2)
        public static let discreteMax = HKStatisticsOptions(rawValue: 1 << 3)
        public static let cumulativeSum = HKStatisticsOptions(rawValue: 1 << 4)
        public static let mostRecent = HKStatisticsOptions(rawValue: 1 << 5)

        static let discrete: HKStatisticsOptions = [.discreteAverage, .discreteMin, .discreteMax, .mostRecent]
    }

    /// Statistics of one interval: the merged sum of a cumulative type (sources merged by
    /// priority, samples split by time at the interval's edges), or the average, minimum,
    /// maximum and most recent value of a discrete type; per source with `.separateBySource`.
    /// The average of a `discreteTemporallyWeighted` type (heart rate) weights each value by
    /// the time until the next (``TimeWeightedMean``), of any other discrete type it is arithmetic.
    public final class HKStatistics: NSObject, @unchecked Sendable {
        public let quantityType: HKQuantityType
        public let startDate: Date
        public let endDate: Date
        /// The sources of the samples counted (with `.separateBySource`).
        public let sources: [HKSource]?

        struct Figures {
            var sum: Double?
            var average: Double?
            var minimum: Double?
            var maximum: Double?
            var mostRecent: (value: Double, start: Date, end: Date)?
        }

        private let unit: HKUnit
        private let figures: Figures
        private let bySource: [HKSource: Figures]

        init(
            type: HKQuantityType, start: Date, end: Date, unit: HKUnit, figures: Figures, bySource: [HKSource: Figures]?
        ) {
            self.quantityType = type
            self.startDate = start
            self.endDate = end
            self.unit = unit
            self.figures = figures
            self.bySource = bySource ?? [:]
            self.sources = bySource.map { $0.keys.sorted { $0.name < $1.name } }
            super.init()
        }

        private func quantity(_ value: Double?) -> HKQuantity? { value.map { HKQuantity(unit: unit, doubleValue: $0) } }

        public func sumQuantity() -> HKQuantity? { quantity(figures.sum) }
        public func averageQuantity() -> HKQuantity? { quantity(figures.average) }
        public func minimumQuantity() -> HKQuantity? { quantity(figures.minimum) }
        public func maximumQuantity() -> HKQuantity? { quantity(figures.maximum) }
        public func mostRecentQuantity() -> HKQuantity? { quantity(figures.mostRecent?.value) }
        public func mostRecentQuantityDateInterval() -> DateInterval? {
            figures.mostRecent.map { DateInterval(start: $0.start, end: $0.end) }
        }

        public func sumQuantity(for source: HKSource) -> HKQuantity? { quantity(bySource[source]?.sum) }
        public func averageQuantity(for source: HKSource) -> HKQuantity? { quantity(bySource[source]?.average) }
        public func minimumQuantity(for source: HKSource) -> HKQuantity? { quantity(bySource[source]?.minimum) }
        public func maximumQuantity(for source: HKSource) -> HKQuantity? { quantity(bySource[source]?.maximum) }
        public func mostRecentQuantity(for source: HKSource) -> HKQuantity? { quantity(bySource[source]?.mostRecent?.value) }
    }

    /// The computation behind ``HKStatistics``: pure, over samples already fetched.
    enum StatisticsMath {
        /// A sample's part of an interval: its value in the type's unit, the share of its
        /// duration inside (1 for an instant), and where it lies.
        struct Piece {
            var value: Double
            var share: Double
            var start: Date
            var end: Date
            var sample: HKQuantitySample
        }

        /// The options HealthKit accepts for `type`; an error names the mismatch.
        static func validate(_ options: HKStatisticsOptions, for type: HKQuantityType) throws {
            let cumulative = type.aggregationStyle == .cumulative
            if cumulative, !options.intersection(.discrete).isEmpty {
                throw HKError(
                    .errorInvalidArgument, message: "discrete statistics options are not compatible with \(type.identifier)")
            }
            if !cumulative, options.contains(.cumulativeSum) {
                throw HKError(.errorInvalidArgument, message: "cumulativeSum is not compatible with \(type.identifier)")
            }
        }

        /// The unit figures are kept in: the type's, else the first sample's.
        static func unit(for type: HKQuantityType, samples: [HKQuantitySample]) -> HKUnit {
            type.canonicalUnit ?? samples.first?.quantity.unit ?? .count()
        }

        /// The part of `sample` inside `[start, end)`, or `nil` when it does not overlap.
        static func piece(of sample: HKQuantitySample, start: Date, end: Date, unit: HKUnit) -> Piece? {
            guard sample.quantity.unit.isCompatible(with: unit) else { return nil }
            let value = sample.quantity.doubleValue(for: unit)
            let duration = sample.endDate.timeIntervalSince(sample.startDate)
            if duration <= 0 {
                guard sample.startDate >= start, sample.startDate < end else { return nil }
                return Piece(value: value, share: 1, start: sample.startDate, end: sample.startDate, sample: sample)
            }
            let lower = max(sample.startDate, start)
            let upper = min(sample.endDate, end)
            guard upper > lower else { return nil }
            return Piece(value: value, share: upper.timeIntervalSince(lower) / duration, start: lower, end: upper, sample: sample)
        }

        static func statistics(
            type: HKQuantityType, pieces: [Piece], start: Date, end: Date, unit: HKUnit, options: HKStatisticsOptions
        ) -> HKStatistics {
            // HealthKit weights the average of a `discreteTemporallyWeighted` type (heart rate) by time.
            let weightedUntil = type.aggregationStyle == .discreteTemporallyWeighted ? end : nil
            let figures = self.figures(pieces, options: options, merge: true, weightedUntil: weightedUntil)
            var bySource: [HKSource: HKStatistics.Figures]?
            if options.contains(.separateBySource) {
                let groups = Dictionary(grouping: pieces) { $0.sample.sourceRevision.source }
                bySource = groups.mapValues { self.figures($0, options: options, merge: false, weightedUntil: weightedUntil) }
            }
            return HKStatistics(type: type, start: start, end: end, unit: unit, figures: figures, bySource: bySource)
        }

        /// The figures of `pieces`; with `weightedUntil`, the average is ``TimeWeightedMean`` up to it.
        private static func figures(
            _ pieces: [Piece], options: HKStatisticsOptions, merge: Bool, weightedUntil: Date?
        ) -> HKStatistics.Figures {
            var figures = HKStatistics.Figures()
            guard !pieces.isEmpty else { return figures }
            if options.contains(.cumulativeSum) {
                figures.sum = merge ? mergedSum(pieces) : pieces.reduce(0) { $0 + $1.value * $1.share }
            }
            let values = pieces.map(\.value)
            if options.contains(.discreteAverage) {
                if let end = weightedUntil {
                    figures.average = TimeWeightedMean.mean(pieces.map { (start: $0.start, value: $0.value) }, until: end)
                } else {
                    figures.average = values.reduce(0, +) / Double(values.count)
                }
            }
            if options.contains(.discreteMin) { figures.minimum = values.min() }
            if options.contains(.discreteMax) { figures.maximum = values.max() }
            if options.contains(.mostRecent), let end = pieces.map(\.sample.endDate).max(),
                let latest = pieces.last(where: { $0.sample.endDate == end })
            {
                figures.mostRecent = (latest.value, latest.sample.startDate, latest.sample.endDate)
            }
            return figures
        }

        /// Sources in priority order (Apple Watch, iPhone, others; then by name), each piece
        /// counting only for the part of its time no higher-priority source covers.
        static func mergedSum(_ pieces: [Piece]) -> Double {
            // Each source ranked once, not at every comparison of the sort.
            let ordered = Dictionary(grouping: pieces) { $0.sample.sourceRevision.source.name }
                .map { (rank: rank($0.value), name: $0.key, pieces: $0.value) }
                .sorted { ($0.rank, $0.name) < ($1.rank, $1.name) }
            var covered = IntervalUnion()
            var total = 0.0
            for (_, _, own) in ordered {
                for piece in own { total += piece.value * piece.share * covered.uncoveredShare(piece.start, piece.end) }
                covered = covered.adding(own.map { ($0.start, $0.end) })
            }
            return total
        }

        private static func rank(_ pieces: [Piece]) -> Int {
            pieces.lazy.map { $0.sample.device?.priority ?? 2 }.min() ?? 2
        }
    }
#endif

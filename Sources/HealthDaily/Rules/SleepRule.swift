import Foundation
import HealthCore
import HealthMetrics

/// Sleep hours of the night that ends on the morning of a day.
///
/// Window `[D-1 18:00, D 12:00)` local (the seed's "D+1 12:00" would swallow the next
/// night). Asleep states: asleep (unspecified), core, deep, REM. Watch, iPhone and
/// third-party apps record the same night over each other, so sources are never added
/// up: the night comes from one source, the best by ``SleepSourceRank`` (Watch stages,
/// another source's stages, asleep without stages, only time in bed; then the device, more
/// time asleep, the name). Within that source, overlapping samples count once (union),
/// clipped to the window. A source that recorded only time in bed (the iPhone's bedtime
/// schedule) gives a night of unknown asleep time when it was in bed at least 3 hours.
public enum SleepRule {
    /// The night of one window, from its one chosen source.
    public struct Night: Hashable, Sendable {
        /// The chosen source (app).
        public var source: String
        /// What it recorded.
        public var basis: SleepBasis
        /// Asleep seconds in the window; `nil` — unknown — when the source recorded only time
        /// in bed.
        public var asleepSeconds: Double?
        /// The union of its in-bed samples in the window, or of all its samples when it wrote
        /// no in-bed sample.
        public var inBedSeconds: Double
    }

    /// What one source wrote in the window, clipped to it.
    private struct Record {
        var deviceOrder = Int.max
        var stages: [(stage: SleepStage, watch: Bool)] = []
        var asleep: [(start: Date, end: Date)] = []
        var inBed: [(start: Date, end: Date)] = []
        var all: [(start: Date, end: Date)] = []
        /// An asleep sample carries stage totals (Health Auto Export's night).
        var stageTotals = false
    }

    /// The night in `window` from the best-ranked source; `nil` when no source measured sleep
    /// and none was in bed for 3 hours.
    public static func night(_ samples: [Sample], window: DateInterval) -> Night? {
        var bySource: [String: Record] = [:]
        for sample in samples {
            guard case .category(let value) = sample.value, let stage = SleepStage(categoryValue: value) else { continue }
            let start = max(sample.start, window.start)
            let end = min(sample.end, window.end)
            guard end > start else { continue }
            var record = bySource[sample.source.name] ?? Record()
            record.deviceOrder = min(record.deviceOrder, SleepSourceRank.deviceOrder(sample))
            record.stages.append((stage: stage, watch: sample.device?.deviceClass == .appleWatch))
            record.all.append((start: start, end: end))
            if stage.isAsleep { record.asleep.append((start: start, end: end)) }
            if stage == .inBed { record.inBed.append((start: start, end: end)) }
            if stage == .unspecified, !record.stageTotals {
                record.stageTotals = SleepSessionBuilder.hasStages(SleepSessionBuilder.stageTotals(sample))
            }
            bySource[sample.source.name] = record
        }
        var best: (rank: SleepSourceRank, night: Night)?
        for (source, record) in bySource {
            var basis = SleepSessionBuilder.basis(record.stages)
            // Ranked as `healthpipe sleep` ranks it (SleepSessionBuilder): totals are stages.
            if basis == .asleepUnspecified, record.stageTotals { basis = .trackerStages }
            let asleep: Double? = basis.measuresSleep ? IntervalUnion(record.asleep).totalSeconds : nil
            let inBed = IntervalUnion(record.inBed.isEmpty ? record.all : record.inBed).totalSeconds
            // Only time in bed is a night from 3 hours in bed on, as a main sleep needs 3 hours.
            guard asleep != nil || inBed >= SleepAnalyzer.mainSleepMinimum else { continue }
            let rank = SleepSourceRank(
                basis: basis, deviceOrder: record.deviceOrder, seconds: asleep ?? inBed, source: source)
            if best.map({ rank < $0.rank }) ?? true {
                best = (rank: rank, night: Night(source: source, basis: basis, asleepSeconds: asleep, inBedSeconds: inBed))
            }
        }
        return best?.night
    }

    /// Asleep seconds in `window`, from the best source; `nil` when no source measured sleep.
    public static func asleepSeconds(_ samples: [Sample], window: DateInterval) -> Double? {
        night(samples, window: window)?.asleepSeconds
    }
}

/// Daily means (resting heart rate, HRV SDNN): the average of the values of the samples
/// that start in the day, in `unit`; `nil` when there are none.
public enum MeanRule {
    public static func mean(_ samples: [Sample], day: DateInterval, unit: HealthUnit) -> Double? {
        var total = 0.0
        var count = 0
        var plausible: [SampleType: ClosedRange<Double>] = [:]
        for sample in samples where sample.start >= day.start && sample.start < day.end {
            guard case .quantity(let raw, let symbol) = sample.value,
                let value = try? HealthUnit(parsing: symbol).convert(raw, to: unit)
            else { continue }
            // A value stored before the plausible ranges existed is skipped, not averaged.
            if plausible[sample.type] == nil { plausible[sample.type] = PlausibleRange.bounds(of: sample.type, in: unit) }
            guard plausible[sample.type]?.contains(value) == true else { continue }
            total += value
            count += 1
        }
        // To 0.001 of the unit, what the values mean: a mean of decimals otherwise carries
        // binary noise into every answer (46.856500000000004 ms).
        return count > 0 ? (total / Double(count) * 1000).rounded() / 1000 : nil
    }
}

/// `suspiciousSteps`: a day whose normalised steps are an extreme outlier against the
/// trailing 30 days. With at least 7 of those days holding steps and their median `m` at
/// least 1,000, the day is suspicious when its steps exceed `3 × m` (double counting, a
/// second device that should have been deduplicated) or fall below `m / 10` (a device
/// missing most of the day). Otherwise it is not.
public enum SuspiciousStepsRule {
    public static let minimumHistoryDays = 7
    public static let minimumMedian = 1000.0

    public static func isSuspicious(steps: Int, trailing history: [Int]) -> Bool {
        guard history.count >= minimumHistoryDays else { return false }
        let sorted = history.sorted()
        let middle = sorted.count / 2
        // Added as doubles: two saturated days (Int.max) must not overflow.
        let median =
            sorted.count % 2 == 1 ? Double(sorted[middle]) : (Double(sorted[middle - 1]) + Double(sorted[middle])) / 2
        guard median >= minimumMedian else { return false }
        return Double(steps) > 3 * median || Double(steps) < median / 10
    }
}

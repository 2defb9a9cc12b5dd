import Foundation
import HealthCore

/// Sleep hours of the night that ends on the morning of a day.
///
/// Window `[D-1 18:00, D 12:00)` local (the seed's "D+1 12:00" would swallow the next
/// night). Asleep states: asleep (unspecified), core, deep, REM. Watch, iPhone and
/// third-party apps record the same night over each other, so sources are never added
/// up: the night's asleep time comes from one source, chosen by priority — Apple Watch,
/// then other wearables (a device that is neither Watch nor iPhone), then apps without a
/// device (AutoSleep, Sleep Cycle…), then iPhone; among equals, the one with more asleep
/// time. Within that source, overlapping samples count once (union), clipped to the window.
public enum SleepRule {
    /// Priority of a sleep source, lower is better.
    static func priority(_ sample: Sample) -> Int {
        switch sample.device?.deviceClass {
        case .appleWatch: 0
        case .other: 1
        case nil: 2
        case .iPhone: 3
        }
    }

    /// Asleep seconds in `window`, from the best source; `nil` when no asleep sample.
    public static func asleepSeconds(_ samples: [Sample], window: DateInterval) -> Double? {
        var bySource: [String: (priority: Int, pieces: [(start: Date, end: Date)])] = [:]
        for sample in samples {
            guard case .category(let value) = sample.value, SleepStage(categoryValue: value)?.isAsleep == true else { continue }
            let start = max(sample.start, window.start)
            let end = min(sample.end, window.end)
            guard end > start else { continue }
            let key = sample.source.name
            var entry = bySource[key] ?? (priority(sample), [])
            entry.priority = min(entry.priority, priority(sample))
            entry.pieces.append((start, end))
            bySource[key] = entry
        }
        let totals = bySource.map {
            (priority: $0.value.priority, seconds: IntervalUnion($0.value.pieces).totalSeconds, name: $0.key)
        }
        return totals.min { ($0.priority, -$0.seconds, $0.name) < ($1.priority, -$1.seconds, $1.name) }?.seconds
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

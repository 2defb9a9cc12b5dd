import Foundation

/// The mean of a `discreteTemporallyWeighted` type (heart rate), as HealthKit takes it:
/// each value weighted by the time it holds — from its start until the next value starts
/// (the interval's end for the last one), at most ``maximumGap``.
///
/// Values that start at the same instant (two sources) share that time equally. When no
/// value holds for any time (a single reading at the very end), the arithmetic mean of
/// the values. The one implementation of this mean: a workout's heart rate from samples
/// (`WorkoutSummarizer`) and HealthKitCompat's `discreteAverage` of such types use it.
///
/// ```swift
/// // 60 bpm at 0 s and 90 bpm at 60 s, until 180 s: (60 × 60 + 90 × 120) / 180 = 80
/// TimeWeightedMean.mean([(t0, 60), (t0 + 60, 90)], until: t0 + 180)  // 80 (arithmetic: 75)
/// ```
public enum TimeWeightedMean {
    /// The longest time one value holds, in seconds (10 minutes): across a longer gap in the
    /// recording (the watch off the wrist, a night between two readings) the last value is
    /// not taken to have lasted.
    public static let maximumGap: TimeInterval = 600

    /// The time-weighted mean of `readings` up to `end`; `nil` when there are none.
    /// A reading's start is where its time begins: clip it to the interval's start first.
    public static func mean(
        _ readings: [(start: Date, value: Double)], until end: Date, maximumGap: TimeInterval = TimeWeightedMean.maximumGap
    ) -> Double? {
        guard !readings.isEmpty else { return nil }
        // By start, then value: the same readings give the same sum whatever their order.
        let sorted = readings.sorted { ($0.start, $0.value) < ($1.start, $1.value) }
        var weighted = 0.0
        var time = 0.0
        var index = 0
        while index < sorted.count {
            let start = sorted[index].start
            var next = index
            var total = 0.0
            while next < sorted.count, sorted[next].start == start {
                total += sorted[next].value
                next += 1
            }
            let until = next < sorted.count ? sorted[next].start : end
            let held = min(max(until.timeIntervalSince(start), 0), maximumGap)
            weighted += total / Double(next - index) * held
            time += held
            index = next
        }
        if time > 0 { return weighted / time }
        return sorted.reduce(0) { $0 + $1.value } / Double(sorted.count)
    }

    /// The time-weighted mean in `unit` of the quantity `samples` overlapping `interval`,
    /// each from its start (or the interval's start, when it began before); samples without
    /// a number, or in a unit that does not convert, are skipped. `nil` when none is left.
    public static func mean(of samples: [Sample], over interval: DateInterval, unit: HealthUnit) -> Double? {
        let readings = samples.compactMap { sample -> (start: Date, value: Double)? in
            guard case .quantity(let raw, let symbol) = sample.value,
                let value = try? HealthUnit(parsing: symbol).convert(raw, to: unit)
            else { return nil }
            return (start: Swift.max(sample.start, interval.start), value: value)
        }
        return mean(readings, until: interval.end)
    }
}

import Foundation
import HealthDaily
import HealthMetrics

/// Normalised daily metrics against a synthetic export's ground truth.
public struct AccuracyReport: Sendable {
    /// One day compared.
    public struct Day: Sendable {
        public var date: String
        public var truthZone: String
        public var zone: String
        public var truthSteps: Int
        public var steps: Int?
        public var rawSteps: Int?
        public var truthSleepMinutes: Double
        public var sleepMinutes: Double?

        /// |normalised − truth| / truth, in %.
        public var stepsErrorPercent: Double? {
            guard let steps, truthSteps > 0 else { return nil }
            return abs(Double(steps - truthSteps)) / Double(truthSteps) * 100
        }

        public var rawErrorPercent: Double? {
            guard let rawSteps, truthSteps > 0 else { return nil }
            return abs(Double(rawSteps - truthSteps)) / Double(truthSteps) * 100
        }

        public var sleepErrorMinutes: Double? { sleepMinutes.map { abs($0 - truthSleepMinutes) } }
    }

    public var days: [Day]

    /// Compares every day of `truth` with `metrics` (matched by local date).
    public init(truth: GroundTruth, metrics: [NormalizedDailyMetrics]) {
        let byDate = Dictionary(metrics.map { ($0.localDate, $0) }, uniquingKeysWith: { first, _ in first })
        days = truth.days.map { day in
            let metric = byDate[day.date]
            return Day(
                date: day.date, truthZone: day.timeZone, zone: metric?.timezoneIdentifier ?? "—", truthSteps: day.steps,
                steps: metric?.stepsNormalized, rawSteps: metric?.stepsRawSum, truthSleepMinutes: day.asleepMinutes,
                sleepMinutes: metric?.sleepHours.map { $0 * 60 })
        }
    }

    public var stepsMeanErrorPercent: Double { mean(days.compactMap(\.stepsErrorPercent)) }
    public var rawMeanErrorPercent: Double { mean(days.compactMap(\.rawErrorPercent)) }
    public var worstStepsDay: Day? { days.max { ($0.stepsErrorPercent ?? 0) < ($1.stepsErrorPercent ?? 0) } }
    /// Share of days whose steps are within `percent` of the truth, in %.
    public func stepsWithin(_ percent: Double) -> Double {
        Double(days.filter { ($0.stepsErrorPercent ?? .infinity) <= percent }.count) / Double(max(days.count, 1)) * 100
    }
    /// Steps below the truth in total, in % of the truth (what a rule loses by design).
    public var stepsLostPercent: Double {
        let truth = days.reduce(0) { $0 + $1.truthSteps }
        let counted = days.reduce(0) { $0 + ($1.steps ?? 0) }
        return Double(truth - counted) / Double(max(truth, 1)) * 100
    }
    public var sleepMeanErrorMinutes: Double { mean(days.compactMap(\.sleepErrorMinutes)) }
    public var worstSleepDay: Day? { days.max { ($0.sleepErrorMinutes ?? 0) < ($1.sleepErrorMinutes ?? 0) } }
    public var nightsWithoutSleep: Int { days.filter { $0.sleepMinutes == nil }.count }
    public var zoneMismatches: [Day] { days.filter { $0.zone != $0.truthZone } }

    private func mean(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }

    /// A plain-text summary.
    public var summary: String {
        var lines: [String] = []
        lines.append(String(format: "days: %d", days.count))
        lines.append(
            String(
                format: "steps: mean abs error %.2f%% (raw sum %.1f%%), within 3%%: %.1f%% of days, lost in total %.2f%%",
                stepsMeanErrorPercent, rawMeanErrorPercent, stepsWithin(3), stepsLostPercent))
        if let worst = worstStepsDay {
            lines.append(
                String(
                    format: "  worst day %@: %d vs truth %d (%.2f%%)", worst.date, worst.steps ?? 0, worst.truthSteps,
                    worst.stepsErrorPercent ?? 0))
        }
        lines.append(
            String(format: "sleep: mean abs error %.2f min, nights without sleep %d", sleepMeanErrorMinutes, nightsWithoutSleep))
        if let worst = worstSleepDay {
            lines.append(
                String(
                    format: "  worst night %@: %.1f vs truth %.1f min", worst.date, worst.sleepMinutes ?? 0,
                    worst.truthSleepMinutes))
        }
        lines.append("zones: \(zoneMismatches.count) days in the wrong zone")
        return lines.joined(separator: "\n")
    }
}

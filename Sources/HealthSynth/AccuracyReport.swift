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
        /// Steps the devices could report (``GroundTruth/Day/observableSteps``); `nil` in
        /// older truth files.
        public var observableSteps: Int?
        public var steps: Int?
        public var rawSteps: Int?
        public var truthSleepMinutes: Double
        public var sleepMinutes: Double?
        /// What the truth says the night should be reported from, and what `sleep_source_json`
        /// says it was.
        public var truthSleepBasis: SleepBasis?
        public var sleepBasis: SleepBasis?
        /// Minutes in bed of the iPhone's schedule (truth) and of the payload's `in_bed_hours`.
        public var truthInBedMinutes: Double?
        public var inBedMinutes: Double?

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

        /// |normalised − observable| / observable, in %.
        public var observableStepsErrorPercent: Double? {
            guard let steps, let observableSteps, observableSteps > 0 else { return nil }
            return abs(Double(steps - observableSteps)) / Double(observableSteps) * 100
        }

        /// |payload − truth| minutes in bed, for a night of only time in bed.
        public var inBedErrorMinutes: Double? {
            guard truthSleepBasis == .inBedOnly, let inBedMinutes, let truthInBedMinutes else { return nil }
            return abs(inBedMinutes - truthInBedMinutes)
        }
    }

    public var days: [Day]

    /// Compares every day of `truth` with `metrics` (matched by local date).
    public init(truth: GroundTruth, metrics: [NormalizedDailyMetrics]) {
        let byDate = Dictionary(metrics.map { ($0.localDate, $0) }, uniquingKeysWith: { first, _ in first })
        let formatter = ISO8601DateFormatter()
        days = truth.days.map { day in
            let metric = byDate[day.date]
            let inBed = day.inBedStart.flatMap(formatter.date(from:)).flatMap { start in
                day.inBedEnd.flatMap(formatter.date(from:)).map { $0.timeIntervalSince(start) / 60 }
            }
            return Day(
                date: day.date, truthZone: day.timeZone, zone: metric?.timezoneIdentifier ?? "—", truthSteps: day.steps,
                observableSteps: day.observableSteps, steps: metric?.stepsNormalized, rawSteps: metric?.stepsRawSum,
                truthSleepMinutes: day.asleepMinutes, sleepMinutes: metric?.sleepHours.map { $0 * 60 },
                truthSleepBasis: day.sleepBasis.flatMap(SleepBasis.init(rawValue:)), sleepBasis: metric?.sleepSource?.basis,
                truthInBedMinutes: inBed, inBedMinutes: metric?.sleepSource.map { $0.inBedHours * 60 })
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
    /// Share of days whose steps are within `percent` of the observable truth, in %.
    public func stepsWithinObservable(_ percent: Double) -> Double {
        Double(days.filter { ($0.observableStepsErrorPercent ?? .infinity) <= percent }.count) / Double(max(days.count, 1))
            * 100
    }
    public var observableStepsMeanErrorPercent: Double { mean(days.compactMap(\.observableStepsErrorPercent)) }
    public var worstObservableStepsDay: Day? {
        days.max { ($0.observableStepsErrorPercent ?? 0) < ($1.observableStepsErrorPercent ?? 0) }
    }
    /// Days whose `sleep_source_json` names another basis than the truth's night.
    public var sleepBasisMismatches: [Day] { days.filter { $0.truthSleepBasis != nil && $0.sleepBasis != $0.truthSleepBasis } }
    /// The worst error of `in_bed_hours` on nights of only time in bed, in minutes (∞ when one has none).
    public var worstInBedMinutes: Double {
        days.filter { $0.truthSleepBasis == .inBedOnly }.map { $0.inBedErrorMinutes ?? .infinity }.max() ?? 0
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
        if days.contains(where: { $0.observableSteps != nil }) {
            lines.append(
                String(
                    format: "steps against the observable truth: mean abs error %.2f%%, within 3%%: %.1f%% of days",
                    observableStepsMeanErrorPercent, stepsWithinObservable(3)))
            if let worst = worstObservableStepsDay {
                lines.append(
                    String(
                        format: "  worst day %@: %d vs observable %d (%.2f%%)", worst.date, worst.steps ?? 0,
                        worst.observableSteps ?? 0, worst.observableStepsErrorPercent ?? 0))
            }
        }
        lines.append(
            String(format: "sleep: mean abs error %.2f min, nights without sleep %d", sleepMeanErrorMinutes, nightsWithoutSleep))
        let inBedOnly = days.filter { $0.truthSleepBasis == .inBedOnly }
        if days.contains(where: { $0.truthSleepBasis != nil }) {
            lines.append(
                String(
                    format:
                        "  %d nights of time in bed only (worst in_bed_hours error %.2f min); %d days with another sleep basis than the truth's",
                    inBedOnly.count, worstInBedMinutes, sleepBasisMismatches.count))
        }
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

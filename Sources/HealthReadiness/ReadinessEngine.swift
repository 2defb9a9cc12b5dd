import Foundation
import HealthMetrics

/// Readiness from normalised daily metrics, and nothing else: the module cannot see
/// samples or storage (it depends on `HealthMetrics` only).
///
/// Each contributor scores one input 0–100 against the person's own baseline; the score is
/// their weighted mean, renormalised over the contributors that have data. The formula,
/// every constant and its source are in docs/readiness.md.
///
/// ```swift
/// let engine = try ReadinessEngine()
/// // The 60 days before the first scored day, and the scored days themselves:
/// let scores = try engine.scores(on: ["2024-06-01", "2024-06-02"], history: metrics)
/// ```
public struct ReadinessEngine: Sendable {
    public let configuration: ReadinessConfiguration

    /// Days of history before a scored day that the engine reads.
    public static let historyDays = ReadinessConfiguration.Constants.baselineDays

    /// Fails on a sleep need outside 4–12 h or unusable weights.
    public init(configuration: ReadinessConfiguration = .init()) throws {
        guard (4.0...12.0).contains(configuration.sleepNeedHours) else { throw ReadinessError.invalidSleepNeed }
        let weights = ReadinessContributor.Kind.allCases.map { configuration.weights[$0] ?? 0 }
        guard weights.allSatisfy({ $0 >= 0 && $0.isFinite }), weights.contains(where: { $0 > 0 }) else {
            throw ReadinessError.invalidWeights
        }
        self.configuration = configuration
    }

    /// The score of one local day (`YYYY-MM-DD`) from `history`, which should hold the
    /// ``historyDays`` days before it and the day itself (in any order; gaps are fine).
    public func score(on date: String, history: [NormalizedDailyMetrics]) throws -> ReadinessScore {
        try scores(on: [date], history: history)[0]
    }

    /// The scores of several local days from one history.
    public func scores(on dates: [String], history: [NormalizedDailyMetrics]) throws -> [ReadinessScore] {
        let figures = try history.map { day in
            guard let figures = DailyFigures(day) else { throw ReadinessError.invalidDate(day.localDate) }
            return figures
        }
        return try scores(on: dates, figures: figures)
    }

    /// The scores of several local days from the figures of the days around them (a store's
    /// ``DailyFigures``, read without the days' metadata): the same as from the whole days.
    public func scores(on dates: [String], figures: [DailyFigures]) throws -> [ReadinessScore] {
        let series = try DailySeries(figures, measure: configuration.activityMeasure)
        return try dates.map { date in
            guard let day = DailySeries.dayNumber(date) else { throw ReadinessError.invalidDate(date) }
            return evaluate(day: day, date: date, series: series)
        }
    }

    private func evaluate(day: Int, date: String, series: DailySeries) -> ReadinessScore {
        typealias C = ReadinessConfiguration.Constants
        let contributors = [
            hrvBalance(day: day, series: series), restingHeartRate(day: day, series: series), sleep(day: day, series: series),
            sleepBalance(day: day, series: series), previousDayActivity(day: day, series: series),
            activityBalance(day: day, series: series),
        ]
        let validDays = ((day - C.baselineDays + 1)...day).filter(series.isValid).count
        let calibrating = validDays < C.calibrationDays
        let totalWeight = contributors.reduce(0) { $0 + $1.weight }
        let scored = contributors.filter { $0.exact != nil && $0.weight > 0 }
        let scoredWeight = scored.reduce(0) { $0 + $1.weight }
        // A contributor scored on time in bed alone counts for part of its weight here.
        let coveredWeight = scored.reduce(0) { $0 + $1.weight * $1.coverage }
        let coverage = totalWeight > 0 ? coveredWeight / totalWeight : 0
        let maturity = min(1, Double(validDays) / Double(C.matureDays))
        let confidence = ((coverage * maturity) * 100).rounded() / 100
        var score: Int?
        var reason: String
        if scoredWeight > 0 {
            let exact = scored.reduce(0) { $0 + $1.weight * $1.exact! } / scoredWeight
            score = Int(roundingSaturating: exact)
            reason = Self.reason(scored: scored, weight: scoredWeight)
            // Said once: unless the reason is that night already, it says how sleep was scored.
            if scored.contains(where: { $0.kind == .sleep && $0.coverage < 1 }), !reason.contains("in bed last night") {
                reason += " Last night's sleep is time in bed: asleep unknown."
            }
        } else {
            reason = "No contributor has data: readiness needs HRV, resting HR, sleep or activity around this day."
        }
        if calibrating { reason += " Calibrating: \(validDays) of \(C.calibrationDays) days." }
        return ReadinessScore(
            date: date, score: score, band: score.map(ReadinessBand.init(score:)), calibrating: calibrating,
            validDays: validDays, confidence: confidence, reason: reason, contributors: contributors.map(\.public))
    }

    /// Names the contributor that cost the most points (weight × (100 − sub-score), after
    /// renormalisation), or says that nothing did.
    private static func reason(scored: [Evaluated], weight: Double) -> String {
        let costs = scored.map { ($0, $0.weight * (100 - $0.exact!) / weight) }
        guard let (worst, cost) = costs.max(by: { $0.1 < $1.1 }), cost >= 2.5 else {
            return "Everything is within your normal range."
        }
        let points = Int(roundingSaturating: cost) ?? 0
        return "\(worst.kind.title) cost \(points) point\(points == 1 ? "" : "s"): \(worst.explanation)."
    }

    /// A contributor as computed: the exact sub-score and the words for the reason line.
    struct Evaluated {
        var kind: ReadinessContributor.Kind
        var weight: Double
        var exact: Double?
        var value: Double?
        var baseline: Double?
        var band: NormalBand?
        var unit: String
        var note: String?
        var explanation: String
        /// The share of the weight that counts in the confidence: 1, less for a contributor
        /// scored on time in bed (asleep unknown).
        var coverage: Double = 1

        var `public`: ReadinessContributor {
            ReadinessContributor(
                kind: kind, weight: weight, subscore: exact.map { ($0 * 10).rounded() / 10 }, value: value, baseline: baseline,
                band: band, unit: unit, note: note)
        }
    }

    func weight(_ kind: ReadinessContributor.Kind) -> Double { configuration.weights[kind] ?? 0 }
}

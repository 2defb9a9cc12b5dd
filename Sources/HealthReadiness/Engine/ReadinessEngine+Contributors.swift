import Foundation
import HealthMetrics

/// The six contributors. Each reads windows of the day series ending on `day` (the scored
/// local day) and maps a deviation through a monotone ``ScoreCurve``.
extension ReadinessEngine {
    typealias C = ReadinessConfiguration.Constants

    /// z of the 7-day ln(HRV) mean from the 60-day mean, in SDs.
    static let hrvCurve = ScoreCurve([(-2.5, 0), (-0.5, 80), (0.5, 100)])
    /// bpm above the 60-day mean: +3 a warning, +10 a strong one.
    static let restingHRCurve = ScoreCurve([(0, 100), (3, 75), (5, 60), (10, 25), (15, 0)])
    /// Hours short of the need last night.
    static let sleepCurve = ScoreCurve([(0, 100), (1, 85), (4, 25), (8, 0)])
    /// Mean nightly hours short of the need over 14 nights.
    static let sleepBalanceCurve = ScoreCurve([(0, 100), (0.5, 85), (1, 70), (2, 40), (3, 10), (3.5, 0)])
    /// Yesterday's load over the 28-day mean.
    static let previousDayCurve = ScoreCurve([(1.3, 100), (2, 60), (3, 20), (4, 0)])
    /// 7-day mean load over the 28-day mean (acute:chronic ratio): 0.8–1.3 is the sweet spot.
    static let activityBalanceCurve = ScoreCurve([(0, 60), (0.8, 100), (1.3, 100), (1.5, 80), (2, 40), (2.5, 10), (3, 0)])

    func hrvBalance(day: Int, series: DailySeries) -> Evaluated {
        var result = Evaluated(kind: .hrvBalance, weight: weight(.hrvBalance), unit: "ms")
        let baselineDays = (day - C.baselineDays)...(day - 1)
        let values =
            configuration.screensOutliers
            ? DailySeries.screened(
                series.logHRV, window: (day - C.baselineDays)...day, reference: baselineDays, madFloor: C.hrvMADFloor)
            : series.logHRV
        let recent = values.values(in: (day - C.recentDays + 1)...day)
        let baseline = values.values(in: baselineDays)
        if let mean = Statistics.mean(recent) { result.value = Self.round(exp(mean), 1) }
        guard recent.count >= C.minimumRecentDays else {
            result.note = "HRV on \(recent.count) of the last 7 days; needs \(C.minimumRecentDays)"
            return result
        }
        guard baseline.count >= C.minimumBaselineDays, let mu = Statistics.mean(baseline) else {
            result.note = "HRV baseline has \(baseline.count) days of the previous 60; needs \(C.minimumBaselineDays)"
            return result
        }
        let sigma = max(Statistics.standardDeviation(baseline) ?? 0, C.hrvSDFloor)
        let mean = Statistics.mean(recent)!
        let z = (mean - mu) / sigma
        let (lower, upper) = (exp(mu - C.hrvBandSD * sigma), exp(mu + C.hrvBandSD * sigma))
        result.exact = Self.hrvCurve(z)
        result.baseline = Self.round(exp(mu), 1)
        result.band = NormalBand(lower: Self.round(lower, 1), upper: Self.round(upper, 1))
        let position = z < -C.hrvBandSD ? "below" : z > C.hrvBandSD ? "above" : "within"
        result.explanation =
            "7-day HRV \(Self.text(exp(mean), 0)) ms, \(position) your normal \(Self.text(lower, 0))–\(Self.text(upper, 0)) ms"
        return result
    }

    func restingHeartRate(day: Int, series: DailySeries) -> Evaluated {
        var result = Evaluated(kind: .restingHeartRate, weight: weight(.restingHeartRate), unit: "bpm")
        let baselineDays = (day - C.baselineDays)...(day - 1)
        let values =
            configuration.screensOutliers
            ? DailySeries.screened(
                series.restingHR, window: (day - C.baselineDays)...day, reference: baselineDays,
                madFloor: C.restingHRMADFloor)
            : series.restingHR
        let baseline = values.values(in: baselineDays)
        result.value = values[day].map { Self.round($0, 1) }
        guard let today = values[day] else {
            result.note = "no resting HR today"
            return result
        }
        guard baseline.count >= C.minimumBaselineDays, let mu = Statistics.mean(baseline) else {
            result.note = "resting-HR baseline has \(baseline.count) days of the previous 60; needs \(C.minimumBaselineDays)"
            return result
        }
        let delta = today - mu
        result.exact = Self.restingHRCurve(delta)
        result.baseline = Self.round(mu, 1)
        result.band = NormalBand(lower: Self.round(mu - C.restingHRBandBpm, 1), upper: Self.round(mu + C.restingHRBandBpm, 1))
        let direction = delta >= 0 ? "above" : "below"
        result.explanation =
            "\(Self.text(today, 0)) bpm today, \(Self.text(abs(delta), 1)) bpm \(direction) your 60-day mean of \(Self.text(mu, 1))"
        return result
    }

    /// Said of a night recorded only as time in bed, which is scored as if asleep all along.
    static let inBedNote =
        "asleep unknown: only time in bed was recorded (the iPhone's bedtime schedule), scored as an upper bound of sleep"

    func sleep(day: Int, series: DailySeries) -> Evaluated {
        let need = configuration.sleepNeedHours
        var result = Evaluated(
            kind: .sleep, weight: weight(.sleep), baseline: need, band: NormalBand(lower: need - 1, upper: nil), unit: "h")
        guard let night = series.night(day) else {
            result.note = "no sleep recorded for the night ending this morning"
            return result
        }
        result.value = Self.round(night.hours, 2)
        result.exact = Self.sleepCurve(need - night.hours)
        guard night.inBedOnly else {
            result.explanation = "\(Self.text(night.hours, 1)) h last night against a need of \(Self.text(need, 1)) h"
            return result
        }
        // Time in bed bounds sleep from above and the curve is monotone: the sub-score is the
        // best the night can have earned. It counts for half its weight in the confidence.
        result.coverage = 0.5
        result.note = Self.inBedNote
        result.explanation =
            "\(Self.text(night.hours, 1)) h in bed last night (asleep unknown) against a need of \(Self.text(need, 1)) h"
        return result
    }

    func sleepBalance(day: Int, series: DailySeries) -> Evaluated {
        let need = configuration.sleepNeedHours
        var result = Evaluated(
            kind: .sleepBalance, weight: weight(.sleepBalance), baseline: need, band: NormalBand(lower: need - 0.5, upper: nil),
            unit: "h")
        let window = (day - C.sleepBalanceNights + 1)...day
        let nights = window.compactMap { series.night($0) }
        guard nights.count >= C.minimumSleepBalanceNights else {
            result.note = "sleep on \(nights.count) of the last 14 nights; needs \(C.minimumSleepBalanceNights)"
            return result
        }
        let mean = Statistics.mean(nights.map { min($0.hours, need) })!
        result.value = Self.round(mean, 2)
        result.exact = Self.sleepBalanceCurve(need - mean)
        result.explanation =
            "\(Self.text(mean, 1)) h a night over the last \(nights.count) nights (each counted up to the need) against \(Self.text(need, 1)) h"
        let inBed = nights.filter { $0.inBedOnly }.count
        if inBed > 0 {
            // Each night of time in bed counts for half, as last night's does.
            result.coverage = 1 - 0.5 * Double(inBed) / Double(nights.count)
            result.note = "\(inBed) of the \(nights.count) nights are time in bed (asleep unknown), an upper bound of sleep"
        }
        return result
    }

    func previousDayActivity(day: Int, series: DailySeries) -> Evaluated {
        var result = Evaluated(kind: .previousDayActivity, weight: weight(.previousDayActivity), unit: loadUnit)
        guard let yesterday = series.load[day - 1] else {
            result.note = "no activity recorded yesterday"
            return result
        }
        result.value = Self.round(yesterday, 0)
        guard let normal = activityNormal(day: day, series: series, result: &result) else { return result }
        let ratio = yesterday / normal
        result.exact = Self.previousDayCurve(ratio)
        result.band = NormalBand(lower: nil, upper: Self.round(C.activityBand.upperBound * normal, 0))
        result.explanation =
            "yesterday's load was \(Self.text(ratio, 1))× your 28-day mean (\(Self.text(yesterday, 0)) vs \(Self.text(normal, 0)) \(loadUnit))"
        return result
    }

    func activityBalance(day: Int, series: DailySeries) -> Evaluated {
        var result = Evaluated(kind: .activityBalance, weight: weight(.activityBalance), unit: loadUnit)
        let recent = series.load.values(in: (day - C.recentDays)...(day - 1))
        if let mean = Statistics.mean(recent) { result.value = Self.round(mean, 0) }
        guard recent.count >= C.minimumRecentDays else {
            result.note = "activity on \(recent.count) of the last 7 days; needs \(C.minimumRecentDays)"
            return result
        }
        guard let normal = activityNormal(day: day, series: series, result: &result) else { return result }
        let mean = Statistics.mean(recent)!
        let ratio = mean / normal
        result.exact = Self.activityBalanceCurve(ratio)
        result.band = NormalBand(
            lower: Self.round(C.activityBand.lowerBound * normal, 0), upper: Self.round(C.activityBand.upperBound * normal, 0))
        result.explanation =
            "the last 7 days' load was \(Self.text(ratio, 2))× your 28-day mean (\(Self.text(mean, 0)) vs \(Self.text(normal, 0)) \(loadUnit))"
        return result
    }

    /// Mean daily load over the 28 days before `day`; sets the note and returns `nil` when
    /// there are too few days or no load at all.
    private func activityNormal(day: Int, series: DailySeries, result: inout Evaluated) -> Double? {
        let normalDays = series.load.values(in: (day - C.activityNormalDays)...(day - 1))
        guard normalDays.count >= C.minimumBaselineDays, let normal = Statistics.mean(normalDays), normal > 0 else {
            result.note = "activity on \(normalDays.count) of the previous 28 days; needs \(C.minimumBaselineDays) with some load"
            return nil
        }
        result.baseline = Self.round(normal, 0)
        return normal
    }

    private var loadUnit: String { configuration.activityMeasure == .steps ? "steps/day" : "kcal/day" }

    static func round(_ value: Double, _ digits: Int) -> Double {
        let scale = pow(10, Double(digits))
        return (value * scale).rounded() / scale
    }

    /// `value` with `digits` decimals, as `String(format: "%.<digits>f")` writes it:
    /// ``FixedPointText`` in Swift (the same text, without `withVaList`'s dynamic casts);
    /// what it leaves to the C library (NaN, huge numbers) goes through `vsnprintf` into a
    /// buffer on the stack, and longer texts the long way.
    static func text(_ value: Double, _ digits: Int) -> String {
        if let text = FixedPointText.format(value, digits: digits) { return text }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 48) { buffer -> String in
            let count = withVaList([Int32(clamping: digits), value]) { vsnprintf(buffer.baseAddress!, 48, "%.*f", $0) }
            guard count >= 0, count < 48 else { return String(format: "%.\(digits)f", value) }
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: Int(count)), as: UTF8.self)
        }
    }
}

extension ReadinessEngine.Evaluated {
    init(
        kind: ReadinessContributor.Kind, weight: Double, baseline: Double? = nil, band: NormalBand? = nil, unit: String
    ) {
        self.init(
            kind: kind, weight: weight, exact: nil, value: nil, baseline: baseline, band: band, unit: unit, note: nil,
            explanation: "", coverage: 1)
    }
}

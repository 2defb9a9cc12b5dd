import Foundation
import HealthMetrics

/// The daily metrics the engine reads, by day number (days since 1970-01-01), with
/// implausible values already dropped.
struct DailySeries: Sendable {
    /// ln(HRV ms).
    var logHRV: DayValues
    var restingHR: DayValues
    var sleepHours: DayValues
    /// Hours in bed of the nights recorded only as time in bed (`sleep_hours` null, basis
    /// `in_bed_only`: the iPhone's bedtime schedule), an upper bound of their sleep.
    var inBedOnlyHours: DayValues
    var load: DayValues

    init(_ figures: [DailyFigures], measure: ReadinessConfiguration.ActivityMeasure) throws {
        typealias C = ReadinessConfiguration.Constants
        let days = figures.map(\.date.dayNumber)
        let span = days.min().map { $0...days.max()! }
        (logHRV, restingHR, sleepHours) = (DayValues(span: span), DayValues(span: span), DayValues(span: span))
        (inBedOnlyHours, load) = (DayValues(span: span), DayValues(span: span))
        var seen = Set<Int>(minimumCapacity: figures.count)
        for metrics in figures {
            let day = metrics.date.dayNumber
            guard seen.insert(day).inserted else { throw ReadinessError.duplicateDate(metrics.date.description) }
            if let hrv = metrics.hrvMs, C.plausibleHRVMs.contains(hrv) { logHRV[day] = log(hrv) }
            if let bpm = metrics.restingHRBpm, C.plausibleRestingHR.contains(bpm) { restingHR[day] = bpm }
            if let hours = metrics.sleepHours, C.plausibleSleepHours.contains(hours) { sleepHours[day] = hours }
            if metrics.sleepHours == nil, let hours = metrics.inBedOnlyHours, C.plausibleSleepHours.contains(hours) {
                inBedOnlyHours[day] = hours
            }
            switch measure {
            case .activeEnergy:
                if let kcal = metrics.activeEnergyKcal, kcal >= 0 { load[day] = kcal }
            case .steps:
                if let steps = metrics.stepsNormalized, steps >= 0, !metrics.stepsSuspicious { load[day] = Double(steps) }
            }
        }
    }

    /// Whether `day` has a plausible HRV, resting HR or sleep value (time in bed counts).
    func isValid(_ day: Int) -> Bool {
        logHRV[day] != nil || restingHR[day] != nil || sleepHours[day] != nil || inBedOnlyHours[day] != nil
    }

    /// The night ending on `day`: its hours asleep, else its hours in bed when only time in
    /// bed was recorded (`inBedOnly`); `nil` without either.
    func night(_ day: Int) -> (hours: Double, inBedOnly: Bool)? {
        if let hours = sleepHours[day] { return (hours: hours, inBedOnly: false) }
        return inBedOnlyHours[day].map { (hours: $0, inBedOnly: true) }
    }

    /// `series` over `window` with every value clipped to median ± z·1.4826·MAD of the
    /// raw values in `reference` (the modified z-score screen of Iglewicz & Hoaglin).
    /// Clipping, not dropping: a wilder value never counts for less than a tamer one, so
    /// the score stays monotone in each input. Without `minimumBaselineDays` reference
    /// values there is nothing to screen against and the values pass unchanged.
    static func screened(
        _ series: DayValues, window: ClosedRange<Int>, reference: ClosedRange<Int>, madFloor: Double
    ) -> DayValues {
        var result = DayValues(span: window)
        for day in window { result[day] = series[day] }
        let raw = series.values(in: reference)
        guard raw.count >= ReadinessConfiguration.Constants.minimumBaselineDays,
            let median = Statistics.median(raw), let mad = Statistics.medianAbsoluteDeviation(raw)
        else { return result }
        let reach = ReadinessConfiguration.Constants.outlierZ * 1.4826 * max(mad, madFloor)
        let limits = (median - reach)...(median + reach)
        for day in window {
            if let value = result[day] { result[day] = min(max(value, limits.lowerBound), limits.upperBound) }
        }
        return result
    }

    /// Days since 1970-01-01 of `YYYY-MM-DD`; `nil` for anything else or an impossible date.
    static func dayNumber(_ text: String) -> Int? { LocalDate(text)?.dayNumber }
}

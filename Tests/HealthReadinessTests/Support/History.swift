import Foundation
import HealthMetrics

/// Builds daily-metrics histories for the readiness tests: day 0 is the scored day,
/// negative offsets the days before it.
struct History {
    /// The scored day.
    static let today = "2024-06-01"

    var days: [Int: NormalizedDailyMetrics] = [:]

    /// `YYYY-MM-DD` of `offset` days from ``today``.
    static func date(_ offset: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let base = calendar.date(from: DateComponents(year: 2024, month: 6, day: 1))!
        let date = calendar.date(byAdding: .day, value: offset, to: base)!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    /// The same values on every day of `offsets`.
    static func steady(
        _ offsets: ClosedRange<Int> = -60...0, hrv: Double? = exp(4), restingHR: Double? = 55, sleep: Double? = 8,
        energy: Double? = 500
    ) -> History {
        var history = History()
        for offset in offsets { history.set(offset, hrv: hrv, restingHR: restingHR, sleep: sleep, energy: energy) }
        return history
    }

    mutating func set(
        _ offset: Int, hrv: Double? = nil, restingHR: Double? = nil, sleep: Double? = nil, energy: Double? = nil,
        steps: Int? = nil
    ) {
        days[offset] = NormalizedDailyMetrics(
            localDate: Self.date(offset), timezoneIdentifier: "Europe/Amsterdam", utcDayStart: Date(timeIntervalSince1970: 0),
            utcDayEnd: Date(timeIntervalSince1970: 86400), stepsNormalized: steps, activeEnergyKcal: energy,
            sleepHours: sleep, restingHRBpm: restingHR, hrvMs: hrv, normalizationVersion: "norm_v1",
            createdAt: Date(timeIntervalSince1970: 0))
    }

    /// Changes one metric of one day, keeping the others.
    mutating func update(_ offset: Int, _ change: (inout NormalizedDailyMetrics) -> Void) {
        var day =
            days[offset]
            ?? NormalizedDailyMetrics(
                localDate: Self.date(offset), timezoneIdentifier: "Europe/Amsterdam",
                utcDayStart: Date(timeIntervalSince1970: 0), utcDayEnd: Date(timeIntervalSince1970: 86400),
                normalizationVersion: "norm_v1", createdAt: Date(timeIntervalSince1970: 0))
        change(&day)
        days[offset] = day
    }

    var metrics: [NormalizedDailyMetrics] { days.keys.sorted().map { days[$0]! } }
}

/// A failing property prints its input: one compact line per day with data,
/// `offset: HRV ms, resting HR, sleep h, kcal` (— for none).
extension History: CustomStringConvertible {
    var description: String {
        func text(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "—" }
        return days.keys.sorted().map { offset in
            let day = days[offset]!
            return "\(offset): \(text(day.hrvMs)) \(text(day.restingHRBpm)) \(text(day.sleepHours)) \(text(day.activeEnergyKcal))"
        }.joined(separator: "; ")
    }
}

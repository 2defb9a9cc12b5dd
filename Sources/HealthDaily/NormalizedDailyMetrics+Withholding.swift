import HealthCore
import HealthMetrics

extension NormalizedDailyMetrics {
    /// The categories a day's fields come from: steps (normalised, raw, sources), active
    /// energy, sleep hours and their source, resting HR and HRV — and so what a readiness
    /// score is computed from, as readiness reads nothing but daily metrics.
    public static let categories: Set<HealthDataCategory> = [.steps, .energy, .sleep, .heart]

    /// `true` when any figure of the day has a value (an in-bed-only night's hours count).
    public var hasFigures: Bool {
        stepsNormalized != nil || stepsRawSum != nil || activeEnergyKcal != nil || sleepHours != nil
            || sleepSource != nil || restingHRBpm != nil || hrvMs != nil
    }

    /// The day with the fields of `withheld` categories cleared (`null`), for a reader who
    /// may not see them.
    public func withholding(_ withheld: Set<HealthDataCategory>) -> NormalizedDailyMetrics {
        guard !withheld.isDisjoint(with: Self.categories) else { return self }
        var day = self
        if withheld.contains(.steps) {
            day.stepsNormalized = nil
            day.stepsRawSum = nil
            day.stepsSources = nil
        }
        if withheld.contains(.energy) { day.activeEnergyKcal = nil }
        if withheld.contains(.sleep) {
            day.sleepHours = nil
            day.sleepSource = nil
        }
        if withheld.contains(.heart) {
            day.restingHRBpm = nil
            day.hrvMs = nil
        }
        return day
    }
}

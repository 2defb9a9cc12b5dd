import Foundation
import HealthCore
import HealthDaily

/// Steps, active energy, exercise minutes and stand hours from the start of today up to the
/// snapshot instant. Steps, energy and exercise minutes use the daily metrics' dedup rules
/// (``CumulativeRule``: Apple Watch and iPhone never counted twice); stand hours count the
/// distinct hours with a "stood" sample, whichever device wrote it.
///
/// Each figure is of its own kind (steps; energy; exercise and stand: activity): a kind in
/// `withheld` is not read, its figure is empty with "not permitted" as the reason, and the
/// others are given (a token for steps sees today's steps without energy).
public struct ActivityTodayProvider: ContextProvider {
    public let store: any HealthQuerying
    public let version: NormalizationVersion
    public let withheld: Set<HealthDataCategory>

    public init(store: any HealthQuerying, version: NormalizationVersion = .v1, withheld: Set<HealthDataCategory> = []) {
        self.store = store
        self.version = version
        self.withheld = withheld
    }

    public var name: String { "activity" }
    public var fields: [ContextField] {
        [.activeEnergyBurnedTodayKcal, .stepCountToday, .exerciseMinutesToday, .standHoursToday]
    }

    public func provide(for request: ContextRequest) async throws -> ContextContribution {
        let interval = request.todaySoFar
        async let steps = total(.stepCount, unit: "count", over: interval)
        async let energy = total(.activeEnergyBurned, unit: "kcal", over: interval)
        async let exercise = total(.appleExerciseTime, unit: "min", over: interval)
        async let stand = readable(.appleStandHour) ? store.samples(of: .appleStandHour, overlapping: interval) : nil
        var result = ContextContribution()
        result.values.stepCountToday = result.note(
            try await steps.flatMap { Int(roundingSaturating: $0) }, .stepCountToday,
            otherwise: reason(.stepCount, "no step samples today so far"))
        result.values.activeEnergyBurnedTodayKcal = result.note(
            try await energy.map { Rounding.places($0, 2) }, .activeEnergyBurnedTodayKcal,
            otherwise: reason(.activeEnergyBurned, "no active energy samples today so far"))
        result.values.exerciseMinutesToday = result.note(
            try await exercise.flatMap { Int(roundingSaturating: $0) }, .exerciseMinutesToday,
            otherwise: reason(.appleExerciseTime, "no exercise time samples today so far"))
        result.values.standHoursToday = result.note(
            try await stand.flatMap { Self.standHours($0, in: interval) }, .standHoursToday,
            otherwise: reason(.appleStandHour, "no stand hour samples today so far"))
        return result
    }

    private func readable(_ type: SampleType) -> Bool { !withheld.contains(HealthDataCategory(type)) }

    /// Why a figure of `type` is empty: its kind withheld, or `otherwise`.
    private func reason(_ type: SampleType, _ otherwise: String) -> String {
        readable(type) ? otherwise : WithheldProvider.reason([HealthDataCategory(type)])
    }

    /// The day's total of `type` so far; `nil` (unread) when its kind is withheld.
    private func total(_ type: SampleType, unit: String, over interval: DateInterval) async throws -> Double? {
        guard readable(type) else { return nil }
        let samples = try await store.samples(of: type, overlapping: interval)
        return CumulativeRule.evaluate(samples, day: interval, unit: try HealthUnit(parsing: unit), version: version).value
    }

    /// Distinct hours (by start) with a "stood" sample starting in `interval`; 0 when the
    /// only samples say "idle"; `nil` without any.
    static func standHours(_ samples: [Sample], in interval: DateInterval) -> Int? {
        let inside = samples.filter { $0.start >= interval.start && $0.start < interval.end }
        guard !inside.isEmpty else { return nil }
        let stood = inside.filter {
            guard case .category(let value) = $0.value else { return false }
            return value == "HKCategoryValueAppleStandHourStood" || value == "0"
        }
        let hours = stood.compactMap { sample in
            Int(truncatingSaturating: (sample.start.timeIntervalSince1970 / 3600).rounded(.down))
        }
        return Set(hours).count
    }
}

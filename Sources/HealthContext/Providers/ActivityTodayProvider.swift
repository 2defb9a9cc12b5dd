import Foundation
import HealthCore
import HealthDaily

/// Steps, active energy, exercise minutes and stand hours from the start of today up to the
/// snapshot instant. Steps, energy and exercise minutes use the daily metrics' dedup rules
/// (``CumulativeRule``: Apple Watch and iPhone never counted twice); stand hours count the
/// distinct hours with a "stood" sample, whichever device wrote it.
public struct ActivityTodayProvider: ContextProvider {
    public let store: any HealthQuerying
    public let version: NormalizationVersion

    public init(store: any HealthQuerying, version: NormalizationVersion = .v1) {
        self.store = store
        self.version = version
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
        async let stand = store.samples(of: .appleStandHour, overlapping: interval)
        var result = ContextContribution()
        result.values.stepCountToday = result.note(
            try await steps.flatMap { Int(roundingSaturating: $0) }, .stepCountToday,
            otherwise: "no step samples today so far")
        result.values.activeEnergyBurnedTodayKcal = result.note(
            try await energy.map { Rounding.places($0, 2) }, .activeEnergyBurnedTodayKcal,
            otherwise: "no active energy samples today so far")
        result.values.exerciseMinutesToday = result.note(
            try await exercise.flatMap { Int(roundingSaturating: $0) }, .exerciseMinutesToday,
            otherwise: "no exercise time samples today so far")
        result.values.standHoursToday = result.note(
            Self.standHours(try await stand, in: interval), .standHoursToday, otherwise: "no stand hour samples today so far")
        return result
    }

    private func total(_ type: SampleType, unit: String, over interval: DateInterval) async throws -> Double? {
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

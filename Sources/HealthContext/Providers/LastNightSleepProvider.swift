import Foundation
import HealthCore
import HealthDaily

/// Last night: the most recent main sleep (``SleepAnalyzer``: one source per night, no
/// overlapping samples added) that ended by the snapshot instant and within the 24 hours
/// before it. Duration is time asleep, in hours (two decimals); efficiency is asleep / in
/// bed × 100 (one decimal). A night recorded only as time in bed (the iPhone's bedtime
/// schedule) gives bedtime and wake time, and neither figure: time asleep is unknown.
public struct LastNightSleepProvider: ContextProvider {
    public let store: any HealthQuerying
    public let configuration: DailyNormalizer.Configuration

    public init(store: any HealthQuerying, configuration: DailyNormalizer.Configuration) {
        self.store = store
        self.configuration = configuration
    }

    public var name: String { "sleep" }
    public var fields: [ContextField] {
        [.lastNightSleepDurationHours, .lastNightSleepEfficiencyPercentage, .lastNightBedtime, .lastNightWaketime]
    }

    public func provide(for request: ContextRequest) async throws -> ContextContribution {
        var daily = configuration
        if daily.explicitZone == nil { daily.homeZone = request.day.zone }
        let analyzer = SleepAnalyzer(store: store, configuration: daily)
        let nights = try await analyzer.nights(from: request.day.date.adding(days: -1), through: request.day.date)
        let earliest = request.instant.addingTimeInterval(-86400)
        let main = nights.compactMap(\.main)
            .filter { $0.waketime <= request.instant && $0.waketime > earliest }
            .max { $0.waketime < $1.waketime }
        var result = ContextContribution()
        guard let main else {
            let reason = "no main sleep (≥ 3 h asleep, or ≥ 3 h in bed) ended in the 24 hours before the snapshot"
            for field in fields { result.reasons[field] = reason }
            return result
        }
        result.values.lastNightSleepDurationHours = result.note(
            main.asleepSeconds.map { Rounding.places($0 / 3600, 2) }, .lastNightSleepDurationHours,
            otherwise: "only time in bed was recorded (the iPhone's bedtime schedule): time asleep is unknown")
        result.values.lastNightSleepEfficiencyPercentage = result.note(
            main.efficiency.map { Rounding.places($0, 1) }, .lastNightSleepEfficiencyPercentage,
            otherwise: main.asleepSeconds == nil
                ? "time asleep is unknown (only time in bed was recorded)" : "no time in bed recorded")
        result.values.lastNightBedtime = main.bedtime
        result.values.lastNightWaketime = main.waketime
        return result
    }
}

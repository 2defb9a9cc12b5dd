import Foundation
import HealthCore
import HealthDaily
import HealthImport
import HealthMetrics
import HealthReadiness
import HealthSQLite
import HealthSynth
import HealthTestSupport
import Testing

/// A generated export with strain episodes (a hard day, then a short night, an HRV dip and
/// a raised resting HR): readiness, computed from the same daily metrics as `days`, drops
/// the morning after each load day and recovers within two days.
@Suite struct StrainTests {
    static func scores() async throws -> ([ReadinessScore], GroundTruth) {
        var configuration = SyntheticExport.Configuration(days: 100, seed: 1)
        configuration.startDate = "2024-01-01"
        configuration.heartRatePerHour = 2
        return try await GeneratedStores.withImported(configuration) { database, truth in
            var settings = DailyNormalizer.Configuration()
            settings.homeZone = TimeZone(identifier: "America/Los_Angeles")!
            let metrics = try await DailyNormalizer(store: database.store, configuration: settings, now: { Date() })
                .metrics(from: LocalDate(truth.days[0].date)!, through: LocalDate(truth.days[99].date)!)
            return (try ReadinessEngine().scores(on: truth.days.map(\.date), history: metrics), truth)
        }
    }

    @Test func theScoreDropsAfterEachLoadDayAndRecovers() async throws {
        let (scores, truth) = try await Self.scores()
        let loadDays = truth.days.indices.filter { truth.days[$0].strain?.contains("high_load") == true }
        #expect(loadDays.map { truth.days[$0].date } == ["2024-01-13", "2024-02-05", "2024-02-28", "2024-03-22"])
        #expect(truth.days[loadDays[1] + 1].strain == ["short_sleep", "hrv_dip", "resting_hr_rise"])
        #expect(truth.days[loadDays[1] + 2].strain == ["hrv_dip", "resting_hr_rise"])
        // The day before, the load day, the morning after, and two more days: pinned, and
        // shaped as promised (from the second episode on, once the baselines are mature).
        let around = loadDays.map { load in ((load - 1)...(load + 3)).map { scores[$0].score ?? -1 } }
        #expect(around == [[92, 87, 65, 83, 84], [94, 91, 72, 79, 86], [85, 81, 63, 79, 88], [87, 84, 69, 79, 87]])
        for series in around.dropFirst() {
            #expect(series[2] <= series[0] - 10, "the morning after drops: \(series)")
            #expect(series[2] < 75)
            #expect(series[4] >= series[2] + 10, "and recovers: \(series)")
        }
        for load in loadDays.dropFirst() {
            let reason = scores[load + 1].reason
            #expect(reason.hasPrefix("Last night's sleep") || reason.hasPrefix("Resting HR"), "\(reason)")
        }
        #expect(scores.filter(\.calibrating).count == 13)
    }
}

import Foundation
import HealthCore
import HealthDaily
import HealthImport
import HealthMetrics
import HealthSQLite
import HealthSynth
import HealthTestSupport
import Testing

/// Issue 33 §3 on the synthetic person without an Apple Watch (`synth --persona no-watch`):
/// 30 days across the spring DST change and the Paris trip, imported, against the ground
/// truth — steps within 3 % of the observable truth, nights of only time in bed reported as
/// main nights with the schedule's bedtime and wake time, tracker nights asleep within
/// 10 minutes, no 0-minute nap.
@Suite struct I33NoWatchPersonaTests {
    static func reports() async throws -> (AccuracyReport, SleepAccuracy, GroundTruth) {
        var configuration = SyntheticExport.Configuration(days: 30, seed: 7)
        configuration.startDate = "2024-03-01"
        configuration.heartRatePerHour = 2
        configuration.persona = .noWatch
        return try await GeneratedStores.withImported(configuration) { database, truth in
            var settings = DailyNormalizer.Configuration()
            settings.homeZone = TimeZone(identifier: "America/Los_Angeles")!
            settings.version = .v2
            let (first, last) = (LocalDate(truth.days[0].date)!, LocalDate(truth.days[29].date)!)
            let metrics = try await DailyNormalizer(store: database.store, configuration: settings, now: { Date() })
                .metrics(from: first, through: last)
            let nights = try await SleepAnalyzer(store: database.store, configuration: settings).nights(
                from: first, through: last)
            return (AccuracyReport(truth: truth, metrics: metrics), SleepAccuracy(truth: truth, nights: nights), truth)
        }
    }

    @Test func i33_sleep_noWatchPersonaMatchesItsGroundTruth() async throws {
        let (report, sleep, truth) = try await Self.reports()
        // The person: no Watch step, every night says what it should be reported from.
        #expect(truth.persona == "no-watch")
        #expect(truth.days.allSatisfy { $0.watchSteps == 0 && $0.observableSteps != nil })
        let bases = truth.days.compactMap(\.sleepBasis)
        #expect(Set(bases) == ["tracker_stages", "asleep_unspecified", "in_bed_only"])
        #expect(bases.filter { $0 == "in_bed_only" }.count >= 4)  // one night in seven
        #expect(Set(truth.days.map(\.timeZone)) == ["America/Los_Angeles", "Europe/Paris"])
        // Steps: within 3 % of what the devices could see on at least 95 % of days.
        #expect(report.days.count == 30)
        #expect(report.stepsWithinObservable(3) >= 95)
        #expect(report.zoneMismatches.isEmpty)
        // The days payload: the truth's basis every night; asleep within 10 min where a source
        // measured it; unknown, with the schedule's time in bed, where only the iPhone did.
        #expect(report.sleepBasisMismatches.isEmpty)
        #expect(
            report.days.filter { $0.truthSleepBasis?.measuresSleep == true }.allSatisfy {
                ($0.sleepErrorMinutes ?? .infinity) <= 10
            })
        #expect(report.days.filter { $0.truthSleepBasis == .inBedOnly }.allSatisfy { $0.sleepMinutes == nil })
        #expect(report.worstInBedMinutes <= 5)
        // Sessions: every night a main night from the right basis; bed and wake within 5 min.
        #expect(sleep.nights.count == 30)
        #expect(sleep.basisMismatches == 0)
        #expect(sleep.nightsWhereMainIsNotTheNight == 0)
        #expect(sleep.inBedOnlyNightsAsMain == sleep.inBedOnlyNights.count)
        #expect(sleep.inBedOnlyNights.allSatisfy { ($0.bedtimeError ?? .infinity) <= 5 && ($0.waketimeError ?? .infinity) <= 5 })
        #expect(sleep.worstAsleep <= 10)
        #expect(sleep.zeroMinuteNaps == 0)
        #expect(sleep.worstNaps <= 1)
    }
}

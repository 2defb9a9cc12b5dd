import Foundation
import HealthCore
import HealthDaily
import HealthImport
import HealthSQLite
import HealthSynth
import HealthTestSupport
import Testing

/// Daily metrics of a generated export against its ground truth: 120 days across the
/// spring DST change and the Paris trip, with Watch + iPhone double counting.
@Suite struct GroundTruthTests {
    static func report(version: NormalizationVersion) async throws -> (AccuracyReport, GroundTruth) {
        let (report, truth, _) = try await reports(version: version)
        return (report, truth)
    }

    static func reports(version: NormalizationVersion) async throws -> (AccuracyReport, GroundTruth, SleepAccuracy) {
        var configuration = SyntheticExport.Configuration(days: 120, seed: 7)
        configuration.startDate = "2024-02-01"
        configuration.heartRatePerHour = 2
        return try await GeneratedStores.withImported(configuration) { database, truth in
            var settings = DailyNormalizer.Configuration()
            settings.homeZone = TimeZone(identifier: "America/Los_Angeles")!
            settings.version = version
            let metrics = try await DailyNormalizer(store: database.store, configuration: settings, now: { Date() })
                .metrics(from: LocalDate(truth.days[0].date)!, through: LocalDate(truth.days[119].date)!)
            let nights = try await SleepAnalyzer(store: database.store, configuration: settings)
                .nights(from: LocalDate(truth.days[0].date)!, through: LocalDate(truth.days[119].date)!)
            return (AccuracyReport(truth: truth, metrics: metrics), truth, SleepAccuracy(truth: truth, nights: nights))
        }
    }

    @Test func normV2StepsSleepAndZonesMatchTheTruth() async throws {
        let (report, truth, sleep) = try await Self.reports(version: .v2)
        // Sleep sessions: asleep within 10 min, bedtime and wake time within 5, naps never the main sleep.
        #expect(sleep.nights.count == 120)
        #expect(sleep.worstAsleep <= 10)
        #expect(sleep.worstBedtime <= 5 && sleep.worstWaketime <= 5)
        #expect(sleep.worstNaps <= 1)
        #expect(sleep.nightsWhereMainIsNotTheNight == 0)
        #expect(report.days.count == 120)
        #expect(report.stepsWithin(3) >= 95)
        #expect(report.rawMeanErrorPercent > 30)  // the naive sum double counts
        #expect(report.days.allSatisfy { ($0.sleepErrorMinutes ?? .infinity) <= 10 })
        #expect(report.zoneMismatches.isEmpty)
        #expect(Set(truth.days.map(\.timeZone)) == ["America/Los_Angeles", "Europe/Paris"])
    }

    @Test func normV1LosesThePhoneStepsThatTouchWatchCoverage() async throws {
        let (v1, _) = try await Self.report(version: .v1)
        let (v2, _) = try await Self.report(version: .v2)
        // v1 never counts more than the truth here, and loses more than v2 by design.
        #expect(v1.days.allSatisfy { ($0.steps ?? 0) <= $0.truthSteps })
        #expect(v1.stepsLostPercent > v2.stepsLostPercent)
        #expect(v1.days.allSatisfy { ($0.sleepErrorMinutes ?? .infinity) <= 10 })
        #expect(v1.zoneMismatches.isEmpty)
    }
}

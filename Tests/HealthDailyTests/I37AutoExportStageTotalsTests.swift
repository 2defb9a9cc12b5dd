import Foundation
import HealthAutoExport
import HealthCore
import Testing

@testable import HealthDaily

/// Health Auto Export 6.6.2+ gives a night as totals — core, deep, REM and awake hours —
/// without saying when each stage was. They were kept as metadata only, so the night showed
/// deep, REM and core as unknown (—) although the app had sent them. They are now the
/// night's stage minutes; its timeline stays one asleep stretch and its wakings unknown.
@Suite struct I37AutoExportStageTotalsTests {
    @Test func theTotalsAreTheNightsStages() async throws {
        let data = try Data(
            contentsOf: I33SleepSourceTests.fixtures.appendingPathComponent(
                "health-auto-export/irvinlim__unmarshal_aggregated_sleep_analysis_2.json"))
        let samples = try HAEReader.read(data).records.compactMap { if case .sample(let sample) = $0 { sample } else { nil } }
        let (night, _) = try await I33SleepSourceTests.night(samples, "2023-01-31", home: I33SleepSourceTests.singapore)
        let main = try #require(night.main)
        // "core": 3.2999999999999994, "deep": 0.8583333333333334, "rem": 1.2583333333333333,
        // "awake": 0.11666666666666667 (hours)
        #expect(main.basis == .trackerStages)
        #expect(main.stageMinutes(.core).map { abs($0 - 198) < 1e-9 } == true)
        #expect(main.stageMinutes(.deep).map { abs($0 - 51.5) < 1e-9 } == true)
        #expect(main.stageMinutes(.rem).map { abs($0 - 75.5) < 1e-9 } == true)
        #expect(main.stageMinutes(.awake).map { abs($0 - 7) < 1e-9 } == true)
        // Exactly none: the hours' rounding left 7.3e-12 hours (a probe of 2026-11-28).
        #expect(main.stageMinutes(.unspecified) == 0)
        #expect(main.awakenings == nil)
        // The time asleep is the stages' sum, as before.
        #expect(main.asleepSeconds.map { abs($0 - (198 + 51.5 + 75.5) * 60) < 1e-6 } == true)
    }

    /// Totals that add up to more than the night's asleep time are scaled down to it; a
    /// number outside 0–24 hours is no total.
    @Test func totalsAreReadWithCare() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        func asleep(_ metadata: [(String, String)]) -> Sample {
            Sample(
                type: .sleepAnalysis, start: start, end: start + 3_600,
                value: .category("HKCategoryValueSleepAnalysisAsleepUnspecified"), source: Source(name: "Auto Export"),
                metadata: metadata.map { MetadataEntry(key: $0.0, value: $0.1) })
        }
        let over = SleepSessionBuilder.sessions([asleep([("HAESleepDeepHours", "2"), ("HAESleepRemHours", "1e300")])])[0]
        #expect(over.basis == .trackerStages && over.stageMinutes(.deep) == 60 && over.stageMinutes(.rem) == 0)
        #expect(over.stageMinutes(.unspecified) == 0)
        let none = SleepSessionBuilder.sessions([asleep([("HAESleepDeepHours", "-1")])])[0]
        #expect(none.basis == .asleepUnspecified && none.stageMinutes(.deep) == nil && none.awakenings == 0)
    }

    static func asleep(
        _ source: String, from start: Date, hours: Double, _ metadata: [(String, String)] = [], endLater: Double = 0
    ) -> Sample {
        Sample(
            type: .sleepAnalysis, start: start, end: start + hours * 3_600 + endLater,
            value: .category("HKCategoryValueSleepAnalysisAsleepUnspecified"), source: Source(name: source),
            metadata: metadata.map { MetadataEntry(key: $0.0, value: $0.1) })
    }

    /// Found reviewing: a night sent again with other totals is a second sample over it; the
    /// totals were added up (awake twice). One sample's totals count: the longest, the
    /// latest ending of equals.
    @Test func aNightSentTwiceCountsItsTotalsOnce() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let first = Self.asleep(
            "Auto Export", from: start, hours: 6, [("HAESleepDeepHours", "1"), ("HAESleepAwakeHours", "0.5")])
        let again = Self.asleep(
            "Auto Export", from: start, hours: 6, [("HAESleepDeepHours", "1.5"), ("HAESleepAwakeHours", "0.25")], endLater: 60)
        let session = SleepSessionBuilder.sessions([first, again])[0]
        #expect(session.stageMinutes(.deep) == 90 && session.stageMinutes(.awake) == 15)
    }

    /// Found reviewing: `healthpipe sleep` ranked a night with stage totals as stages (tier 2)
    /// while the days' `sleep_hours` (SleepRule) ranked it asleep without stages (tier 3), so
    /// the two could take different sources for one night. Both rank it as stages.
    @Test func theDaysAndTheSleepViewTakeTheSameSource() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let totals = Self.asleep("Auto Export", from: start, hours: 6, [("HAESleepDeepHours", "1"), ("HAESleepCoreHours", "4")])
        let plain = Self.asleep("Sleep App", from: start - 1_800, hours: 7)
        let window = DateInterval(start: start - 6 * 3_600, end: start + 18 * 3_600)
        let night = SleepRule.night([plain, totals], window: window)
        #expect(night?.source == "Auto Export" && night?.basis == .trackerStages && night?.asleepSeconds == 6 * 3_600)
    }
}

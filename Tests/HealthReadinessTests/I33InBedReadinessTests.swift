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

/// Issue 33 §3: a night recorded only as time in bed (`sleep_hours` null, `sleep_source_json`
/// basis `in_bed_only`) is scored on its hours in bed — an upper bound of sleep, so never a
/// penalty the night may not have earned — counts half in the confidence, and says so
/// (docs/readiness.md, "Nights of only time in bed").
@Suite struct I33InBedReadinessTests {
    let engine = try! ReadinessEngine()

    static let note =
        "asleep unknown: only time in bed was recorded (the iPhone's bedtime schedule), scored as an upper bound of sleep"

    /// `offset`'s night as time in bed only.
    static func inBed(_ history: inout History, _ offset: Int, hours: Double) {
        history.update(offset) {
            $0.sleepHours = nil
            $0.sleepSource = SleepSourceMetadata(basis: .inBedOnly, inBedHours: hours)
        }
    }

    @Test func i33_sleep_aNightOfOnlyTimeInBedIsScoredOnItsHoursInBed() throws {
        var history = History.steady()
        Self.inBed(&history, 0, hours: 6.5)
        let score = try engine.score(on: History.today, history: history.metrics)
        // Sleep: 1.5 h short → 85 − 20 × 0.5 = 75.
        #expect(score[.sleep]?.subscore == 75)
        #expect(score[.sleep]?.value == 6.5)
        #expect(score[.sleep]?.note == Self.note)
        // Balance: (13 × 8 + 6.5) / 14 = 7.892857 h, 0.107143 short → 100 − 30 × 0.107143 = 96.785714.
        #expect(score[.sleepBalance]?.subscore == 96.8)
        #expect(
            score[.sleepBalance]?.note == "1 of the 14 nights are time in bed (asleep unknown), an upper bound of sleep")
        // 0.3 × 90 + 0.2 × 100 + 0.2 × 75 + 0.1 × 96.785714 + 0.1 × 100 + 0.1 × 100 = 91.678571.
        #expect(score.score == 92)
        // Coverage 0.3 + 0.2 + 0.2 × 0.5 + 0.1 × (1 − 0.5 / 14) + 0.1 + 0.1 = 0.896429.
        #expect(score.confidence == 0.9)
        // Costs: sleep 5, HRV 3: the reason is the night, and says what it was.
        #expect(
            score.reason == "Last night's sleep cost 5 points: 6.5 h in bed last night (asleep unknown) against a need of 8.0 h.")
        // The same night measured (6.5 h asleep) scores the same, at full confidence.
        var measured = History.steady()
        measured.update(0) { $0.sleepHours = 6.5 }
        let full = try engine.score(on: History.today, history: measured.metrics)
        #expect(full.score == 92 && full.confidence == 1 && full[.sleep]?.note == nil)
    }

    @Test func i33_sleep_theReasonSaysWhenLastNightWasTimeInBed() throws {
        var history = History.steady()
        Self.inBed(&history, 0, hours: 8.5)
        let score = try engine.score(on: History.today, history: history.metrics)
        #expect(score[.sleep]?.subscore == 100)
        #expect(score[.sleepBalance]?.subscore == 100)
        #expect(score.score == 97)
        #expect(
            score.reason
                == "HRV balance cost 3 points: 7-day HRV 55 ms, within your normal 53–56 ms. Last night's sleep is time in bed: asleep unknown."
        )
    }

    /// A person whose nights are all time in bed, nothing else: the nights are valid days
    /// (the score calibrates), and the two sleep contributors carry it.
    @Test func i33_sleep_nightsOfOnlyTimeInBedAreValidDays() throws {
        var history = History()
        for offset in -19...0 { Self.inBed(&history, offset, hours: 6.5) }
        let score = try engine.score(on: History.today, history: history.metrics)
        #expect(score.validDays == 20)
        #expect(!score.calibrating)
        // Sleep 75; balance 6.5 h, 1.5 short → 70 − 30 × 0.5 = 55; (0.2 × 75 + 0.1 × 55) / 0.3 = 68.333.
        #expect(score[.sleep]?.subscore == 75 && score[.sleepBalance]?.subscore == 55)
        #expect(score.score == 68)
        // Coverage (0.2 × 0.5 + 0.1 × 0.5) / 1 = 0.15, maturity 20 / 28: 0.107143.
        #expect(score.confidence == 0.11)
        #expect(
            score.reason
                == "Last night's sleep cost 17 points: 6.5 h in bed last night (asleep unknown) against a need of 8.0 h.")
    }

    /// The no-watch persona (`synth --persona no-watch`), 45 days imported: every morning
    /// after calibration has a score; on the mornings after a night of only the iPhone's
    /// schedule the sleep contributor is scored on time in bed and says so; on the others it
    /// is the ring's or the mat's sleep.
    @Test func i33_sleep_noWatchPersonaGetsAReadinessEveryMorning() async throws {
        var configuration = SyntheticExport.Configuration(days: 45, seed: 1)
        configuration.startDate = "2024-01-01"
        configuration.heartRatePerHour = 2
        configuration.persona = .noWatch
        let (metrics, truth) = try await GeneratedStores.withImported(configuration) { database, truth in
            var settings = DailyNormalizer.Configuration()
            settings.homeZone = TimeZone(identifier: "America/Los_Angeles")!
            settings.version = .v2
            let metrics = try await DailyNormalizer(store: database.store, configuration: settings, now: { Date() })
                .metrics(from: LocalDate(truth.days[0].date)!, through: LocalDate(truth.days[44].date)!)
            return (metrics, truth)
        }
        let scores = try ReadinessEngine().scores(on: truth.days.map(\.date), history: metrics)
        let inBedOnly = truth.days.indices.filter { truth.days[$0].sleepBasis == "in_bed_only" }
        #expect(inBedOnly.count >= 6)
        for index in 14..<45 {
            #expect(scores[index].score != nil, "\(truth.days[index].date)")
            #expect(scores[index][.sleep]?.subscore != nil, "\(truth.days[index].date)")
            #expect((scores[index][.sleep]?.note == Self.note) == inBedOnly.contains(index), "\(truth.days[index].date)")
        }
        // The ring's resting HR and HRV feed their contributors once their baselines exist (the
        // resting HR on the mornings the ring was on).
        let ringMorning = try #require((14..<45).last { !inBedOnly.contains($0) })
        #expect(scores[ringMorning][.hrvBalance]?.subscore != nil)
        #expect(scores[ringMorning][.restingHeartRate]?.subscore != nil)
    }
}

import Foundation
import HealthReadiness
import Testing

/// Exact scores of small series worked out by hand (the arithmetic is in the comments;
/// curves and constants are those of docs/readiness.md).
@Suite struct HandComputedTests {
    let engine = try! ReadinessEngine()

    /// 61 identical days: HRV at its baseline scores 90 (the middle of the band), the rest 100.
    @Test func aSteadyPersonScores97() throws {
        let score = try engine.score(on: History.today, history: History.steady().metrics)
        // HRV: z = 0 → 80 + 20 × 0.5 = 90; total 0.3 × 90 + 0.7 × 100 = 97.
        #expect(score.score == 97)
        #expect(score.band == .optimal)
        #expect(!score.calibrating)
        #expect(score.validDays == 60)
        #expect(score.confidence == 1)
        #expect(score[.hrvBalance]?.subscore == 90)
        #expect(score[.hrvBalance]?.value == 54.6)  // e^4 ms
        // SD 0 is floored to 0.05: the band is e^(4 ± 0.025).
        #expect(score[.hrvBalance]?.band == NormalBand(lower: 53.3, upper: 56.0))
        #expect(score[.restingHeartRate]?.subscore == 100)
        #expect(score[.restingHeartRate]?.band == NormalBand(lower: 52, upper: 58))
        #expect(score.contributors.map(\.kind) == ReadinessContributor.Kind.allCases)
        #expect(score.reason == "HRV balance cost 3 points: 7-day HRV 55 ms, within your normal 53–56 ms.")
    }

    /// The morning after a hard day: ln HRV 3.8, resting HR +6, 5.5 h asleep, 1200 kcal yesterday.
    static func morningAfter(hrv: Bool = true) -> History {
        var history = History.steady(hrv: hrv ? exp(4) : nil)
        history.set(0, hrv: hrv ? exp(3.8) : nil, restingHR: 61, sleep: 5.5, energy: 500)
        history.update(-1) { $0.activeEnergyKcal = 1200 }
        return history
    }

    @Test func theMorningAfterAHardDay() throws {
        let score = try engine.score(on: History.today, history: Self.morningAfter().metrics)
        // HRV: 7-day mean (6 × 4 + 3.8) / 7 = 3.971429, μ = 4, σ = 0.05 (floor), z = −0.571429
        //      → 80 + 40 × (−0.071429) = 77.142857.
        #expect(score[.hrvBalance]?.subscore == 77.1)
        // Resting HR: +6 bpm → 60 − 7 × 1 = 53.
        #expect(score[.restingHeartRate]?.subscore == 53)
        // Sleep: 2.5 h short → 85 − 20 × 1.5 = 55.
        #expect(score[.sleep]?.subscore == 55)
        // Balance: (13 × 8 + 5.5) / 14 = 7.821429 h, 0.178571 short → 100 − 30 × 0.178571 = 94.642857.
        #expect(score[.sleepBalance]?.subscore == 94.6)
        // Previous day: normal (27 × 500 + 1200) / 28 = 525, ratio 2.285714 → 60 − 40 × 0.285714 = 48.571429.
        #expect(score[.previousDayActivity]?.subscore == 48.6)
        #expect(score[.previousDayActivity]?.baseline == 525)
        // Activity balance: (6 × 500 + 1200) / 7 = 600, ratio 1.142857 → 100.
        #expect(score[.activityBalance]?.subscore == 100)
        #expect(score[.activityBalance]?.value == 600)
        // 0.3 × 77.142857 + 0.2 × 53 + 0.2 × 55 + 0.1 × 94.642857 + 0.1 × 48.571429 + 0.1 × 100 = 69.064286.
        #expect(score.score == 69)
        #expect(score.band == .fair)
        // Costs: HRV 6.9, resting HR 9.4, sleep 9.0, previous day 5.1: resting HR moved it most.
        #expect(score.reason == "Resting HR cost 9 points: 61 bpm today, 6.0 bpm above your 60-day mean of 55.0.")
    }

    @Test func withoutHRVTheOtherWeightsAreRenormalised() throws {
        let score = try engine.score(on: History.today, history: Self.morningAfter(hrv: false).metrics)
        #expect(score[.hrvBalance]?.subscore == nil)
        #expect(score[.hrvBalance]?.note == "HRV on 0 of the last 7 days; needs 3")
        // (0.2 × 53 + 0.2 × 55 + 0.1 × 94.642857 + 0.1 × 48.571429 + 0.1 × 100) / 0.7 = 65.602041.
        #expect(score.score == 66)
        #expect(score.band == .fair)
        // Coverage 0.7 of the weight, mature baseline.
        #expect(score.confidence == 0.7)
        #expect(!score.calibrating)
    }

    @Test func aShortSleepNeedMakesTheSameNightEnough() throws {
        var configuration = ReadinessConfiguration()
        configuration.sleepNeedHours = 5.5
        let score = try ReadinessEngine(configuration: configuration)
            .score(on: History.today, history: Self.morningAfter().metrics)
        // 5.5 h against 5.5 h: 100; the balance counts each 8 h night as 5.5 h: 100.
        #expect(score[.sleep]?.subscore == 100)
        #expect(score[.sleepBalance]?.subscore == 100)
        // 0.3 × 77.142857 + 0.2 × 53 + 0.2 × 100 + 0.1 × 100 + 0.1 × 48.571429 + 0.1 × 100 = 78.6.
        #expect(score.score == 79)
    }

    @Test func stepsCanMeasureTheLoadAndSuspiciousDaysAreLeftOut() throws {
        var history = History.steady(energy: nil)
        for offset in -60...0 { history.update(offset) { $0.stepsNormalized = 8000 } }
        history.update(-1) {
            $0.stepsNormalized = 24000
            $0.stepsSources = .init(
                primarySource: "apple_watch", secondarySourcesUsed: [], ignoredSources: [], suspiciousSteps: false,
                rawSampleCount: 10)
        }
        var configuration = ReadinessConfiguration()
        configuration.activityMeasure = .steps
        let engine = try ReadinessEngine(configuration: configuration)
        var score = try engine.score(on: History.today, history: history.metrics)
        // Normal (27 × 8000 + 24000) / 28 = 8571.43, ratio 2.8 → 60 − 40 × 0.8 = 28.
        #expect(score[.previousDayActivity]?.subscore == 28)
        #expect(score[.previousDayActivity]?.unit == "steps/day")
        history.update(-1) { $0.stepsSources?.suspiciousSteps = true }
        score = try engine.score(on: History.today, history: history.metrics)
        #expect(score[.previousDayActivity]?.subscore == nil)
        #expect(score[.previousDayActivity]?.note == "no activity recorded yesterday")
    }

    @Test func badInputIsNamed() throws {
        var history = History.steady(-3...0)
        history.days[-9] = history.days[-1]
        #expect(throws: ReadinessError.self) { try engine.score(on: History.today, history: history.metrics) }
        #expect(
            (try? engine.score(on: History.today, history: history.metrics)) == nil
                && String(describing: Result { try engine.score(on: History.today, history: history.metrics) })
                    .contains("the daily metrics hold 2024-05-31 twice")
        )
        #expect(throws: ReadinessError.self) { try engine.score(on: "2024-02-30", history: []) }
        var configuration = ReadinessConfiguration()
        configuration.sleepNeedHours = 14
        #expect(throws: ReadinessError.self) { try ReadinessEngine(configuration: configuration) }
        configuration = ReadinessConfiguration()
        configuration.weights = [:]
        #expect(throws: ReadinessError.self) { try ReadinessEngine(configuration: configuration) }
    }
}

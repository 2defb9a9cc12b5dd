import Foundation
import HealthReadiness
import Testing

/// What the engine does with little history and with holes in it.
@Suite struct CalibrationAndGapTests {
    let engine = try! ReadinessEngine()

    @Test func calibratingUntil14ValidDays() throws {
        // 10 days of data: every baseline has its 7 days, the score is shown, flagged.
        var score = try engine.score(on: History.today, history: History.steady(-9...0).metrics)
        #expect(score.validDays == 10)
        #expect(score.calibrating)
        #expect(score.score == 97)
        #expect(score.confidence == 0.36)  // all weight × 10/28
        #expect(score.reason.hasSuffix(" Calibrating: 10 of 14 days."))
        // 13 days: still calibrating; 14: not.
        score = try engine.score(on: History.today, history: History.steady(-12...0).metrics)
        #expect(score.calibrating && score.validDays == 13)
        score = try engine.score(on: History.today, history: History.steady(-13...0).metrics)
        #expect(!score.calibrating && score.validDays == 14)
        #expect(score.confidence == 0.5)
        // From 28 valid days the baseline is mature.
        score = try engine.score(on: History.today, history: History.steady(-27...0).metrics)
        #expect(score.confidence == 1)
    }

    @Test func fiveDaysScoreOnLastNightAlone() throws {
        let score = try engine.score(on: History.today, history: History.steady(-4...0).metrics)
        #expect(score.score == 100)
        #expect(score.contributors.filter { $0.subscore != nil }.map(\.kind) == [.sleep])
        #expect(score[.hrvBalance]?.note == "HRV baseline has 4 days of the previous 60; needs 7")
        #expect(score[.restingHeartRate]?.note == "resting-HR baseline has 4 days of the previous 60; needs 7")
        #expect(score[.sleepBalance]?.note == "sleep on 5 of the last 14 nights; needs 7")
        #expect(score[.previousDayActivity]?.note == "activity on 4 of the previous 28 days; needs 7 with some load")
        #expect(score.confidence == 0.04)  // 0.2 of the weight × 5/28 = 0.0357
    }

    @Test func theSevenDayWindowNeedsThreeValidDays() throws {
        var history = History.steady()
        for offset in -6...0 { history.update(offset) { $0.hrvMs = nil } }
        history.update(-3) { $0.hrvMs = exp(4) }
        history.update(0) { $0.hrvMs = exp(4) }
        var score = try engine.score(on: History.today, history: history.metrics)
        #expect(score[.hrvBalance]?.subscore == nil)
        #expect(score[.hrvBalance]?.note == "HRV on 2 of the last 7 days; needs 3")
        #expect(score[.hrvBalance]?.value == 54.6)
        history.update(-5) { $0.hrvMs = exp(4) }
        score = try engine.score(on: History.today, history: history.metrics)
        #expect(score[.hrvBalance]?.subscore == 90)
    }

    @Test func noDataAtAll() throws {
        let score = try engine.score(on: History.today, history: [])
        #expect(score.score == nil && score.band == nil)
        #expect(score.confidence == 0)
        #expect(score.validDays == 0)
        #expect(score.contributors.count == 6)
        let json = String(decoding: try JSONEncoder().encode(score), as: UTF8.self)
        #expect(json.contains("\"score\":null"))
        #expect(json.contains("\"band\":null"))
    }

    @Test func implausibleValuesAreNotMeasurements() throws {
        var history = History.steady()
        history.update(0) {
            $0.hrvMs = 0
            $0.restingHRBpm = 400
        }
        let score = try engine.score(on: History.today, history: history.metrics)
        #expect(score[.restingHeartRate]?.note == "no resting HR today")
        // Today's HRV is dropped: the 7-day mean is the other six days', e^4.
        #expect(score[.hrvBalance]?.subscore == 90)
    }
}

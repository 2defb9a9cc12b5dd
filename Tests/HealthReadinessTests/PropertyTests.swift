import Foundation
import HealthMetrics
import HealthReadiness
import PropertyBased
import Testing

/// The score's promises, over random 61-day histories with gaps (each metric missing on
/// about one day in six) and every value in its plausible range. 1,000 cases each.
@Suite struct PropertyTests {
    static let cases = 1000
    static let engine = try! ReadinessEngine()

    /// Histories of 61 days (offsets −60…0), each metric drawn from its range and present
    /// on `valueRate` of the days.
    static func histories(
        hrv: ClosedRange<Double>, restingHR: ClosedRange<Double>, sleep: ClosedRange<Double>, energy: ClosedRange<Double>,
        valueRate: Float
    ) -> Generator<History, some SendableSequenceType> {
        zip(
            Gen.double(in: hrv).optional(valueRate: valueRate).array(of: 61),
            Gen.double(in: restingHR).optional(valueRate: valueRate).array(of: 61),
            Gen.double(in: sleep).optional(valueRate: valueRate).array(of: 61),
            Gen.double(in: energy).optional(valueRate: valueRate).array(of: 61)
        ).map { hrv, restingHR, sleep, energy in
            var history = History()
            for index in 0..<61 {
                history.set(index - 60, hrv: hrv[index], restingHR: restingHR[index], sleep: sleep[index], energy: energy[index])
            }
            return history
        }
    }

    /// Plausible values, each missing on about one day in six.
    static var history: Generator<History, some SendableSequenceType> {
        histories(hrv: 15...150, restingHR: 40...80, sleep: 2...11, energy: 0...2000, valueRate: 0.85)
    }

    /// The scores with today's `metric` set to the lower and to the higher of two values.
    static func scores(
        _ history: History, _ first: Double, _ second: Double, _ metric: WritableKeyPath<NormalizedDailyMetrics, Double?>
    ) throws -> (lower: ReadinessScore, higher: ReadinessScore) {
        func score(_ value: Double) throws -> ReadinessScore {
            var changed = history
            changed.update(0) { $0[keyPath: metric] = value }
            return try engine.score(on: History.today, history: changed.metrics)
        }
        return (try score(min(first, second)), try score(max(first, second)))
    }

    @Test func raisingTodaysHRVNeverLowersTheScore() async throws {
        await propertyCheck(count: Self.cases, input: Self.history, Gen.double(in: 5...300), Gen.double(in: 5...300)) {
            history, first, second in
            await Task.yield()  // CPU-bound cases: let the suite's timing-sensitive tests run
            let (lower, higher) = try Self.scores(history, first, second, \.hrvMs)
            #expect((higher.score ?? 0) >= (lower.score ?? 0), "HRV \(first), \(second)")
            #expect((higher[.hrvBalance]?.subscore ?? 0) >= (lower[.hrvBalance]?.subscore ?? 0))
        }
    }

    @Test func raisingRestingHRNeverRaisesTheScore() async throws {
        await propertyCheck(count: Self.cases, input: Self.history, Gen.double(in: 25...150), Gen.double(in: 25...150)) {
            history, first, second in
            await Task.yield()  // CPU-bound cases: let the suite's timing-sensitive tests run
            let (lower, higher) = try Self.scores(history, first, second, \.restingHRBpm)
            #expect((higher.score ?? 0) <= (lower.score ?? 0), "resting HR \(first), \(second)")
        }
    }

    @Test func moreSleepUpToTheNeedNeverLowersTheScore() async throws {
        await propertyCheck(count: Self.cases, input: Self.history, Gen.double(in: 0...8), Gen.double(in: 0...8)) {
            history, first, second in
            await Task.yield()  // CPU-bound cases: let the suite's timing-sensitive tests run
            let (lower, higher) = try Self.scores(history, first, second, \.sleepHours)
            #expect((higher.score ?? 0) >= (lower.score ?? 0), "sleep \(first), \(second) h")
        }
    }

    /// Any values at all, implausible ones included: the score is 0–100 or absent, the
    /// band matches it, the confidence is in [0, 1].
    @Test func theScoreIsAlwaysWithin0And100() async throws {
        let wild = Self.histories(
            hrv: -50...1000, restingHR: -50...400, sleep: -5...30, energy: -100...20000, valueRate: 0.7)
        await propertyCheck(count: Self.cases, input: wild) { history in
            await Task.yield()
            let score = try Self.engine.score(on: History.today, history: history.metrics)
            if let value = score.score {
                #expect((0...100).contains(value))
                #expect(score.band == ReadinessBand(score: value))
            } else {
                #expect(score.band == nil)
            }
            #expect((0...1).contains(score.confidence))
            for contributor in score.contributors {
                #expect(contributor.subscore.map { (0...100).contains($0) } ?? true)
            }
        }
    }
}

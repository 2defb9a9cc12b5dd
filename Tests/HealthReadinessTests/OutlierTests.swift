import Foundation
import HealthReadiness
import Testing

/// A single wild HRV value (an artefact: 5 ms or 300 ms) anywhere in the 61 days moves
/// the score by at most 10 points when the week has 7 HRV days (docs/readiness.md derives
/// the bound). Without the median/MAD screen it moves far more.
@Suite struct OutlierTests {
    /// A realistic, noisy person: ln HRV 3.9 ± 0.12, resting HR 56 ± 1.5, 6.5–8 h asleep,
    /// 350–650 kcal; a fixed sequence, so every figure is reproducible.
    static func noisyHistory() -> History {
        var history = History()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        for offset in -60...0 {
            history.set(
                offset, hrv: exp(3.9 + (next() - 0.5) * 0.42), restingHR: 56 + (next() - 0.5) * 5, sleep: 6.5 + next() * 1.5,
                energy: 350 + next() * 300)
        }
        return history
    }

    static func swing(screened: Bool, wild: Double) throws -> (worst: Int, at: Int) {
        var configuration = ReadinessConfiguration()
        configuration.screensOutliers = screened
        let engine = try ReadinessEngine(configuration: configuration)
        let history = noisyHistory()
        let calm = try engine.score(on: History.today, history: history.metrics).score!
        var worst = (worst: 0, at: 0)
        for offset in -60...0 {
            var wilder = history
            wilder.update(offset) { $0.hrvMs = wild }
            let swing = abs(try engine.score(on: History.today, history: wilder.metrics).score! - calm)
            if swing > worst.worst { worst = (swing, offset) }
        }
        return worst
    }

    @Test func oneWildValueMovesTheScoreLittle() throws {
        for wild in [5.0, 300.0] {
            let (worst, at) = try Self.swing(screened: true, wild: wild)
            #expect(worst <= 10, "\(wild) ms on day \(at) moved the score \(worst) points")
        }
    }

    @Test func withoutTheScreenItMovesMuchMore() throws {
        let screened = try Self.swing(screened: true, wild: 5)
        let (worst, at) = try Self.swing(screened: false, wild: 5)
        // Both worst cases are the wild value today, in the 7-day mean.
        #expect(screened.worst == 9 && screened.at == 0)
        #expect(worst == 24 && at == 0)
    }
}

import Foundation
import HealthMetrics
import HealthReadiness
import HealthSynth
import Testing

/// `GET /v1/readiness` writes its scores directly (issue 37 §3); the bytes must be the ones
/// `JSONEncoder` writes, whatever the scores hold.
@Suite struct I37ReadinessJSONTests {

    static let texts = [
        "", "ms", "bpm", "h", "kcal/day", "steps/day", "2024-06-01", "HRV balance is 12% under your 60-day baseline",
        "Last night's sleep – 6.1 h", "no \"data\" yet", "back\\slash", "tab\t", "\u{2028}", "😴",
    ]

    static func figure(_ random: inout SplitMix) -> Double? {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: nil
        case 1: (Double.random(in: 0...100, using: &random) * 10).rounded() / 10
        case 2: Double(bitPattern: random.next())
        case 3: [0.0, -0.0, 1e16, 1e-7, 0.1 + 0.2][Int.random(in: 0..<5, using: &random)]
        default: Double.random(in: -1_000...20_000, using: &random)
        }
    }

    static func text(_ random: inout SplitMix) -> String { texts[Int.random(in: 0..<texts.count, using: &random)] }

    static func score(_ random: inout SplitMix) -> ReadinessScore {
        let contributors = ReadinessContributor.Kind.allCases.shuffled(using: &random).prefix(
            Int.random(in: 0...6, using: &random)
        ).map { kind in
            ReadinessContributor(
                kind: kind, weight: figure(&random) ?? 0.2, subscore: figure(&random), value: figure(&random),
                baseline: figure(&random),
                band: Bool.random(using: &random) ? nil : NormalBand(lower: figure(&random), upper: figure(&random)),
                unit: text(&random), note: Bool.random(using: &random) ? nil : text(&random))
        }
        return ReadinessScore(
            date: text(&random), score: Bool.random(using: &random) ? nil : Int.random(in: -5...105, using: &random),
            band: Bool.random(using: &random) ? nil : ReadinessBand.allCases.randomElement(using: &random),
            calibrating: Bool.random(using: &random), validDays: Int.random(in: 0...60, using: &random),
            confidence: figure(&random) ?? 1, reason: text(&random), contributors: Array(contributors))
    }

    static func same(_ written: Result<Data, any Error>, _ expected: Result<Data, any Error>) {
        switch (written, expected) {
        case (.success(let written), .success(let expected)):
            #expect(written == expected, "\(String(decoding: written, as: UTF8.self))")
        case (.failure, .failure): break
        default: Issue.record("one of them threw: \(written) \(expected)")
        }
    }

    @Test func i37_theWrittenScoresAreJSONEncodersBytesForAnyScores() {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var random = SplitMix(seed: 3_700)
        for _ in 0..<2_000 {
            let scores = (0..<Int.random(in: 0...3, using: &random)).map { _ in Self.score(&random) }
            Self.same(Result { try ReadinessScore.backendJSON(scores) }, Result { try encoder.encode(scores) })
            if let first = scores.first {
                Self.same(Result { try first.backendJSON() }, Result { try encoder.encode(first) })
            }
        }
    }

    @Test func i37_theEnginesScoresAreWrittenAsTheEncoderWritesThem() throws {
        // Sixty days of plausible figures, scored for the last week.
        let start = Date(timeIntervalSince1970: 1_717_200_000)
        var random = SplitMix(seed: 60)
        let days = (0..<60).map { offset in
            let date = LocalDate(start + Double(offset) * 86_400, in: TimeZone(identifier: "UTC")!)
            return NormalizedDailyMetrics(
                localDate: date.description, timezoneIdentifier: "UTC", utcDayStart: start + Double(offset) * 86_400,
                utcDayEnd: start + Double(offset + 1) * 86_400, stepsNormalized: Int.random(in: 3_000...15_000, using: &random),
                activeEnergyKcal: Double.random(in: 200...900, using: &random),
                sleepHours: Double.random(in: 5...9, using: &random),
                restingHRBpm: Double.random(in: 48...62, using: &random), hrvMs: Double.random(in: 30...90, using: &random),
                normalizationVersion: "norm_v1", createdAt: start)
        }
        let dates = days.suffix(7).map(\.localDate)
        let scores = try ReadinessEngine().scores(on: dates, history: days)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(try ReadinessScore.backendJSON(scores) == encoder.encode(scores))
        #expect(try scores[0].backendJSON() == encoder.encode(scores[0]))
        #expect(scores.allSatisfy { $0.score != nil })
    }
}

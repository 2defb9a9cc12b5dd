import Foundation
import HealthMetrics
import HealthSynth
import Testing

/// `GET /v1/daily-metrics` writes its days directly (issue 37 §3); the bytes must be
/// `JSONEncoder`'s, whatever the days hold.
@Suite struct I37DayJSONTests {

    static let strings = [
        "apple_watch", "iphone", "other", "Australia/Perth", "America/Los_Angeles", "norm_v1", "2024-06-01", "",
        "Zoë's Watch", "a\"quote", "back\\slash", "tab\there", "line\nbreak", "\u{1}", "slash/es", "\u{7f}", "\u{2028}",
        "日本語", "🏃‍♀️",
    ]

    static func figure(_ random: inout SplitMix) -> Double? {
        switch Int.random(in: 0..<9, using: &random) {
        case 0: nil
        case 1: Double(Int.random(in: 0...20_000, using: &random))
        case 2: (Double.random(in: 0...5_000, using: &random) * 100).rounded() / 100
        case 3: Double.random(in: -1e-3...1e-3, using: &random)
        case 4: Double(bitPattern: random.next())  // any bit pattern: NaN and infinities too
        case 5: [0.0, -0.0, 1e15, 1e16, 1e-7, 5e-324, .greatestFiniteMagnitude][Int.random(in: 0..<7, using: &random)]
        default: Double.random(in: 0...24, using: &random)
        }
    }

    static func instant(_ random: inout SplitMix) -> Date {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: Date(timeIntervalSince1970: Double(Int.random(in: 1_500_000_000...1_900_000_000, using: &random)))
        case 1: Date(timeIntervalSince1970: Double.random(in: 1_500_000_000...1_900_000_000, using: &random))
        case 2: Date(timeIntervalSince1970: Double.random(in: -2_300_000_000...0, using: &random))  // around 1900
        case 3: Date(timeIntervalSince1970: Double.random(in: 253_402_000_000...253_403_000_000, using: &random))
        case 4: Date(timeIntervalSince1970: Double.random(in: -1e11...1e11, using: &random))
        default: Date(timeIntervalSince1970: -0.5)
        }
    }

    static func string(_ random: inout SplitMix) -> String { strings[Int.random(in: 0..<strings.count, using: &random)] }

    static func day(_ random: inout SplitMix) -> NormalizedDailyMetrics {
        var day = NormalizedDailyMetrics(
            userID: Bool.random(using: &random) ? nil : string(&random), localDate: string(&random),
            timezoneIdentifier: string(&random), utcDayStart: instant(&random), utcDayEnd: instant(&random),
            normalizationVersion: string(&random), createdAt: instant(&random))
        if Bool.random(using: &random) { day.stepsNormalized = Int.random(in: -5...100_000, using: &random) }
        if Bool.random(using: &random) { day.stepsRawSum = Int.random(in: Int.min...Int.max, using: &random) }
        if Bool.random(using: &random) {
            day.stepsSources = StepsSourcesMetadata(
                primarySource: Bool.random(using: &random) ? nil : string(&random),
                secondarySourcesUsed: (0..<Int.random(in: 0...2, using: &random)).map { _ in string(&random) },
                ignoredSources: (0..<Int.random(in: 0...2, using: &random)).map { _ in string(&random) },
                suspiciousSteps: Bool.random(using: &random), rawSampleCount: Int.random(in: 0...5_000, using: &random))
        }
        day.activeEnergyKcal = figure(&random)
        day.sleepHours = figure(&random)
        if Bool.random(using: &random) {
            day.sleepSource = SleepSourceMetadata(
                basis: SleepBasis.allCases[Int.random(in: 0..<SleepBasis.allCases.count, using: &random)],
                inBedHours: figure(&random) ?? 8)
        }
        day.restingHRBpm = figure(&random)
        day.hrvMs = figure(&random)
        return day
    }

    /// The same bytes as `JSONEncoder`, or the same refusal (a figure that is not finite).
    static func expectSame(_ days: [NormalizedDailyMetrics]) {
        let expected = Result { try NormalizedDailyMetrics.backendEncoder().encode(days) }
        let written = Result { try NormalizedDailyMetrics.backendJSON(days) }
        switch (expected, written) {
        case (.success(let expected), .success(let written)):
            #expect(
                written == expected,
                "\(String(decoding: written, as: UTF8.self)) != \(String(decoding: expected, as: UTF8.self))")
        case (.failure, .failure): break
        default: Issue.record("one of them threw: \(expected) \(written)")
        }
    }

    @Test func i37_theWrittenDaysAreJSONEncodersBytesForAnyDays() {
        var random = SplitMix(seed: 37)
        for _ in 0..<3_000 {
            Self.expectSame((0..<Int.random(in: 0...4, using: &random)).map { _ in Self.day(&random) })
        }
    }

    @Test func i37_ordinaryDaysAreWrittenWithoutTheEncoder() throws {
        // A week as the server stores it: nothing the direct writer leaves to JSONEncoder.
        let start = Date(timeIntervalSince1970: 1_717_200_000)
        let days = (0..<7).map { offset in
            NormalizedDailyMetrics(
                userID: "6F1E0C7A-0000-4000-8000-000000000001", localDate: "2024-06-0\(offset + 1)",
                timezoneIdentifier: "Europe/Berlin", utcDayStart: start + Double(offset) * 86_400,
                utcDayEnd: start + Double(offset + 1) * 86_400, stepsNormalized: 8_000 + offset,
                stepsRawSum: 9_100,
                stepsSources: StepsSourcesMetadata(
                    primarySource: "apple_watch", secondarySourcesUsed: ["iphone"], ignoredSources: [],
                    suspiciousSteps: false, rawSampleCount: 212),
                activeEnergyKcal: 512.25, sleepHours: 7.1, sleepSource: .init(basis: .watchStages, inBedHours: 7.9),
                restingHRBpm: 54, hrvMs: 61.3, normalizationVersion: "norm_v1",
                createdAt: start + 86_400 * 8 + 0.731)
        }
        let written = String(decoding: try NormalizedDailyMetrics.backendJSON(days), as: UTF8.self)
        #expect(
            written.hasPrefix(
                #"[{"active_energy_kcal":512.25,"created_at":"2024-06-09T00:00:00Z","hrv_ms":61.3,"local_date":"2024-06-01","#
            ))
        Self.expectSame(days)
    }
}

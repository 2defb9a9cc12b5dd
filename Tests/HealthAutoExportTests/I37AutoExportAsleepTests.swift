import Foundation
import HealthAutoExport
import HealthCore
import Testing

/// Found by a probe of the server: an aggregated night's `asleep` of 20 hours in a night of
/// 6 (sleepStart 01:00, sleepEnd 07:00) woke at 21:00 — 333 % efficiency, 3 h on the next
/// day — and `"asleep": -3` was dropped without a word (the night became time in bed only).
/// The time asleep ends by `sleepEnd`; hours outside 0–24 are a 422 naming the field.
@Suite struct I37AutoExportAsleepTests {
    static func body(asleep: String) -> Data {
        Data(
            #"{"data":{"metrics":[{"name":"sleep_analysis","units":"hr","data":[{"date":"2020-06-10 08:00:00 +0000","sleepStart":"2020-06-10 01:00:00 +0000","sleepEnd":"2020-06-10 07:00:00 +0000","asleep":\#(asleep),"sleepSource":"W"}]}]}}"#
                .utf8)
    }

    @Test func theTimeAsleepLiesWithinTheNight() throws {
        let samples = try HAEReader.read(Self.body(asleep: "20")).records.compactMap {
            if case .sample(let sample) = $0 { sample } else { nil }
        }
        let asleep = try #require(samples.first { $0.value == .category("HKCategoryValueSleepAnalysisAsleepUnspecified") })
        #expect(asleep.end == Date(timeIntervalSince1970: 1_591_772_400))  // 2020-06-10 07:00 UTC
        for bad in ["-3", "1e300", "25"] {
            #expect {
                _ = try HAEReader.read(Self.body(asleep: bad))
            } throws: { error in
                "\(error)".contains("/data/metrics/0/data/0/asleep") && "\(error)".contains("from 0 to 24")
            }
        }
    }
}

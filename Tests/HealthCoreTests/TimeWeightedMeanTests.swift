import Foundation
import HealthCore
import Testing

/// Issue 33 §4: the mean of heart rate (`discreteTemporallyWeighted`) weights each reading by
/// the time until the next one, at most ``TimeWeightedMean/maximumGap``; hand-computed cases.
@Suite struct TimeWeightedMeanTests {
    static let t0 = Date(timeIntervalSince1970: 1_717_225_200)  // 2024-06-01T07:00:00Z

    static func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

    @Test func i33_workout_eachReadingCountsForTheTimeUntilTheNext() {
        // 60 for 60 s, 90 for the 120 s left: (60 × 60 + 90 × 120) / 180 = 80 (arithmetic: 75).
        #expect(TimeWeightedMean.mean([(Self.at(0), 60), (Self.at(60), 90)], until: Self.at(180)) == 80)
        // The order given does not matter.
        #expect(TimeWeightedMean.mean([(Self.at(60), 90), (Self.at(0), 60)], until: Self.at(180)) == 80)
    }

    @Test func i33_workout_aGapCountsForAtMostTenMinutes() {
        #expect(TimeWeightedMean.maximumGap == 600)
        // 100, then an hour without a reading, then 70 for 300 s: 100 counts for 600 s, not
        // 3,600: (100 × 600 + 70 × 300) / 900 = 90.
        #expect(TimeWeightedMean.mean([(Self.at(0), 100), (Self.at(3600), 70)], until: Self.at(3900)) == 90)
    }

    @Test func i33_workout_readingsAtOneInstantShareItsTime() {
        // 60 and 80 at 0 s share 120 s (their mean, 70), then 100 for 60 s: (70 × 120 + 100 × 60) / 180 = 80.
        let readings: [(start: Date, value: Double)] = [(Self.at(0), 60), (Self.at(0), 80), (Self.at(120), 100)]
        #expect(TimeWeightedMean.mean(readings, until: Self.at(180)) == 80)
        // No time at all (every reading at the end): the arithmetic mean.
        #expect(TimeWeightedMean.mean([(Self.at(180), 60), (Self.at(180), 90)], until: Self.at(180)) == 75)
        #expect(TimeWeightedMean.mean([], until: Self.at(180)) == nil)
    }

    @Test func i33_workout_samplesAreClippedToTheIntervalAndConverted() throws {
        let watch = Source(name: "Apple Watch")
        func heart(_ from: Double, _ to: Double, _ value: Double, _ unit: String) -> Sample {
            Sample(type: .heartRate, start: Self.at(from), end: Self.at(to), value: .quantity(value, unit: unit), source: watch)
        }
        let interval = DateInterval(start: Self.at(0), end: Self.at(180))
        // 120 from before the interval counts from its start, for 60 s; 1.5 count/s is 90
        // count/min, for 120 s; a reading in no unit of frequency is skipped:
        // (120 × 60 + 90 × 120) / 180 = 100.
        let samples = [
            heart(-300, 60, 120, "count/min"), heart(60, 60, 1.5, "count/s"), heart(90, 90, 55, "kg"),
            Sample(type: .heartRate, start: Self.at(100), end: Self.at(100), source: watch),
        ]
        let bpm = try HealthUnit(parsing: "count/min")
        #expect(TimeWeightedMean.mean(of: samples, over: interval, unit: bpm) == 100)
        #expect(TimeWeightedMean.mean(of: [], over: interval, unit: bpm) == nil)
    }
}

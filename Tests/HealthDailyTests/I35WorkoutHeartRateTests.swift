import Foundation
import HealthCore
import Testing

@testable import HealthDaily

/// Issue 35 §3: a workout's heart rate from the readings of its span — the time-weighted
/// mean and the time in five zones of a maximum heart rate, computed by hand here.
@Suite struct I35WorkoutHeartRateTests {
    static let t0 = Date(timeIntervalSince1970: 1_717_228_800)  // 2024-06-01 08:00 UTC

    /// 100 bpm for 60 s then 150 bpm for 120 s, maximum 190: 100/190 = 52.6 % (zone 1),
    /// 150/190 = 78.9 % (zone 3). Mean (100 × 60 + 150 × 120) / 180 = 133.33….
    @Test func zonesAndMeanByHand() {
        let heart = WorkoutHeartRate(
            readings: [(Self.t0, 100), (Self.t0 + 60, 150)], span: DateInterval(start: Self.t0, duration: 180), maximum: 190)
        let expected: Double = (100.0 * 60 + 150.0 * 120) / 180
        #expect(heart.meanBpm == expected)
        #expect(heart.minimumBpm == 100 && heart.maximumBpm == 150)
        #expect(heart.zones?.map(\.seconds) == [60, 0, 120, 0, 0])
        #expect(heart.zones?.map(\.fromBpm) == [95, 114, 133, 152, 171])
        #expect(heart.zones?.map(\.toBpm) == [114, 133, 152, 171, nil])
        #expect(heart.belowZones == 0)
    }

    /// A reading before the workout counts from its start; two at one instant share their
    /// time; a gap past 10 minutes holds only 10; under 50 % is below the zones; a reading on
    /// a boundary (152 = 80 % of 190) starts zone 4.
    @Test func clippingSharingGapsAndBoundaries() {
        let span = DateInterval(start: Self.t0, duration: 1_800)
        let heart = WorkoutHeartRate(
            readings: [
                (Self.t0 - 30, 90),  // 47.4 %: below, from t0 to t0+100
                (Self.t0 + 100, 152), (Self.t0 + 100, 180),  // 100 s shared: 50 s zone 4, 50 s zone 5
                (Self.t0 + 200, 120),  // zone 2, until the end 1,600 s later: capped at 600
            ], span: span, maximum: 190)
        #expect(heart.belowZones == 100)
        #expect(heart.zones?.map(\.seconds) == [0, 600, 0, 50, 50])
        // (90 × 100 + 166 × 100 + 120 × 600) / 800 = 122
        #expect(heart.meanBpm == 122)
        #expect(heart.readings.first == WorkoutHeartRate.Reading(time: Self.t0, bpm: 90))
    }

    /// Without a maximum there are no zones; without readings, no figures — zones neither
    /// (five zones of 0 s read as measured: issue 37's probe).
    @Test func noMaximumNoZonesNoReadingsNoFigures() {
        let span = DateInterval(start: Self.t0, duration: 60)
        let heart = WorkoutHeartRate(readings: [(Self.t0, 120)], span: span, maximum: nil)
        #expect(heart.zones == nil && heart.belowZones == nil && heart.meanBpm == 120)
        let none = WorkoutHeartRate(readings: [], span: span, maximum: 190)
        #expect(none.meanBpm == nil && none.readings.isEmpty && none.zones == nil && none.belowZones == nil)
    }
}

/// Found attacking: 180 × 0.7 is 125.99999999999999 in binary, and the zones said so.
@Suite struct I35ZoneBoundsTests {
    @Test func boundariesAreTheRoundNumbers() {
        let t0 = Date(timeIntervalSince1970: 1_717_228_800)
        let heart = WorkoutHeartRate(readings: [(start: t0, bpm: 126)], span: DateInterval(start: t0, duration: 60), maximum: 180)
        #expect(heart.zones?.map(\.fromBpm) == [90, 108, 126, 144, 162])
    }
}

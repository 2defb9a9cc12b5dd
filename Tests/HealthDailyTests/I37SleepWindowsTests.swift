import Foundation
import HealthCore
import Testing

@testable import HealthDaily

/// After a move six hours or more east, a day's sleep window reached past the start of the
/// next day's: a night in the overlap counted on both days (5 h + 7 h for one 7-hour night in
/// Tokyo after Los Angeles; I37TripEastTests). The windows now meet at one instant, so that
/// a stretch of sleep is the day's it wakes on — also when the zone changes a day early (the
/// timeline looks two days ahead) and the night in the overlap was slept at home (found
/// reviewing a first fix that cut the earlier window at the later one's start).
@Suite struct I37SleepWindowsTests {
    static let losAngeles = TimeZone(identifier: "America/Los_Angeles")!
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!
    static let days = [
        LocalDay(date: LocalDate("2021-06-11")!, zone: losAngeles), LocalDay(date: LocalDate("2021-06-12")!, zone: tokyo),
    ]

    static func asleep(_ start: String, _ end: String) -> Sample {
        Sample(
            type: .sleepAnalysis, start: Build.at(start), end: Build.at(end),
            value: .category("HKCategoryValueSleepAnalysisAsleepCore"), source: Source(name: "Watch"))
    }

    @Test func aNightInTheNewZoneIsTheLaterDays() {
        let night = Self.asleep("2021-06-11T23:00:00+09:00", "2021-06-12T06:00:00+09:00")
        let windows = SleepWindows.of(Self.days, sleep: SampleIndex([night]))
        // Los Angeles's window [10 June 18:00, 11 June 12:00) ends where Tokyo's begins (11 June 18:00 there).
        #expect(
            windows[0] == DateInterval(start: Build.at("2021-06-10T18:00:00-07:00"), end: Build.at("2021-06-11T18:00:00+09:00")))
        #expect(
            windows[1] == DateInterval(start: Build.at("2021-06-11T18:00:00+09:00"), end: Build.at("2021-06-12T12:00:00+09:00")))
        #expect(SleepRule.asleepSeconds([night], window: windows[0]) == nil)
        #expect(SleepRule.asleepSeconds([night], window: windows[1]).map { abs($0 - 25_200) < 1e-6 } == true)
    }

    @Test func aNightAtHomeInTheOverlapIsTheEarlierDays() {
        // 10 June 23:30 to 11 June 07:30 in Los Angeles: it wakes before Los Angeles's window ends.
        let night = Self.asleep("2021-06-10T23:30:00-07:00", "2021-06-11T07:30:00-07:00")
        let windows = SleepWindows.of(Self.days, sleep: SampleIndex([night]))
        #expect(windows[0].end == night.end && windows[1].start == night.end)
        #expect(SleepRule.asleepSeconds([night], window: windows[0]).map { abs($0 - 28_800) < 1e-6 } == true)
        #expect(SleepRule.asleepSeconds([night], window: windows[1]) == nil)
        // Without an overlap (no zone change), the windows are the days' own.
        let home = [
            LocalDay(date: LocalDate("2021-06-11")!, zone: Self.losAngeles),
            LocalDay(date: LocalDate("2021-06-12")!, zone: Self.losAngeles),
        ]
        #expect(SleepWindows.of(home, sleep: SampleIndex([night])) == home.map(\.sleepWindow))
    }
}

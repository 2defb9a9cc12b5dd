import Foundation
import HealthCore
import HealthDaily
import HealthTestSupport
import Testing

@testable import HealthDashboard

/// Issue 33 §1: the dashboard of a store whose data ends a year ago opened on today's empty
/// rings and 30 empty days. It opens on the last day with data and says so; a given day
/// (`?date=`, `--today`) is shown as asked; the local page reads `?date=` as the server's.
@Suite struct I33LastDayDashboardTests {
    static func settings() -> DashboardAssembler.Settings {
        var settings = DashboardAssembler.Settings()
        settings.normalization.homeZone = YearOldStore.utc
        return settings
    }

    @Test func i33_lastday_theDashboardOpensOnTheLastDayWithData() async throws {
        let store = InMemoryHealthStore(samples: YearOldStore.samples)
        let data = try await DashboardAssembler(store: store, settings: Self.settings(), now: { YearOldStore.now }).assemble()
        #expect(data.today == "2024-12-30")
        #expect(data.latestDataNote == "latest data 2024-12-30; showing the 30 days to it")
        #expect(data.days.count == 30 && data.days.first?.localDate == "2024-12-01")
        #expect(data.days.suffix(3).map(\.stepsNormalized) == [1000, 1100, 1200])
        #expect(data.todayMetrics?.restingHRBpm == 54 && data.rings.moveKcal == nil)
        #expect(data.nights.last?.localDate == "2024-12-30" && data.nights.last?.main?.asleepSeconds == 27_000)
        let html = DashboardPage(data: data).html()
        #expect(html.contains("<title>Health — 2024-12-30</title>"))
        #expect(html.contains("<p class=\"meta\" role=\"status\">Latest data 2024-12-30; showing the 30 days to it.</p>"))
        #expect(!html.contains("Nothing recorded today yet."))
        #expect(html.contains("<dt>Steps</dt><dd>1\u{2009}200</dd>"))
    }

    @Test func i33_lastday_aGivenDayOrTodaysDataIsShownWithoutANote() async throws {
        let store = InMemoryHealthStore(samples: YearOldStore.samples)
        let asked = try await DashboardAssembler(store: store, settings: Self.settings(), now: { YearOldStore.now })
            .assemble(today: LocalDate("2024-12-29")!)
        #expect(asked.today == "2024-12-29" && asked.latestDataNote == nil)
        #expect(!DashboardPage(data: asked).html().contains("role=\"status\""))
        // "Now" on the last day: today, as before.
        let evening = YearOldStore.lastDay.instant(hour: 20, in: YearOldStore.utc)
        let fresh = try await DashboardAssembler(store: store, settings: Self.settings(), now: { evening }).assemble()
        #expect(fresh.today == "2024-12-30" && fresh.latestDataNote == nil)
    }

    /// `healthpipe dashboard` reads `?range=` and `?date=` as the server's page does.
    @Test func i33_lastday_theLocalPageReadsDateAndRange() throws {
        let plain = try DashboardQuery(range: nil, date: nil)
        #expect(plain.range == 30 && plain.date == nil)
        let asked = try DashboardQuery(range: "7", date: "2024-12-28")
        #expect(asked.range == 7 && asked.date == LocalDate("2024-12-28")!)
        for (range, date, message) in [
            ("5", nil, "range must be one of 7, 30, 90, 365"),
            (nil, "yesterday", "date must be a day YYYY-MM-DD from 1900-01-01 to 2199-12-31"),
            (nil, "0001-01-01", "date must be a day YYYY-MM-DD from 1900-01-01 to 2199-12-31"),
            (nil, "2024-02-30", "date must be a day YYYY-MM-DD from 1900-01-01 to 2199-12-31"),
        ] as [(String?, String?, String)] {
            #expect(throws: DashboardQueryError(message)) { try DashboardQuery(range: range, date: date) }
        }
    }
}

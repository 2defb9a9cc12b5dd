import Foundation
import Testing

@testable import HealthCore

/// Issue 33 §1: every view counted back from the wall clock, so an export whose last day
/// is in the past showed rows of "—". ``DataAnchor`` is the one rule: ranges end today,
/// unless the store holds nothing newer than an earlier day — then at that day, said in
/// one line; an empty range says where the data is.
@Suite struct I33DataAnchorTests {
    static let utc = TimeZone(identifier: "UTC")!

    /// `YYYY-MM-DD HH:mm` UTC.
    static func at(_ text: String) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = utc
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.date(from: text)!
    }

    static func day(_ text: String) -> LocalDate { LocalDate(text)! }

    /// Steps 2024-12-28 12:00 → 2024-12-30 12:10, a night 12-29 23:00 → 12-30 06:30, a resting
    /// heart rate at 12-30 12:00, a weighing on 2024-06-01 08:00 (UTC).
    static let spans = [
        SampleTypeSpan(type: .stepCount, first: at("2024-12-28 12:00"), last: at("2024-12-30 12:10")),
        SampleTypeSpan(type: .sleepAnalysis, first: at("2024-12-29 23:00"), last: at("2024-12-30 06:30")),
        SampleTypeSpan(type: .restingHeartRate, first: at("2024-12-30 12:00"), last: at("2024-12-30 12:00")),
        SampleTypeSpan(type: .bodyMass, first: at("2024-06-01 08:00"), last: at("2024-06-01 08:00")),
    ]

    @Test func i33_lastday_aStoreWhoseDataEndsAYearAgoEndsRangesAtItsLastDay() {
        let anchor = DataAnchor(spans: Self.spans, today: Self.day("2025-12-31"), zone: Self.utc)
        #expect(
            anchor.days == [
                .steps: Self.day("2024-12-28")...Self.day("2024-12-30"), .sleep: Self.day("2024-12-29")...Self.day("2024-12-30"),
                .heart: Self.day("2024-12-30")...Self.day("2024-12-30"), .body: Self.day("2024-06-01")...Self.day("2024-06-01"),
            ])
        #expect(anchor.firstDay == Self.day("2024-06-01") && anchor.latestDay == Self.day("2024-12-30"))
        #expect(anchor.moved && anchor.day == Self.day("2024-12-30") && anchor.today == Self.day("2025-12-31"))
        #expect(anchor.latestInstant == Self.at("2024-12-30 12:10"))
        #expect(anchor.movedNote(days: 30) == "latest data 2024-12-30; showing the 30 days to it")
        #expect(anchor.movedNote(days: 1) == "latest data 2024-12-30; showing that day")
        #expect(anchor.snapshotNote == "latest data 2024-12-30; the snapshot is as of its newest sample")
        // A snapshot "now" is taken as of the newest sample.
        #expect(anchor.instant(now: Self.at("2025-12-31 20:00")) == Self.at("2024-12-30 12:10"))
        // An empty range says where the data is; a range that reaches it says nothing.
        #expect(
            anchor.emptyNote(from: Self.day("2025-12-02"), through: Self.day("2025-12-31"))
                == "no data from 2025-12-02 to 2025-12-31; the data runs from 2024-06-01 to 2024-12-30")
        #expect(
            anchor.emptyNote(from: Self.day("2025-12-31"), through: Self.day("2025-12-31"))
                == "no data on 2025-12-31; the data runs from 2024-06-01 to 2024-12-30")
        #expect(anchor.emptyNote(from: Self.day("2024-12-01"), through: Self.day("2024-12-30")) == nil)
        #expect(anchor.holdsData(from: Self.day("2024-12-30"), through: Self.day("2025-01-05")))
        #expect(!anchor.holdsData(from: Self.day("2024-12-31"), through: Self.day("2025-01-05")))
    }

    @Test func i33_lastday_aStoreWithTodaysDataShowsToday() {
        let today = DataAnchor(spans: Self.spans, today: Self.day("2024-12-30"), zone: Self.utc)
        #expect(!today.moved && today.day == Self.day("2024-12-30"))
        #expect(today.movedNote(days: 30) == nil && today.snapshotNote == nil)
        #expect(today.instant(now: Self.at("2024-12-30 20:00")) == Self.at("2024-12-30 20:00"))
        // Data after "today" (a clock that is behind): today still.
        let behind = DataAnchor(spans: Self.spans, today: Self.day("2024-12-29"), zone: Self.utc)
        #expect(!behind.moved && behind.day == Self.day("2024-12-29"))
    }

    @Test func i33_lastday_anEmptyStoreStaysOnTodayAndSaysItHoldsNothing() {
        let anchor = DataAnchor(spans: [], today: Self.day("2025-12-31"), zone: Self.utc)
        #expect(anchor.days.isEmpty && anchor.latestDay == nil && anchor.firstDay == nil && anchor.latestInstant == nil)
        #expect(!anchor.moved && anchor.day == Self.day("2025-12-31") && anchor.movedNote(days: 7) == nil)
        #expect(
            anchor.emptyNote(from: Self.day("2025-12-25"), through: Self.day("2025-12-31"))
                == "no data from 2025-12-25 to 2025-12-31; the store holds no data")
        #expect(anchor.instant(now: Self.at("2025-12-31 20:00")) == Self.at("2025-12-31 20:00"))
    }

    /// A sample's last day is the one its last second falls in, in the zone given.
    @Test func i33_lastday_theLastDayIsTheLastSecondsDayInTheZone() {
        // Steps counted until midnight belong to the day before.
        let midnight = [SampleTypeSpan(type: .stepCount, first: Self.at("2024-12-30 23:55"), last: Self.at("2024-12-31 00:00"))]
        #expect(DataAnchor.days(of: midnight, in: Self.utc)[.steps] == Self.day("2024-12-30")...Self.day("2024-12-30"))
        // 2024-12-31 03:00 UTC is 2024-12-30 19:00 in Los Angeles.
        let evening = [SampleTypeSpan(type: .stepCount, first: Self.at("2024-12-30 16:00"), last: Self.at("2024-12-31 03:00"))]
        let losAngeles = TimeZone(identifier: "America/Los_Angeles")!
        #expect(DataAnchor.days(of: evening, in: Self.utc)[.steps] == Self.day("2024-12-30")...Self.day("2024-12-31"))
        #expect(DataAnchor.days(of: evening, in: losAngeles)[.steps] == Self.day("2024-12-30")...Self.day("2024-12-30"))
        let anchor = DataAnchor(spans: evening, today: Self.day("2025-12-31"), zone: losAngeles)
        #expect(anchor.day == Self.day("2024-12-30"))
        // A span is never shorter than nothing.
        #expect(
            SampleTypeSpan(type: .stepCount, first: Self.at("2024-12-30 16:00"), last: Self.at("2024-12-30 15:00")).last
                == Self.at("2024-12-30 16:00"))
        #expect(
            SampleTypeSpan.union(Self.spans)
                == DateInterval(start: Self.at("2024-06-01 08:00"), end: Self.at("2024-12-30 12:10")))
        #expect(SampleTypeSpan.union([]) == nil)
    }

    /// A reader never learns where data it may not see ends: withheld kinds do not count.
    @Test func i33_lastday_withheldKindsDoNotMoveTheAnchor() {
        let anchor = DataAnchor(
            spans: Self.spans, today: Self.day("2025-12-31"), zone: Self.utc, excluding: [.steps, .heart, .sleep])
        #expect(anchor.days.keys.sorted() == [.body])
        #expect(anchor.day == Self.day("2024-06-01") && anchor.latestInstant == Self.at("2024-06-01 08:00"))
        let noSteps = DataAnchor(spans: Self.spans, today: Self.day("2025-12-31"), zone: Self.utc, excluding: [.steps])
        #expect(noSteps.latestInstant == Self.at("2024-12-30 12:00") && noSteps.firstDay == Self.day("2024-06-01"))
    }

    /// Days known beside the samples (the server's days, posted as days) are data too.
    @Test func i33_lastday_daysFromElsewhereCountAsData() {
        let anchor = DataAnchor(spans: Self.spans, today: Self.day("2025-12-31"), zone: Self.utc)
            .including(Self.day("2025-06-01"))
        #expect(anchor.moved && anchor.day == Self.day("2025-06-01") && anchor.latestDay == Self.day("2025-06-01"))
        #expect(anchor.holdsData(from: Self.day("2025-06-01"), through: Self.day("2025-06-01")))
        #expect(anchor.otherDays == Self.day("2025-06-01")...Self.day("2025-06-01"))
        // Up to today: not moved.
        let fresh = DataAnchor(spans: [], today: Self.day("2025-12-31"), zone: Self.utc).including(Self.day("2025-12-31"))
        #expect(!fresh.moved && fresh.day == Self.day("2025-12-31") && fresh.firstDay == Self.day("2025-12-31"))
    }

    /// The in-memory store's spans: per type, the first start and the latest end, by type.
    @Test func i33_lastday_theInMemoryStoreAnswersItsSpans() async {
        func sample(_ type: SampleType, _ start: String, _ end: String) -> Sample {
            Sample(
                type: type, start: Self.at(start), end: Self.at(end), value: .quantity(1, unit: "count"),
                source: Source(name: "W"))
        }
        let store = InMemoryHealthStore(samples: [
            sample(.stepCount, "2024-12-30 12:00", "2024-12-30 12:10"),
            sample(.stepCount, "2024-12-28 12:00", "2024-12-28 12:10"),
            // A long sample that starts earlier and ends later than the last one.
            sample(.stepCount, "2024-12-29 12:00", "2024-12-30 13:00"),
            sample(.restingHeartRate, "2024-12-30 12:00", "2024-12-30 12:00"),
        ])
        #expect(
            await store.sampleSpans() == [
                SampleTypeSpan(type: .restingHeartRate, first: Self.at("2024-12-30 12:00"), last: Self.at("2024-12-30 12:00")),
                SampleTypeSpan(type: .stepCount, first: Self.at("2024-12-28 12:00"), last: Self.at("2024-12-30 13:00")),
            ])
        #expect(await InMemoryHealthStore().sampleSpans() == [])
    }
}

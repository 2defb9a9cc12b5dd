import Foundation
import Testing

@testable import HealthCore

@Suite struct ExportDateTests {
    @Test func exportFormatGivesTheRightInstant() throws {
        let parsed = try #require(ExportDate.parse("2019-01-01 08:00:00 -0800"))
        // 2019-01-01T16:00:00Z
        #expect(parsed.date.timeIntervalSince1970 == 1_546_358_400)
        #expect(parsed.utcOffsetSeconds == -28800)
    }

    @Test func sameInstantWrittenAtDifferentOffsets() throws {
        let winter = try #require(ExportDate.parse("2024-01-15 07:30:00 -0800"))
        let summerExport = try #require(ExportDate.parse("2024-01-15 08:30:00 -0700"))
        #expect(winter.date == summerExport.date)
    }

    @Test func otherOffsetsAndForms() throws {
        #expect(ExportDate.parse("2020-06-01 06:06:25 +0530")?.date.timeIntervalSince1970 == 1_590_971_785)
        #expect(ExportDate.parse("2024-06-15T10:00:00Z")?.date.timeIntervalSince1970 == 1_718_445_600)
        #expect(ExportDate.parse("2024-06-15T10:00:00.250Z")?.date.timeIntervalSince1970 == 1_718_445_600.25)
        #expect(ExportDate.parse("2024-06-15 12:00:00 +02:00")?.date.timeIntervalSince1970 == 1_718_445_600)
        #expect(ExportDate.parse("1969-12-31 23:59:59 +0000")?.date.timeIntervalSince1970 == -1)
    }

    @Test func rejectsWhatIsNotADate() {
        for text in [
            "", "2019-01-01", "2019-13-01 08:00:00 -0800", "2019-01-01 25:00:00 -0800", "2019-01-01 08:00:00 PST",
            "418 cm", "2019-01-01 08:00:00 -0800x",
        ] {
            #expect(ExportDate.parse(text) == nil, "\(text)")
        }
    }

    @Test func formatRoundTrips() throws {
        let text = "2024-03-10 01:59:59 -0800"
        let parsed = try #require(ExportDate.parse(text))
        #expect(ExportDate.format(parsed.date, utcOffsetSeconds: parsed.utcOffsetSeconds) == text)
        #expect(ExportDate.format(Date(timeIntervalSince1970: -1), utcOffsetSeconds: 3600) == "1970-01-01 00:59:59 +0100")
    }

    @Test func civilDayArithmeticAgreesWithFoundation() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for days in stride(from: -135_000, through: 157_000, by: 97) {  // 1600…2399: Foundation is Julian before 1582
            let date = Date(timeIntervalSince1970: Double(days) * 86400)
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            let civil = CivilDays.date(days)
            #expect(civil.year == parts.year && civil.month == parts.month && civil.day == parts.day)
            #expect(CivilDays.days(year: civil.year, month: civil.month, day: civil.day) == days)
        }
    }
}

/// Found attacking: a duration of 1e307 minutes is a finite number but not a finite number of
/// seconds; every list that encoded it answered 500.
@Suite struct I35DurationSecondsTests {
    @Test func aDurationWhoseSecondsAreNotFiniteIsNone() {
        #expect(Workout.seconds(1e307, unit: "min") == nil)
        #expect(Workout.seconds(30, unit: "min") == 1800)
        let t0 = Date(timeIntervalSince1970: 1_717_228_800)
        let workout = Workout(
            activityType: "HKWorkoutActivityTypeRunning", start: t0, end: t0 + 600, duration: 1e307, durationUnit: "min",
            source: Source(name: "Watch"))
        #expect(workout.durationSeconds == 600)
        #expect(PlausibleRange.violation(of: .workout(workout))?.hasPrefix("duration must be") == true)
    }
}

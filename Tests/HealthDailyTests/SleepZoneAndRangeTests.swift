import Foundation
import HealthCore
import HealthMetrics
import Testing

@testable import HealthDaily

@Suite struct SleepTests {
    /// Watch: core 23:00–01:00, deep 01:00–02:00, awake 02:00–02:15, REM 02:15–04:00,
    /// core 04:00–07:00 = 7 h 45 min asleep; a nap the next afternoon.
    static let night = [
        Build.sleep("2024-03-04T23:00:00-08:00", "2024-03-05T01:00:00-08:00", "AsleepCore", device: Build.watch, source: "Watch"),
        Build.sleep("2024-03-05T01:00:00-08:00", "2024-03-05T02:00:00-08:00", "AsleepDeep", device: Build.watch, source: "Watch"),
        Build.sleep("2024-03-05T02:00:00-08:00", "2024-03-05T02:15:00-08:00", "Awake", device: Build.watch, source: "Watch"),
        Build.sleep("2024-03-05T02:15:00-08:00", "2024-03-05T04:00:00-08:00", "AsleepREM", device: Build.watch, source: "Watch"),
        Build.sleep("2024-03-05T04:00:00-08:00", "2024-03-05T07:00:00-08:00", "AsleepCore", device: Build.watch, source: "Watch"),
        Build.sleep("2024-03-05T14:00:00-08:00", "2024-03-05T14:40:00-08:00", "AsleepCore", device: Build.watch, source: "Watch"),
    ]

    @Test func a23To07NightAndANap() async throws {
        let days = try await Build.normalizer(Self.night).metrics(from: Build.day("2024-03-05"), through: Build.day("2024-03-06"))
        #expect(days[0].sleepHours == 7.75)
        #expect(days[1].sleepHours == nil)  // the 14:00 nap is in no night's window
    }

    @Test func watchIPhoneAndAThirdPartyAppOnOneNightCountOnce() async throws {
        let others = [
            Build.sleep("2024-03-04T22:50:00-08:00", "2024-03-05T07:10:00-08:00", "InBed", device: Build.phone, source: "iPhone"),
            Build.sleep(
                "2024-03-04T23:00:00-08:00", "2024-03-05T07:30:00-08:00", "AsleepUnspecified", device: Build.phone,
                source: "iPhone"),
            Build.sleep(
                "2024-03-04T23:10:00-08:00", "2024-03-05T03:00:00-08:00", "AsleepUnspecified", device: nil, source: "AutoSleep"),
            Build.sleep(
                "2024-03-05T02:50:00-08:00", "2024-03-05T07:00:00-08:00", "AsleepUnspecified", device: nil, source: "AutoSleep"),
        ]
        let all = try await Build.normalizer(Self.night + others).metrics(for: Build.day("2024-03-05"))
        #expect(all.sleepHours == 7.75)  // the Watch's night, nothing added
        // Without the Watch: the app (no device) before the iPhone; its overlapping samples once.
        let appAndPhone = try await Build.normalizer(others).metrics(for: Build.day("2024-03-05"))
        #expect(appAndPhone.sleepHours == 7 + 50.0 / 60)  // 23:10–07:00
    }

    @Test func theWindowEndsAtNoonOfTheDay() {
        let day = LocalDay(date: Build.day("2024-03-05"), zone: Build.la)
        #expect(day.sleepWindow.start == Build.at("2024-03-04T18:00:00-08:00"))
        #expect(day.sleepWindow.end == Build.at("2024-03-05T12:00:00-08:00"))
        let samples = [
            Build.sleep("2024-03-05T10:00:00-08:00", "2024-03-05T13:00:00-08:00", "AsleepCore", device: Build.watch, source: "W")
        ]
        #expect(SleepRule.asleepSeconds(samples, window: day.sleepWindow) == 7200)
    }
}

@Suite struct ZoneTests {
    /// Sleep in Los Angeles until the night of 5→6 March, then nights in Paris.
    static func travel() -> [Sample] {
        var samples: [Sample] = []
        for (night, zone) in [("04", "-08:00"), ("05", "-08:00"), ("07", "+01:00"), ("08", "+01:00")] {
            let name = zone == "-08:00" ? "America/Los_Angeles" : "Europe/Paris"
            let next = String(format: "%02d", Int(night)! + 1)
            samples.append(
                Build.sleep(
                    "2024-03-\(night)T23:00:00\(zone)", "2024-03-\(next)T07:00:00\(zone)", "AsleepCore", device: Build.watch,
                    source: "Watch", zone: name))
        }
        // Steps on the flight day, 6 March: 10:00 LA (walking to the gate).
        samples.append(Build.steps("2024-03-06T10:00:00-08:00", "2024-03-06T10:20:00-08:00", 1500, device: Build.watch))
        return samples
    }

    /// The flight leaves on the evening of 6 March; the first evidence of Paris is the night
    /// that starts at 23:00 Paris on 7 March. By the rule, 7 March (whose noon comes before
    /// that evidence) is still a Los Angeles day, ending where the first Paris day begins.
    @Test func aTripFromLosAngelesToParisGivesParisDays() async throws {
        let days = try await Build.normalizer(Self.travel()).metrics(
            from: Build.day("2024-03-05"), through: Build.day("2024-03-09"))
        #expect(
            days.map(\.timezoneIdentifier) == [
                "America/Los_Angeles", "America/Los_Angeles", "America/Los_Angeles", "Europe/Paris", "Europe/Paris",
            ])
        #expect(days[1].utcDayStart == Build.at("2024-03-06T08:00:00Z"))
        #expect(days[1].utcDayEnd == Build.at("2024-03-07T08:00:00Z"))
        #expect(days[1].stepsNormalized == 1500)
        // The travel day ends where the first Paris day begins (00:00 Paris = 23:00Z).
        #expect(days[2].utcDayStart == Build.at("2024-03-07T08:00:00Z"))
        #expect(days[2].utcDayEnd == Build.at("2024-03-07T23:00:00Z"))
        #expect(days[3].utcDayStart == Build.at("2024-03-07T23:00:00Z"))
        #expect(days.map(\.sleepHours) == [8, 8, nil, 8, 8])
    }

    @Test func anExplicitZoneWins() async throws {
        let days = try await Build.normalizer(Self.travel(), explicit: Build.la).metrics(
            from: Build.day("2024-03-07"), through: Build.day("2024-03-08"))
        #expect(days.map(\.timezoneIdentifier) == ["America/Los_Angeles", "America/Los_Angeles"])
    }

    @Test func withoutEvidenceTheHomeZone() {
        let timeline = ZoneTimeline(
            home: Build.perth,
            observations: [ZoneTimeline.Observation(instant: Build.at("2024-01-01T12:00:00Z"), zone: Build.paris)])
        #expect(timeline.zone(for: Build.day("2024-01-03")) == Build.paris)
        #expect(timeline.zone(for: Build.day("2024-02-01")) == Build.perth)  // evidence too old
        #expect(timeline.zone(for: Build.day("2023-12-31")) == Build.paris)  // evidence within 2 days after
        #expect(timeline.zone(for: Build.day("2023-12-01")) == Build.perth)
    }
}

@Suite struct RangeTests {
    @Test func lastNDaysEndsTodayOldestFirst() async throws {
        // 10:00Z on 6 March is 02:00 in Los Angeles: today is 6 March there.
        let normalizer = Build.normalizer([])
        #expect(try await normalizer.today() == Build.day("2024-03-06"))
        let days = try await normalizer.lastNDays(3)
        #expect(days.map(\.localDate) == ["2024-03-04", "2024-03-05", "2024-03-06"])
        #expect(days.allSatisfy { $0.createdAt == Build.at("2024-03-06T10:00:00Z") })
        let long = try await normalizer.lastNDays(200)
        #expect(long.count == 200)
        #expect(long.first?.localDate == "2023-08-20" && long.last?.localDate == "2024-03-06")
        #expect(zip(long, long.dropFirst()).allSatisfy { $0.utcDayEnd == $1.utcDayStart })
    }

    @Test func suspiciousStepsRule() {
        let history = Array(repeating: 8000, count: 10)
        #expect(SuspiciousStepsRule.isSuspicious(steps: 24001, trailing: history))
        #expect(!SuspiciousStepsRule.isSuspicious(steps: 24000, trailing: history))
        #expect(SuspiciousStepsRule.isSuspicious(steps: 799, trailing: history))
        #expect(!SuspiciousStepsRule.isSuspicious(steps: 800, trailing: history))
        #expect(!SuspiciousStepsRule.isSuspicious(steps: 90000, trailing: Array(history.prefix(6))))
        #expect(!SuspiciousStepsRule.isSuspicious(steps: 90000, trailing: Array(repeating: 900, count: 20)))
        // The median (13,500) ignores the one wild day: 3 × 13,500 = 40,500.
        #expect(
            !SuspiciousStepsRule.isSuspicious(steps: 40500, trailing: [1000, 2000, 12000, 13000, 14000, 15000, 16000, 90000]))
        #expect(SuspiciousStepsRule.isSuspicious(steps: 40501, trailing: [1000, 2000, 12000, 13000, 14000, 15000, 16000, 90000]))
    }

    @Test func suspiciousDayIsFlaggedInThePayload() async throws {
        var samples = (1...12).map { day in
            Build.steps(
                String(format: "2024-03-%02dT09:00:00-08:00", day), String(format: "2024-03-%02dT10:00:00-08:00", day), 6000,
                device: Build.watch)
        }
        samples.append(Build.steps("2024-03-13T09:00:00-07:00", "2024-03-13T10:00:00-07:00", 19000, device: Build.watch))
        let days = try await Build.normalizer(samples).metrics(from: Build.day("2024-03-12"), through: Build.day("2024-03-13"))
        #expect(days.map { $0.stepsSources?.suspiciousSteps } == [false, true])
    }

    @Test func payloadRoundTripsInTheBackendSchema() async throws {
        var day = try await Build.normalizer(StepsAndEnergyTests.overlapping).metrics(for: Build.day("2024-03-05"))
        day.userID = "user-1"
        let data = try NormalizedDailyMetrics.backendEncoder().encode(day)
        let object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        #expect(
            Set(object.keys) == [
                "user_id", "local_date", "timezone", "utc_day_start", "utc_day_end", "steps_normalized", "steps_raw_sum",
                "steps_sources_json", "active_energy_kcal", "sleep_hours", "sleep_source_json", "resting_hr_bpm", "hrv_ms",
                "normalization_version", "created_at",
            ])
        #expect(object["utc_day_start"] as? String == "2024-03-05T08:00:00Z")
        #expect((object["steps_sources_json"] as? [String: Any])?["primary_source"] as? String == "apple_watch")
        #expect(try NormalizedDailyMetrics.backendDecoder().decode(NormalizedDailyMetrics.self, from: data) == day)
    }
}

import Foundation
import HealthCore
import Testing

@testable import HealthDaily

@Suite struct SleepSessionTests {
    static func analyzer(_ samples: [Sample], home: TimeZone = Build.la) -> SleepAnalyzer {
        var configuration = DailyNormalizer.Configuration()
        configuration.homeZone = home
        return SleepAnalyzer(store: InMemoryHealthStore(samples: samples), configuration: configuration)
    }

    static func night(_ date: String, _ samples: [Sample], home: TimeZone = Build.la) async throws -> SleepNight {
        try await analyzer(samples, home: home).nights(from: Build.day(date), through: Build.day(date))[0]
    }

    /// Bed after midnight: in bed 00:40–07:20 (iPhone schedule, same app as the stages here:
    /// an Oura-like wearable), asleep 00:55–07:10 with two awakenings.
    static let lateNight = [
        Build.sleep(
            "2024-03-05T00:40:00-08:00", "2024-03-05T07:20:00-08:00", "InBed", device: Device(name: "Oura"), source: "Oura"),
        Build.sleep(
            "2024-03-05T00:55:00-08:00", "2024-03-05T02:30:00-08:00", "AsleepCore", device: Device(name: "Oura"), source: "Oura"),
        Build.sleep(
            "2024-03-05T02:30:00-08:00", "2024-03-05T02:40:00-08:00", "Awake", device: Device(name: "Oura"), source: "Oura"),
        Build.sleep(
            "2024-03-05T02:40:00-08:00", "2024-03-05T04:00:00-08:00", "AsleepDeep", device: Device(name: "Oura"), source: "Oura"),
        Build.sleep(
            "2024-03-05T04:00:00-08:00", "2024-03-05T05:30:00-08:00", "AsleepREM", device: Device(name: "Oura"), source: "Oura"),
        Build.sleep(
            "2024-03-05T05:30:00-08:00", "2024-03-05T05:45:00-08:00", "Awake", device: Device(name: "Oura"), source: "Oura"),
        Build.sleep(
            "2024-03-05T05:45:00-08:00", "2024-03-05T07:10:00-08:00", "AsleepCore", device: Device(name: "Oura"), source: "Oura"),
    ]

    @Test func bedAfterMidnightWithEfficiencyStagesAndAwakenings() async throws {
        let night = try await Self.night("2024-03-05", Self.lateNight)
        let main = try #require(night.main)
        #expect(main.bedtime == Build.at("2024-03-05T00:40:00-08:00"))
        #expect(main.waketime == Build.at("2024-03-05T07:20:00-08:00"))
        #expect(main.inBedSeconds == 400 * 60)  // 6 h 40 min
        #expect(main.asleepSeconds == Double(350 * 60))  // 95 + 80 + 90 + 85 min
        #expect(main.efficiency == 87.5)
        let expectedStages: [SleepStage: Double] = [.inBed: 1500, .core: 10800, .awake: 1500, .deep: 4800, .rem: 5400]
        #expect(main.stageSeconds == expectedStages)
        #expect(main.awakenings == 2)
        #expect(night.naps.isEmpty)
        #expect(ClockTime.format(main.bedtime, in: Build.la) == "00:40")
    }

    @Test func aNapIsNeverTheMainSleep() async throws {
        let night = try await Self.night("2024-03-05", SleepTests.night)
        #expect(night.main?.asleepSeconds == 7.75 * 3600)
        #expect(night.naps.map(\.asleepSeconds) == [Double(40 * 60)])
        #expect(night.naps.first?.bedtime == Build.at("2024-03-05T14:00:00-08:00"))
        // A day with only a nap has no main sleep.
        let napOnly = try await Self.night("2024-03-05", [SleepTests.night[5]])
        #expect(napOnly.main == nil && napOnly.naps.count == 1)
    }

    @Test func watchIPhoneAndAppOnOneNightCountOnce() async throws {
        let others = [
            Build.sleep("2024-03-04T22:50:00-08:00", "2024-03-05T07:10:00-08:00", "InBed", device: Build.phone, source: "iPhone"),
            Build.sleep(
                "2024-03-04T23:10:00-08:00", "2024-03-05T07:00:00-08:00", "AsleepUnspecified", device: nil, source: "AutoSleep"),
        ]
        let night = try await Self.night("2024-03-05", SleepTests.night + others)
        #expect(night.source == "Watch")
        #expect(night.main?.asleepSeconds == 7.75 * 3600)
        // No in-bed samples from the Watch (watchOS 11): time in bed is the session span.
        #expect(night.main?.inBedSeconds == 28800.0)
        #expect(night.main?.bedtime == Build.at("2024-03-04T23:00:00-08:00"))
        #expect(night.main?.awakenings == 1)
        let withoutWatch = try await Self.night("2024-03-05", others)
        #expect(withoutWatch.source == "AutoSleep")
        #expect(withoutWatch.main?.asleepSeconds == 28200.0)  // 23:10–07:00
    }

    @Test func fragmentsWithinThirtyMinutesAreOneSession() {
        let samples = [
            Build.sleep("2024-03-04T23:00:00-08:00", "2024-03-05T02:00:00-08:00", "AsleepCore", device: Build.watch, source: "W"),
            Build.sleep("2024-03-05T02:30:00-08:00", "2024-03-05T06:00:00-08:00", "AsleepCore", device: Build.watch, source: "W"),
            Build.sleep("2024-03-05T06:31:00-08:00", "2024-03-05T07:00:00-08:00", "AsleepCore", device: Build.watch, source: "W"),
        ]
        let sessions = SleepSessionBuilder.sessions(samples)
        let expected: [Double?] = [23400, 1740]  // 6 h 30 min; 29 min
        #expect(sessions.map(\.asleepSeconds) == expected)
        #expect(sessions[0].inBedSeconds == 7 * 3600)  // the span, gap included
    }

    @Test func bedtimeAndWaketimeInTheUsersZoneAndATravelNight() async throws {
        let nights = try await Self.analyzer(ZoneTests.travel()).nights(
            from: Build.day("2024-03-05"), through: Build.day("2024-03-09"))
        #expect(nights.map(\.timezoneIdentifier).suffix(2) == ["Europe/Paris", "Europe/Paris"])
        let paris = try #require(nights[3].main)
        #expect(ClockTime.format(paris.bedtime, in: Build.paris) == "23:00")
        #expect(ClockTime.format(paris.waketime, in: Build.paris) == "07:00")
        #expect(nights[2].main == nil)  // the flight
        #expect(ClockTime.format(try #require(nights[0].main).bedtime, in: Build.la) == "23:00")
    }

    @Test func circularMeanOfBedtimes() {
        #expect(ClockTime.circularMean(secondsOfDay: [84600, 1800]) == 0.0)  // 23:30 and 00:30
        #expect(ClockTime.circularMean(secondsOfDay: [79200, 82800, 0]) == 82800.0)  // 22:00, 23:00, 00:00
        #expect(ClockTime.circularMean(secondsOfDay: [21600, 64800]) == nil)  // 06:00 and 18:00
        #expect(ClockTime.circularMean(secondsOfDay: []) == nil)
    }
}

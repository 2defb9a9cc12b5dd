import Foundation
import HealthCore
import HealthMetrics
import Testing

@testable import HealthDaily

@Suite struct StepsAndEnergyTests {
    /// Watch 08:00–08:20 (500 + 400), iPhone 08:00–08:30 (1000, touches Watch coverage),
    /// iPhone 06:00–06:30 (300, before the Watch went on), Strava 08:00–08:10 (200, no device).
    static let overlapping = [
        Build.steps("2024-03-05T08:00:00-08:00", "2024-03-05T08:10:00-08:00", 500, device: Build.watch),
        Build.steps("2024-03-05T08:10:00-08:00", "2024-03-05T08:20:00-08:00", 400, device: Build.watch),
        Build.steps("2024-03-05T08:00:00-08:00", "2024-03-05T08:30:00-08:00", 1000, device: Build.phone),
        Build.steps("2024-03-05T06:00:00-08:00", "2024-03-05T06:30:00-08:00", 300, device: Build.phone),
        Build.steps("2024-03-05T08:00:00-08:00", "2024-03-05T08:10:00-08:00", 200, device: nil, source: "Strava"),
    ]

    @Test func watchAndIPhoneOverlappingAreNotDoubleCounted() async throws {
        let day = try await Build.normalizer(Self.overlapping).metrics(for: Build.day("2024-03-05"))
        #expect(day.stepsNormalized == 1200)  // 500 + 400 + 300
        #expect(day.stepsRawSum == 2400)
        #expect(
            day.stepsSources
                == StepsSourcesMetadata(
                    primarySource: "apple_watch", secondarySourcesUsed: ["iphone"], ignoredSources: ["other"],
                    suspiciousSteps: false, rawSampleCount: 5))
        #expect(day.localDate == "2024-03-05")
        #expect(day.timezoneIdentifier == "America/Los_Angeles")
        #expect(day.utcDayStart == Build.at("2024-03-05T08:00:00Z"))
        #expect(day.utcDayEnd == Build.at("2024-03-06T08:00:00Z"))
        #expect(day.normalizationVersion == "norm_v1")
    }

    @Test func normV2CountsThePhoneForTheUncoveredSeconds() async throws {
        let day = try await Build.normalizer(Self.overlapping, version: .v2).metrics(for: Build.day("2024-03-05"))
        // Watch 900; iPhone 08:00–08:30 has 10 of 30 minutes uncovered: 1000 / 3; 06:00 300 whole;
        // Strava lies under the Watch: 0. 900 + 333.3 + 300 = 1533.3.
        #expect(day.stepsNormalized == 1533)
        #expect(day.stepsSources?.secondarySourcesUsed == ["iphone"])
        #expect(day.stepsSources?.ignoredSources == ["other"])
        #expect(day.normalizationVersion == "norm_v2")
    }

    @Test func iPhoneOnly() async throws {
        let samples = [
            Build.steps("2024-03-05T09:00:00-08:00", "2024-03-05T09:10:00-08:00", 100, device: Build.phone),
            Build.steps("2024-03-05T17:00:00-08:00", "2024-03-05T17:30:00-08:00", 250, device: Build.phone),
        ]
        let day = try await Build.normalizer(samples).metrics(for: Build.day("2024-03-05"))
        #expect(day.stepsNormalized == 350)
        #expect(day.stepsRawSum == 350)
        #expect(day.stepsSources?.primarySource == "iphone")
        #expect(day.stepsSources?.secondarySourcesUsed == [])
        #expect(day.stepsSources?.ignoredSources == [])
    }

    @Test func aSampleAcrossMidnightIsSplitInTheUsersZone() async throws {
        // 23:50–00:10 in Perth (UTC+8, no DST): 100 steps to each day. In UTC both halves
        // would fall on one day (15:50–16:10Z).
        let samples = [Build.steps("2024-03-05T23:50:00+08:00", "2024-03-06T00:10:00+08:00", 200, device: Build.phone)]
        let days = try await Build.normalizer(samples, home: Build.perth).metrics(
            from: Build.day("2024-03-05"), through: Build.day("2024-03-06"))
        #expect(days.map(\.stepsNormalized) == [100, 100])
        #expect(days.map(\.timezoneIdentifier) == ["Australia/Perth", "Australia/Perth"])
        #expect(days[1].utcDayStart == Build.at("2024-03-05T16:00:00Z"))
        let utc = try await Build.normalizer(samples, home: TimeZone(identifier: "UTC")!).metrics(for: Build.day("2024-03-05"))
        #expect(utc.stepsNormalized == 200)
    }

    @Test func theSameInstantsBelongToDifferentDaysInDifferentZones() async throws {
        // 20:00Z on 5 March is noon in Los Angeles and 04:00 on 6 March in Perth.
        let samples = [Build.steps("2024-03-05T20:00:00Z", "2024-03-05T20:10:00Z", 500, device: Build.watch)]
        let la = try await Build.normalizer(samples, home: Build.la).metrics(
            from: Build.day("2024-03-05"), through: Build.day("2024-03-06"))
        let perth = try await Build.normalizer(samples, home: Build.perth).metrics(
            from: Build.day("2024-03-05"), through: Build.day("2024-03-06"))
        #expect(la.map(\.stepsNormalized) == [500, nil])
        #expect(perth.map(\.stepsNormalized) == [nil, 500])
        #expect(perth[1].utcDayStart == Build.at("2024-03-05T16:00:00Z"))
        #expect(la[0].utcDayStart == Build.at("2024-03-05T08:00:00Z"))
    }

    @Test func dstDaysAre23And25HoursLong() async throws {
        // Spring forward in Los Angeles on 10 March 2024 (23 h), back on 3 November (25 h).
        let samples = [
            Build.steps("2024-03-11T06:30:00Z", "2024-03-11T07:30:00Z", 600, device: Build.phone),
            Build.steps("2024-11-04T07:30:00Z", "2024-11-04T08:30:00Z", 600, device: Build.phone),
        ]
        let normalizer = Build.normalizer(samples)
        let spring = try await normalizer.metrics(from: Build.day("2024-03-10"), through: Build.day("2024-03-11"))
        #expect(spring[0].utcDayStart == Build.at("2024-03-10T08:00:00Z"))
        #expect(spring[0].utcDayEnd == Build.at("2024-03-11T07:00:00Z"))
        #expect(spring.map(\.stepsNormalized) == [300, 300])
        let autumn = try await normalizer.metrics(from: Build.day("2024-11-03"), through: Build.day("2024-11-04"))
        #expect(autumn[0].utcDayEnd.timeIntervalSince(autumn[0].utcDayStart) == 25 * 3600)
        #expect(autumn[0].utcDayEnd == Build.at("2024-11-04T08:00:00Z"))
        #expect(autumn.map(\.stepsNormalized) == [300, 300])
    }

    @Test func energyFromKilojoulesAndCaloriesWithTheSameGuard() async throws {
        let samples = [
            Build.energy("2024-03-05T08:00:00-08:00", "2024-03-05T08:30:00-08:00", 418.4, unit: "kJ", device: Build.watch),
            Build.energy("2024-03-05T12:00:00-08:00", "2024-03-05T12:30:00-08:00", 50, unit: "Cal", device: Build.watch),
            Build.energy("2024-03-05T08:00:00-08:00", "2024-03-05T09:00:00-08:00", 80, unit: "kcal", device: Build.phone),
            Build.energy("2024-03-05T19:00:00-08:00", "2024-03-05T19:30:00-08:00", 20.5, unit: "kcal", device: Build.phone),
        ]
        let day = try await Build.normalizer(samples).metrics(for: Build.day("2024-03-05"))
        #expect(day.activeEnergyKcal == 170.5)  // 100 + 50 + 20.5; the 80 kcal under the Watch dropped
    }

    @Test func aDayWithoutDataIsAllNull() async throws {
        let day = try await Build.normalizer([]).metrics(for: Build.day("2024-03-05"))
        #expect(day.stepsNormalized == nil && day.stepsRawSum == nil && day.stepsSources == nil)
        #expect(day.activeEnergyKcal == nil && day.sleepHours == nil && day.restingHRBpm == nil && day.hrvMs == nil)
        let json = String(decoding: try NormalizedDailyMetrics.backendEncoder().encode(day), as: UTF8.self)
        #expect(json.contains(#""steps_normalized":null"#) && json.contains(#""sleep_hours":null"#))
    }

    @Test func restingHeartRateAndHRVAreDailyMeans() async throws {
        let samples = [
            Build.quantity(.restingHeartRate, "2024-03-05T07:00:00-08:00", 54, unit: "count/min"),
            Build.quantity(.restingHeartRate, "2024-03-05T19:00:00-08:00", 57, unit: "count/min"),
            Build.quantity(.heartRateVariabilitySDNN, "2024-03-05T02:00:00-08:00", 40, unit: "ms"),
            Build.quantity(.heartRateVariabilitySDNN, "2024-03-05T03:00:00-08:00", 0.061, unit: "s"),
            Build.quantity(.heartRateVariabilitySDNN, "2024-03-06T03:00:00-08:00", 90, unit: "ms"),
        ]
        let day = try await Build.normalizer(samples).metrics(for: Build.day("2024-03-05"))
        #expect(day.restingHRBpm == 55.5)
        #expect(day.hrvMs == 50.5)
    }
}

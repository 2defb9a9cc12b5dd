import Foundation
import HealthCore
import Testing

@testable import HealthDaily

/// A probe of 2026-11-28: a workout without `HKTimeZone` (Strava's, an iPhone's, an old
/// export's) was shown in the home zone — on a server or a laptop in UTC, UTC — while the
/// days, from the nights' `HKTimeZone`, were New York's: `healthpipe workouts` listed an
/// evening run of November 7 as "2023-11-08 02:30" under the range of November 7, and the
/// CSV, the dashboard's workout page and MCP's details said the same.
@Suite struct WorkoutZoneTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let nights = [
        Build.sleep(
            "2023-11-06T23:00:00-05:00", "2023-11-07T07:00:00-05:00", "AsleepCore", device: Build.watch, source: "Watch",
            zone: "America/New_York"),
        Build.sleep(
            "2023-11-07T23:00:00-05:00", "2023-11-08T07:00:00-05:00", "AsleepCore", device: Build.watch, source: "Watch",
            zone: "America/New_York"),
    ]

    static func run(zone: String? = nil) -> Workout {
        Workout(
            activityType: "HKWorkoutActivityTypeRunning", start: Build.at("2023-11-08T02:30:00Z"),
            end: Build.at("2023-11-08T03:00:00Z"), source: Source(name: "Strava"),
            metadata: zone.map { [MetadataEntry(key: "HKTimeZone", value: $0)] } ?? [])
    }

    @Test func aWorkoutWithoutItsZoneIsInTheZoneOfItsDay() async throws {
        let normalizer = Build.normalizer(Self.nights, home: Self.utc, now: "2023-11-10T12:00:00Z")
        let zone = try await normalizer.zone(of: Self.run())
        #expect(zone.identifier == "America/New_York")
        #expect(LocalDate(Self.run().start, in: zone) == Build.day("2023-11-07"))
        // Its day is the day the normalizer counts it on.
        #expect(try await normalizer.localDay(containing: Self.run().start).date == Build.day("2023-11-07"))
    }

    /// Many at once (the CLI's list, MCP's get_workouts, the dashboard's panel): the same
    /// zones, the days read once.
    @Test func manyWorkoutsAtOnceTakeTheSameZones() async throws {
        let normalizer = Build.normalizer(Self.nights, home: Self.utc, now: "2023-11-10T12:00:00Z")
        let early = Workout(
            activityType: "HKWorkoutActivityTypeWalking", start: Build.at("2023-11-06T12:00:00Z"),
            end: Build.at("2023-11-06T12:30:00Z"), source: Source(name: "iPhone"))
        let workouts = [Self.run(), Self.run(zone: "America/Chicago"), early]
        let zones = try await normalizer.workoutZones(workouts.map { ($0.start, $0.metadata.timeZoneIdentifier) })
        var one: [String] = []
        for workout in workouts { one.append(try await normalizer.zone(of: workout).identifier) }
        #expect(zones.map(\.identifier) == ["America/New_York", "America/Chicago", "America/New_York"])
        #expect(zones.map(\.identifier) == one)
    }

    @Test func theZoneItWasRecordedInAndAnExplicitZoneComeFirst() async throws {
        let normalizer = Build.normalizer(Self.nights, home: Self.utc, now: "2023-11-10T12:00:00Z")
        #expect(try await normalizer.zone(of: Self.run(zone: "America/Chicago")).identifier == "America/Chicago")
        let explicit = Build.normalizer(Self.nights, home: Self.utc, explicit: Build.paris, now: "2023-11-10T12:00:00Z")
        #expect(try await explicit.zone(of: Self.run(zone: "America/Chicago")).identifier == "Europe/Paris")
    }
}

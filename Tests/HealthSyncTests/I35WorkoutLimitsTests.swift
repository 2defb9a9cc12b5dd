import Foundation
import HealthCore
import HealthWire
import Testing

@testable import HealthSync

/// Issue 35 §3, found reviewing: a workout the server would refuse, or whose batch would pass
/// its 16 MiB, would never be taken. The client thins and trims it to what the server takes.
@Suite struct I35WorkoutLimitsTests {
    @Test func aWorkoutIsSentWithinTheServersLimits() throws {
        let t0 = Date(timeIntervalSince1970: 1_717_228_800)
        func route(_ count: Int, from latitude: Double) -> WorkoutRoute {
            WorkoutRoute(
                points: (0..<count).map {
                    RoutePoint(
                        time: t0 + Double($0), latitude: latitude + Double($0) * 1e-7, longitude: 2.123456789012345,
                        elevation: 35.123456789012345, speed: 3.123456789012345, course: 90.12345678901234,
                        horizontalAccuracy: 3.5123456789012345, verticalAccuracy: 2.123456789012345)
                })
        }
        let workout = Workout(
            activityType: "HKWorkoutActivityTypeRunning", start: t0, end: t0 + 86_400, source: Source(name: "Watch"),
            events: (0..<12_000).map { WorkoutEvent(type: "HKWorkoutEventTypeMarker", date: t0 + Double($0)) },
            routes: [route(86_400, from: 48), route(20_000, from: 49)])
        let sent = SyncEngine.withinWireLimits(workout)
        let points = sent.routes.map(\.points)
        #expect(points.reduce(0) { $0 + $1.count } <= SyncEngine.sentPoints)
        #expect(points[0].first == workout.routes[0].points.first && points[0].last == workout.routes[0].points.last)
        #expect(points[1].last == workout.routes[1].points.last)
        #expect(sent.events.count == WorkoutWire.limits.events)
        // Encoded as a batch carries it: under the estimate, and under 16 MiB with room.
        let wire = WorkoutWire(sent)
        let bytes = try SampleWire.encoder().encode(wire).count
        #expect(bytes <= SyncEngine.estimatedBytes(wire))
        #expect(bytes < 16 << 20)
        // The server takes it.
        let header = Sample(
            type: .workout, start: t0, end: t0 + 86_400, value: .category("HKWorkoutActivityTypeRunning"),
            source: Source(name: "Watch"))
        #expect(throws: Never.self) { _ = try wire.workout(header: header, pointer: "/samples/0/workout") }
    }
}

/// Issue 35, found attacking: a store imported before the importer checked route points could
/// hold one the server refuses (a latitude of 1000), and the server's 422 dead-lettered the whole
/// batch. The client sends only plausible points; the server takes what it sends.
@Suite struct I35ImplausiblePointsAreNotSentTests {
    @Test func onlyPlausiblePointsGo() throws {
        let t0 = Date(timeIntervalSince1970: 1_717_228_800)
        let workout = Workout(
            activityType: "HKWorkoutActivityTypeRunning", start: t0, end: t0 + 600, source: Source(name: "Watch"),
            routes: [
                WorkoutRoute(points: [
                    RoutePoint(time: t0, latitude: 48.85, longitude: 2.35, elevation: 35),
                    RoutePoint(time: t0 + 1, latitude: 1000, longitude: 13.4),
                    RoutePoint(time: t0 + 2, latitude: 48.86, longitude: 2.36, elevation: 1e308),
                ])
            ])
        let sent = SyncEngine.withinWireLimits(workout)
        #expect(sent.routes[0].points.map(\.latitude) == [48.85, 48.86])
        #expect(sent.routes[0].points.map(\.elevation) == [35, nil])
        let header = Sample(
            type: .workout, start: t0, end: t0 + 600, value: .category("HKWorkoutActivityTypeRunning"),
            source: Source(name: "Watch"))
        #expect(throws: Never.self) { _ = try WorkoutWire(sent).workout(header: header, pointer: "/samples/0/workout") }
        #expect(throws: WireFieldError.self) {
            _ = try WorkoutWire(workout).workout(header: header, pointer: "/samples/0/workout")
        }
    }

    /// Found reviewing: the same for a statistic ending before it starts, a heart rate of
    /// 1e308, a duration of 1e307 minutes: the workout goes without them, its good figures kept.
    @Test func onlyPlausibleFiguresGo() throws {
        let t0 = Date(timeIntervalSince1970: 1_717_228_800)
        let workout = Workout(
            activityType: "HKWorkoutActivityTypeRunning", start: t0, end: t0 + 600, duration: 1e307, durationUnit: "min",
            totalEnergyBurned: 321.5, totalEnergyBurnedUnit: "kcal", source: Source(name: "Watch"),
            statistics: [
                WorkoutStatistic(type: .heartRate, average: 1e308, unit: "count/min"),
                WorkoutStatistic(type: .stepCount, start: t0 + 60, end: t0, sum: 50, unit: "count"),
                WorkoutStatistic(type: .activeEnergyBurned, start: t0, end: t0 + 600, sum: 321.5, unit: "kcal"),
            ])
        let sent = SyncEngine.withinWireLimits(workout)
        #expect(sent.statistics.map(\.type) == [.activeEnergyBurned])
        #expect(sent.duration == nil && sent.totalEnergyBurned == 321.5)
        let header = Sample(
            type: .workout, start: t0, end: t0 + 600, value: .category("HKWorkoutActivityTypeRunning"),
            source: Source(name: "Watch"))
        #expect(throws: Never.self) { _ = try WorkoutWire(sent).workout(header: header, pointer: "/samples/0/workout") }
    }
}

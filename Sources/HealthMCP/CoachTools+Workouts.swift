import Foundation
import HealthCore
import HealthDaily
import MCP

/// One workout in full for the coach: `get_workout_details` (statistics, events, splits and
/// heart-rate zones) and `get_workout_route` (the route, thinned to a size a model can read).
/// A workout's id is the `id` `get_workouts` gives.
extension CoachTools {
    /// The two tools' definitions (`definitions` lists them after `get_workouts`).
    static var workoutTools: [Tool] {
        let readOnly = Tool.Annotations(readOnlyHint: true, idempotentHint: true, openWorldHint: false)
        let id = Schema.string("The workout's id, as get_workouts gives it.")
        return [
            Tool(
                name: "get_workout_details", title: "One workout in full",
                description:
                    "One workout as it recorded itself: its statistics (energy, distance, heart rate… in their recorded units), events (pauses, laps, segments), splits per km (or mile) from its route, and the time in five heart-rate zones when max_hr is given (50–60–70–80–90 % of it; readings weighted by the time each holds). Kinds the reader may not see are left out and named.",
                inputSchema: Schema.object(
                    [
                        "id": id, "max_hr": Schema.integer("Maximum heart rate for the zones, bpm.", 100...250),
                        "split_unit": Schema.string("km (default) or mi.", oneOf: ["km", "mi"]),
                    ], required: ["id"]), annotations: readOnly, outputSchema: OutputSchema.workoutDetails),
            Tool(
                name: "get_workout_route", title: "A workout's route",
                description:
                    "The workout's route as [latitude, longitude, elevation m or null, seconds from the start or null] points, evenly thinned to max_points (first and last kept), with its length in km. Needs activity data (a route tells the distance).",
                inputSchema: Schema.object(
                    ["id": id, "max_points": Schema.integer("At most this many points (default 500).", 2...2_000)],
                    required: ["id"]), annotations: readOnly, outputSchema: OutputSchema.workoutRoute),
        ]
    }

    func workoutDetails(_ arguments: ToolArguments) async throws -> Answer {
        try arguments.only(["id", "max_hr", "split_unit"])
        let workout = try await requestedWorkout(arguments)
        let maximum = try arguments.integer("max_hr", in: 100...250).map(Double.init)
        let mile = try arguments.choice("split_unit", ["km", "mi"]) == "mi"
        let zone = try await DailyNormalizer(store: source.store, configuration: source.normalization, now: { Date() })
            .zone(of: workout)
        let withheld = source.withheld
        var answer: [String: Value] = [
            "id": .string(workout.uuid.uuidString.lowercased()),
            "activity": .string(HealthKitWorkoutActivities.shortName(workout.activityType)),
            "start": .string(localTime(workout.start, zone)), "end": .string(localTime(workout.end, zone)),
            "duration_minutes": .double(workout.end.timeIntervalSince(workout.start) / 60),
            "statistics": .array(
                workout.statistics.filter { !withheld.contains(HealthDataCategory($0.type)) }.map { statistic in
                    .object([
                        "type": .string(SampleTypeNames.shortName(of: statistic.type) ?? statistic.type.identifier),
                        "sum": .number(statistic.sum),
                        "average": .number(statistic.average), "minimum": .number(statistic.minimum),
                        "maximum": .number(statistic.maximum), "unit": .text(statistic.unit),
                    ])
                }),
            "events": .array(
                workout.events.filter { !withheld.contains(.activity) || !$0.tellsDistance }.map { event in
                    .object([
                        "type": .string(event.type.replacingOccurrences(of: "HKWorkoutEventType", with: "")),
                        "at": .string(localTime(event.date, zone)),
                        "duration_minutes": .number(Workout.seconds(event.duration, unit: event.durationUnit).map { $0 / 60 }),
                    ])
                }),
        ]
        var left: Set<HealthDataCategory> = Set(workout.statistics.map { HealthDataCategory($0.type) }).intersection(withheld)
        var summary =
            "\(HealthKitWorkoutActivities.shortName(workout.activityType)) on \(localTime(workout.start, zone).prefix(10))"
            + ", \(figure(workout.end.timeIntervalSince(workout.start) / 60)) minutes"
        // Splits tell the distance: activity's.
        let points = workout.routes.flatMap(\.points)
        if withheld.contains(.activity) {
            if !points.isEmpty || workout.events.contains(where: \.tellsDistance) { left.insert(.activity) }
        } else {
            let splits = RouteSplits.splits(
                routes: workout.routes.map(\.points), unit: mile ? RouteSplits.mile : RouteSplits.kilometre)
            answer["splits"] = .array(
                splits.map { split in
                    .object([
                        "index": .int(split.index), "meters": .double((split.meters * 10).rounded() / 10),
                        "seconds": .double((split.seconds * 10).rounded() / 10),
                    ])
                })
            answer["split_unit"] = .string(mile ? "mi" : "km")
            if !splits.isEmpty { summary += ", \(splits.count) splits" }
        }
        if withheld.contains(.heart) {
            left.insert(.heart)
        } else {
            let heart = try await WorkoutHeartRate.of(workout, in: source.store, maximum: maximum)
            var rate: [String: Value] = [
                "mean_bpm": .number(heart.meanBpm), "minimum_bpm": .number(heart.minimumBpm),
                "maximum_bpm": .number(heart.maximumBpm), "readings": .int(heart.readings.count),
            ]
            if let zones = heart.zones {
                rate["max_hr"] = .number(heart.maximumHeartRate)
                rate["zones"] = .array(
                    zones.map {
                        .object(["zone": .int($0.zone), "from_bpm": .double($0.fromBpm), "seconds": .double($0.seconds)])
                    })
                rate["below_zones_seconds"] = .number(heart.belowZones)
            }
            answer["heart_rate"] = .object(rate)
            if let mean = heart.meanBpm { summary += ", mean heart rate \(figure(mean)) bpm" }
        }
        answer["withheld"] = .array(left.sorted().map { .string($0.rawValue) })
        return Answer(structured: .object(answer), summary: summary + ".")
    }

    func workoutRoute(_ arguments: ToolArguments) async throws -> Answer {
        try arguments.only(["id", "max_points"])
        let workout = try await requestedWorkout(arguments)
        let limit = try arguments.integer("max_points", in: 2...2_000) ?? 500
        let points = workout.routes.flatMap(\.points).filter {
            $0.latitude.isFinite && $0.longitude.isFinite && abs($0.latitude) <= 90 && abs($0.longitude) <= 180
        }
        guard !points.isEmpty else {
            throw ToolError(message: "this workout recorded no route", hint: "get_workouts lists the workouts; some have none.")
        }
        let length = zip(points, points.dropFirst()).reduce(0) { $0 + RouteSplits.distance($1.0, $1.1) }
        let rounded = { (value: Double, scale: Double) in Value.double((value * scale).rounded() / scale) }
        let thinned = points.thinned(to: limit).map { point -> Value in
            .array([
                rounded(point.latitude, 100_000), rounded(point.longitude, 100_000),
                point.elevation.flatMap { $0.isFinite ? rounded($0, 10) : nil } ?? .null,
                point.time.map { rounded($0.timeIntervalSince(workout.start), 1) } ?? .null,
            ])
        }
        var answer: [String: Value] = [
            "id": .string(workout.uuid.uuidString.lowercased()), "points": .array(thinned),
            "recorded_points": .int(points.count), "columns": .array(["latitude", "longitude", "elevation_m", "seconds"]),
        ]
        answer["length_km"] = .double((length / 10).rounded() / 100)
        return Answer(
            structured: .object(answer),
            summary: "Route of \(points.count) points" + (points.count > thinned.count ? ", \(thinned.count) shown" : "")
                + ", \(figure(length / 1000, 2)) km.")
    }

    /// The workout `id` names, or a tool error that says how to find one.
    private func requestedWorkout(_ arguments: ToolArguments) async throws -> Workout {
        guard let text = try arguments.string("id"), let uuid = UUID(uuidString: text) else {
            throw ToolError(message: "id must be a workout's id (a UUID)", hint: "get_workouts gives each workout's id.")
        }
        guard let workout = try await source.store.workout(uuid) else {
            throw ToolError(message: "no workout with id \(uuid.uuidString.lowercased())", hint: "get_workouts lists them.")
        }
        return workout
    }
}

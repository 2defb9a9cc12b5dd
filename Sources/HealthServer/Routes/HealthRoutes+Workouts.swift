import Foundation
import HealthCore
import HealthDaily
import HealthExport
import HealthWire
import Hummingbird

/// Workouts as recorded: the list, one workout with its events, and its route as GPX or
/// GeoJSON. Every route needs the `workouts` kind; a workout's energy total needs `energy`,
/// its distance `activity`, each statistic its own type's kind — left out otherwise, and
/// named in `HealthPipe-Withheld`.
extension HealthRoutes {
    var workoutRoutes: RouteCollection<AuthenticatedContext> {
        Self.collection()
            .get("workouts", use: getWorkouts)
            .get("workouts/{id}", use: getWorkout)
            .get("workouts/{id}/route", use: getWorkoutRoute)
            .get("workouts/{id}/heart-rate", use: getWorkoutHeartRate)
    }

    /// `GET /v1/workouts?from=&to=[&tz=&type=&min_minutes=]`: the workouts that start in the
    /// local days `from` through `to` (in the data's zones, else `tz`, default UTC), oldest first; `type` keeps
    /// one activity (`running` or `HKWorkoutActivityTypeRunning`), `min_minutes` the workouts
    /// at least that long.
    func getWorkouts(_ request: Request, _ context: AuthenticatedContext) async throws -> EditedResponse<WorkoutListAnswer> {
        let access = try await readAccess(context)
        try access.require([.workouts])
        let (first, last) = try range(request, maxDays: 3660)
        let zone = try await dayZone(request, userID: access.user.id)
        let activity = try Self.activityFilter(request)
        let minimum = try Self.integer(
            request.uri.queryParameters["min_minutes"], name: "min_minutes", default: 0, in: 0...10_000)
        let store = try await repositories.readableStore(access.user.id).queries
        // Days in the data's zones (HKTimeZone evidence, else tz), as every read.
        var settings = DailyNormalizer.Configuration()
        settings.homeZone = zone
        let interval = try await DailyNormalizer(store: store, configuration: settings, now: { Date() })
            .span(from: first, through: last)
        let workouts = try await store.workouts(overlapping: interval).filter { workout in
            interval.start <= workout.start && workout.start < interval.end
                && activity.map { HealthKitWorkoutActivities.matches(workout.activityType, $0) } ?? true
                && workout.durationSeconds >= Double(minimum) * 60
        }
        // A name that is no activity, HealthKit's or one stored (Health Auto Export's
        // `OutdoorRun`), and matched nothing: said, with the closest names.
        if let activity, workouts.isEmpty, !HealthKitWorkoutActivities.isKnown(activity) {
            throw Problem.unprocessableQuery(
                "type '\(activity)' is no activity; did you mean "
                    + HealthKitWorkoutActivities.closest(to: activity).joined(separator: ", or ") + "?")
        }
        let withheld = workouts.reduce(into: Set<HealthDataCategory>()) {
            $0.formUnion(WorkoutSummaryWire.withheld($1, readable: access.readable))
        }
        let answer = WorkoutListAnswer(
            from: first.description, to: last.description,
            workouts: workouts.map { WorkoutSummaryWire($0, readable: access.readable) })
        return EditedResponse(headers: Self.withheldHeader(withheld), response: answer)
    }

    /// `GET /v1/workouts/{id}`: the workout with its events, metadata and routes (without
    /// their points).
    func getWorkout(_ request: Request, _ context: AuthenticatedContext) async throws -> EditedResponse<WorkoutDetailAnswer> {
        let (workout, access, _) = try await requestedWorkout(context)
        return EditedResponse(
            headers: Self.withheldHeader(WorkoutSummaryWire.withheld(workout, readable: access.readable)),
            response: WorkoutDetailAnswer(workout, readable: access.readable))
    }

    /// `GET /v1/workouts/{id}/route[?format=gpx|geojson]`: every point of the workout's
    /// routes as GPX 1.1 (the default: what Strava and Garmin import) or GeoJSON; a 404 when
    /// the workout recorded no route. Needs `activity` besides `workouts`.
    func getWorkoutRoute(_ request: Request, _ context: AuthenticatedContext) async throws -> Response {
        let format = request.uri.queryParameters["format"].map(String.init) ?? "gpx"
        guard format == "gpx" || format == "geojson" else { throw Problem.badRequest("format must be gpx or geojson") }
        let (workout, access, _) = try await requestedWorkout(context)
        // A route tells the distance and the pace: activity's, as the distance total is.
        try access.require([.activity])
        guard !RouteDocuments.tracks(workout).isEmpty else {
            throw Problem(.notFound, "No route", detail: "this workout recorded no route")
        }
        let name = "workout-\(workout.uuid.uuidString.lowercased())"
        // Written to the response a chunk at a time: a long route never sits in memory as text.
        let geoJSON = format == "geojson"
        let body = ResponseBody { writer in
            if geoJSON {
                try await RouteDocuments.writeGeoJSON(workout) { try await writer.write(ByteBuffer(string: $0)) }
            } else {
                try await RouteDocuments.writeGPX(workout) { try await writer.write(ByteBuffer(string: $0)) }
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: geoJSON ? "application/geo+json" : "application/gpx+xml",
                .contentDisposition: "attachment; filename=\"\(name).\(geoJSON ? "geojson" : "gpx")\"",
            ], body: body)
    }

    /// `GET /v1/workouts/{id}/heart-rate[?max_hr=N]`: the heart-rate readings of the
    /// workout's span, their time-weighted mean, lowest and highest, and with `max_hr` (bpm,
    /// 100–250) the seconds in each of five zones. Needs `heart` besides `workouts`.
    func getWorkoutHeartRate(_ request: Request, _ context: AuthenticatedContext) async throws -> WorkoutHeartRateAnswer {
        let maximum = try request.uri.queryParameters["max_hr"].map { text -> Double in
            guard let value = Int(text), (100...250).contains(value) else {
                throw Problem.badRequest("max_hr must be a whole number of bpm from 100 to 250", pointer: "query/max_hr")
            }
            return Double(value)
        }
        let (workout, access, store) = try await requestedWorkout(context)
        try access.require([.heart])
        let heart = try await WorkoutHeartRate.of(workout, in: store, maximum: maximum)
        return WorkoutHeartRateAnswer(
            workout: workout.uuid, start: workout.start, end: workout.end, meanBpm: heart.meanBpm,
            minimumBpm: heart.minimumBpm, maximumBpm: heart.maximumBpm, maxHeartRate: heart.maximumHeartRate,
            zones: heart.zones?.map {
                WorkoutHeartRateAnswer.Zone(zone: $0.zone, fromBpm: $0.fromBpm, toBpm: $0.toBpm, seconds: $0.seconds)
            }, belowZonesSeconds: heart.belowZones,
            readings: heart.readings.map { WorkoutHeartRateAnswer.Reading(time: $0.time, bpm: $0.bpm) })
    }

    /// The workout the path names, for a token that may read workouts; a 404 for one the
    /// user's store does not hold (another user's id included).
    private func requestedWorkout(
        _ context: AuthenticatedContext
    ) async throws -> (Workout, ReadAccess, any HealthQuerying) {
        let access = try await readAccess(context)
        try access.require([.workouts])
        guard let text = context.parameters.get("id"), let uuid = UUID(uuidString: text) else {
            throw Problem.badRequest("a workout's id is a UUID", pointer: "path/id")
        }
        let store = try await repositories.readableStore(access.user.id).queries
        guard let workout = try await store.workout(uuid) else {
            throw Problem(.notFound, "No such workout", detail: "no workout with id \(uuid.uuidString.lowercased())")
        }
        return (workout, access, store)
    }

    /// `type=`: an activity's short name (`running`, `traditional_strength_training`) or
    /// its HealthKit identifier (``HealthKitWorkoutActivities/matches(_:_:)``).
    private static func activityFilter(_ request: Request) throws -> String? {
        guard let text = request.uri.queryParameters["type"].map(String.init) else { return nil }
        guard (1...121).contains(text.count),
            text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }),
            text.contains(where: { $0.isLetter || $0.isNumber })
        else {
            throw Problem.badRequest("type must be an activity such as running or HKWorkoutActivityTypeRunning")
        }
        return text
    }
}

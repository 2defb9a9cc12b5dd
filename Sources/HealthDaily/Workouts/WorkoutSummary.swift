import Foundation
import HealthCore

/// One workout with its figures and route: the dashboard's tile and the coach's list.
public struct WorkoutSummary: Sendable, Hashable, Codable {
    /// `Running`, `Cycling`… (HealthKit's activity name without its prefix).
    public var activity: String
    public var start: Date
    public var end: Date
    /// Active energy burned during the workout, kcal.
    public var energyKcal: Double?
    /// The workout's distance (walking/running, cycling, swimming…), km.
    public var distanceKm: Double?
    /// Mean heart rate during the workout, bpm.
    public var averageHeartRate: Double?
    /// Where each figure comes from; `nil` when the figure is.
    public var energySource: FigureSource?
    public var distanceSource: FigureSource?
    public var heartRateSource: FigureSource?
    /// The route's points, when one was recorded.
    public var route: [RoutePoint]
    /// The workout's UUID (`healthpipe workouts`, `GET /v1/workouts/{id}`, MCP's
    /// `get_workout_details` take it).
    public var id: UUID?
    /// The recorded duration in seconds (pauses left out), else end − start.
    public var durationSeconds: Double?
    /// The IANA zone the workout was recorded in (its `HKTimeZone`), when known.
    public var timeZone: String?

    /// Where a figure of a workout comes from.
    public enum FigureSource: String, Sendable, Hashable, Codable {
        /// What the workout recorded of itself: its `WorkoutStatistics` (iOS 16 and later),
        /// else the totals on its element (older exports).
        case workout
        /// Computed from the samples of the workout's span, when it recorded none.
        case samples
    }

    public struct RoutePoint: Sendable, Hashable, Codable {
        public var latitude: Double
        public var longitude: Double

        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    public init(
        activity: String, start: Date, end: Date, energyKcal: Double?, distanceKm: Double?, averageHeartRate: Double?,
        energySource: FigureSource? = nil, distanceSource: FigureSource? = nil, heartRateSource: FigureSource? = nil,
        route: [RoutePoint] = []
    ) {
        self.activity = activity
        self.start = start
        self.end = end
        self.energyKcal = energyKcal
        self.distanceKm = distanceKm
        self.averageHeartRate = averageHeartRate
        self.energySource = energySource
        self.distanceSource = distanceSource
        self.heartRateSource = heartRateSource
        self.route = route
    }
}

/// Reads workouts with their active energy, distance and mean heart rate, and the route
/// when asked.
///
/// Each figure is what the workout recorded of itself when it did — its `WorkoutStatistics`
/// (iOS 16 and later), else the totals on its element (older exports) — and otherwise is
/// computed from the samples of its span: sums of active energy and of walking/running
/// distance (cycling distance when there is none), the time-weighted mean of heart rate
/// (``TimeWeightedMean``). Each says which (``WorkoutSummary/FigureSource``).
///
/// A kind of data in `withheld` is never read: a token or a person that did not grant
/// energy, activity (distances) or heart gets those fields as `nil`, whatever the workout
/// recorded.
public struct WorkoutSummarizer: Sendable {
    public let store: any HealthQuerying
    /// Kinds not to read (not granted, or denied by consent).
    public let withheld: Set<HealthDataCategory>

    public init(store: any HealthQuerying, withheld: Set<HealthDataCategory> = []) {
        self.store = store
        self.withheld = withheld
    }

    /// The workouts overlapping `window` (of `activity` when given: `Running`, `running` or
    /// `HKWorkoutActivityTypeRunning`, as ``HealthKitWorkoutActivities/matches(_:_:)`` reads it; at least `minimumSeconds` long), newest first, at most
    /// `limit`; routes thinned evenly to at most `routePoints` points (0: none read).
    public func workouts(
        in window: DateInterval, limit: Int, routePoints: Int, activity: String? = nil, minimumSeconds: Double = 0
    ) async throws
        -> [WorkoutSummary]
    {
        let workouts = try await store.workouts(overlapping: window)
            .filter { workout in activity.map { HealthKitWorkoutActivities.matches(workout.activityType, $0) } ?? true }
            .filter { $0.durationSeconds >= minimumSeconds }
            .sorted { $0.start > $1.start }.prefix(limit)
        var routes: [UUID: [RoutePoint]] = [:]
        // A route tells the distance and the pace: it needs activity too.
        if routePoints > 0, withheld.isDisjoint(with: [.workouts, .activity]) {
            routes = try await store.workoutRoutes(overlapping: window, maxPoints: routePoints)
        }
        var summaries: [WorkoutSummary] = []
        for workout in workouts {
            let span = DateInterval(start: workout.start, end: max(workout.end, workout.start))
            var summary = WorkoutSummary(
                activity: Self.activityName(workout.activityType), start: workout.start, end: workout.end,
                energyKcal: nil, distanceKm: nil, averageHeartRate: nil,
                route: (routes[workout.uuid] ?? []).map { .init(latitude: $0.latitude, longitude: $0.longitude) })
            summary.id = workout.uuid
            summary.durationSeconds = workout.durationSeconds
            summary.timeZone = workout.metadata.timeZoneIdentifier
            // What the workout recorded of itself.
            let own = WorkoutTotals(workout)
            if !withheld.contains(.energy) {
                (summary.energyKcal, summary.energySource) = try await figure(own.energyKcal) { try await energyKcal(span) }
            }
            if !withheld.contains(.activity) {
                (summary.distanceKm, summary.distanceSource) = try await figure(own.distanceKm) {
                    try await distanceKm(span)
                }
            }
            if !withheld.contains(.heart) {
                (summary.averageHeartRate, summary.heartRateSource) = try await figure(own.heartRateBpm) {
                    try await heartRateBpm(span)
                }
            }
            summaries.append(summary)
        }
        return summaries
    }

    /// An activity's name without HealthKit's prefix.
    public static func activityName(_ text: String) -> String {
        text.replacingOccurrences(of: "HKWorkoutActivityType", with: "")
    }
}

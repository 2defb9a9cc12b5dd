import Foundation
import HealthCore

/// One workout with what was recorded during it: the dashboard's tile and the coach's list.
public struct WorkoutSummary: Sendable, Hashable, Codable {
    /// `Running`, `Cycling`… (HealthKit's activity name without its prefix).
    public var activity: String
    public var start: Date
    public var end: Date
    /// Active energy recorded during the workout, kcal.
    public var energyKcal: Double?
    /// Walking/running or cycling distance recorded during the workout, km.
    public var distanceKm: Double?
    /// Mean heart rate during the workout, bpm.
    public var averageHeartRate: Double?
    /// The route's points, when one was recorded.
    public var route: [RoutePoint]

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
        route: [RoutePoint] = []
    ) {
        self.activity = activity
        self.start = start
        self.end = end
        self.energyKcal = energyKcal
        self.distanceKm = distanceKm
        self.averageHeartRate = averageHeartRate
        self.route = route
    }
}

/// Reads workouts with the statistics of their span: active energy, distance and mean
/// heart rate recorded during each, and the route when asked.
///
/// A kind of data in `withheld` is never read: a token or a person that did not grant
/// energy, activity (distances) or heart gets those fields as `nil`, whatever the workout.
public struct WorkoutSummarizer: Sendable {
    public let store: any HealthQuerying
    /// Kinds not to read (not granted, or denied by consent).
    public let withheld: Set<HealthDataCategory>

    public init(store: any HealthQuerying, withheld: Set<HealthDataCategory> = []) {
        self.store = store
        self.withheld = withheld
    }

    /// The workouts overlapping `window` (of `activity` when given: `Running` or
    /// `HKWorkoutActivityTypeRunning`), newest first, at most `limit`; routes thinned evenly
    /// to at most `routePoints` points (0: none read).
    public func workouts(
        in window: DateInterval, limit: Int, routePoints: Int, activity: String? = nil
    ) async throws
        -> [WorkoutSummary]
    {
        let wanted = activity.map(Self.activityName)
        let headers = try await store.samples(of: .workout, overlapping: window)
            .filter { wanted == nil || Self.name(of: $0) == wanted }
            .sorted { $0.start > $1.start }.prefix(limit)
        let kcal = try HealthUnit(parsing: "kcal")
        let km = try HealthUnit(parsing: "km")
        let bpm = try HealthUnit(parsing: "count/min")
        var routes: [UUID: [RoutePoint]] = [:]
        if routePoints > 0, !withheld.contains(.workouts), let reader = store as? any WorkoutDetailsReading {
            routes = try await reader.workoutRoutes(overlapping: window, maxPoints: routePoints)
        }
        var summaries: [WorkoutSummary] = []
        for header in headers {
            let span = DateInterval(start: header.start, end: max(header.end, header.start))
            var energy: Double?
            if !withheld.contains(.energy) {
                let sum = try await store.statistics(of: .activeEnergyBurned, over: span, unit: kcal)
                energy = sum.count > 0 ? sum.sum : nil
            }
            var distanceKm: Double?
            if !withheld.contains(.activity) {
                var distance = try await store.statistics(of: .distanceWalkingRunning, over: span, unit: km)
                if distance.count == 0 {
                    distance = try await store.statistics(
                        of: SampleType("HKQuantityTypeIdentifierDistanceCycling"), over: span, unit: km)
                }
                distanceKm = distance.count > 0 ? distance.sum : nil
            }
            var heartRate: Double?
            if !withheld.contains(.heart) {
                let heart = try await store.statistics(of: .heartRate, over: span, unit: bpm)
                heartRate = heart.count > 0 ? heart.average : nil
            }
            summaries.append(
                WorkoutSummary(
                    activity: Self.name(of: header), start: header.start, end: header.end,
                    energyKcal: energy, distanceKm: distanceKm, averageHeartRate: heartRate,
                    route: (routes[header.uuid] ?? []).map { .init(latitude: $0.latitude, longitude: $0.longitude) }))
        }
        return summaries
    }

    /// `Running` for `HKWorkoutActivityTypeRunning`.
    static func name(of workout: Sample) -> String {
        activityName(workout.value.text ?? "Other")
    }

    /// An activity's name without HealthKit's prefix.
    public static func activityName(_ text: String) -> String {
        text.replacingOccurrences(of: "HKWorkoutActivityType", with: "")
    }
}

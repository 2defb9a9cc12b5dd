import Foundation
import HealthCore
import HealthDaily

/// What a workout's page shows: the workout as it recorded itself, its route's points and
/// splits (a reader of activity only), its heart rate with zones (a reader of heart only).
public struct WorkoutPageData: Sendable {
    public var workout: Workout
    /// The zone its clock times are in: the one it was recorded in (`HKTimeZone`), else home.
    public var zone: TimeZone
    /// Every route point, routes one after another; empty when activity is withheld.
    public var points: [RoutePoint]
    public var splits: [RouteSplits.Split]
    /// `nil` when heart is withheld.
    public var heart: WorkoutHeartRate?
    /// Where the zones' maximum comes from: `given` (the viewer's), `observed` (the highest
    /// reading of the year before the workout), or `nil` without zones.
    public var maximumSource: String?
    public var withheld: Set<HealthDataCategory>

    public init(
        workout: Workout, zone: TimeZone, points: [RoutePoint], splits: [RouteSplits.Split], heart: WorkoutHeartRate?,
        maximumSource: String?, withheld: Set<HealthDataCategory>
    ) {
        self.workout = workout
        self.zone = zone
        self.points = points
        self.splits = splits
        self.heart = heart
        self.maximumSource = maximumSource
        self.withheld = withheld
    }
}

extension DashboardAssembler {
    /// The page of the workout `uuid`, `nil` when the store has none. Heart-rate zones of
    /// `maximumHeartRate`, else of the highest heart rate recorded in the 365 days before
    /// the workout (the page says which).
    public func workoutPage(_ uuid: UUID, maximumHeartRate: Double? = nil) async throws -> WorkoutPageData? {
        guard !settings.withheld.contains(.workouts), var workout = try await store.workout(uuid) else { return nil }
        let withheld = settings.withheld
        let zone = workout.metadata.timeZoneIdentifier.flatMap(TimeZone.init(identifier:)) ?? settings.normalization.homeZone
        var points: [RoutePoint] = []
        var splits: [RouteSplits.Split] = []
        if !withheld.contains(.activity) {
            points = workout.routes.flatMap(\.points).compactMap(\.plausible)
            splits = RouteSplits.splits(routes: workout.routes.map { $0.points.compactMap(\.plausible) })
        }
        // What the reader may not see leaves the workout before it reaches the page.
        workout.routes = []
        workout.statistics = workout.statistics.filter { !withheld.contains(HealthDataCategory($0.type)) }
        workout.metadata = HealthDataCategory.workoutMetadata(workout.metadata, readableBy: Self.readable(withheld)).entries
        if withheld.contains(.activity) {
            workout.events = workout.events.filter { !$0.tellsDistance }
            workout.totalDistance = nil
        }
        if withheld.contains(.energy) { workout.totalEnergyBurned = nil }
        var heart: WorkoutHeartRate?
        var source: String?
        if !withheld.contains(.heart) {
            var maximum = maximumHeartRate
            source = maximum == nil ? nil : "given"
            if maximum == nil {
                let year = DateInterval(start: workout.start.addingTimeInterval(-365 * 86_400), end: workout.end)
                let observed = try await store.statistics(of: .heartRate, over: year, unit: HealthUnit(parsing: "count/min"))
                if let highest = observed.maximum, highest.isFinite, (100...250).contains(highest) {
                    maximum = highest
                    source = "observed"
                }
            }
            heart = try await WorkoutHeartRate.of(workout, in: store, maximum: maximum)
        }
        return WorkoutPageData(
            workout: workout, zone: zone, points: points, splits: splits, heart: heart, maximumSource: source,
            withheld: withheld.intersection([.energy, .activity, .heart]))
    }

    private static func readable(_ withheld: Set<HealthDataCategory>) -> Set<HealthDataCategory> {
        Set(HealthDataCategory.allCases).subtracting(withheld)
    }
}

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
    /// The length of the way travelled along the routes, metres (each route on its own, a
    /// jump faster than any GPS reports left out); `nil` without two points.
    public var routeMetres: Double?
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
        let zone = try await DailyNormalizer(store: store, configuration: settings.normalization, now: { Date() })
            .zone(of: workout)
        var points: [RoutePoint] = []
        var splits: [RouteSplits.Split] = []
        var routeMetres: Double?
        if !withheld.contains(.activity) {
            let routes = workout.routes.map { $0.points.compactMap(\.plausible) }
            points = routes.flatMap { $0 }
            splits = RouteSplits.splits(routes: routes)
            if points.count > 1 { routeMetres = routes.reduce(0) { $0 + Self.travelled($1) } }
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
            if maximum == nil, let highest = try await highestHeartRate(before: workout.start) {
                maximum = highest
                source = "observed"
            }
            heart = try await WorkoutHeartRate.of(workout, in: store, maximum: maximum)
        }
        var page = WorkoutPageData(
            workout: workout, zone: zone, points: points, splits: splits, heart: heart, maximumSource: source,
            withheld: withheld.intersection([.energy, .activity, .heart]))
        page.routeMetres = routeMetres
        return page
    }

    /// The highest heart rate of the 365 days before `start` that a heart can beat (100–250
    /// bpm: a stray reading of 399 does not count), `nil` without one.
    private func highestHeartRate(before start: Date) async throws -> Double? {
        let year = DateInterval(start: start.addingTimeInterval(-365 * 86_400), end: start)
        let bpm = try HealthUnit(parsing: "count/min")
        var highest: Double?
        for sample in try await store.samples(of: .heartRate, overlapping: year) {
            guard case .quantity(let raw, let symbol) = sample.value,
                let value = try? HealthUnit(parsing: symbol).convert(raw, to: bpm), (100...250).contains(value)
            else { continue }
            highest = max(highest ?? value, value)
        }
        return highest
    }

    /// Metres along `points`, a step faster than any GPS reports (350 m/s) left out.
    private static func travelled(_ points: [RoutePoint]) -> Double {
        zip(points, points.dropFirst()).reduce(0) { total, pair in
            total
                + pair.0.travelled(to: pair.1, seconds: pair.0.time.flatMap { a in pair.1.time.map { $0.timeIntervalSince(a) } })
        }
    }

    private static func readable(_ withheld: Set<HealthDataCategory>) -> Set<HealthDataCategory> {
        Set(HealthDataCategory.allCases).subtracting(withheld)
    }
}

import Foundation
import HealthCore
import HealthKitCompat

#if canImport(CoreLocation)
    import CoreLocation
#endif

/// Workouts through HealthKit's API: `HKWorkout`'s duration, totals, statistics, events and
/// activities, and its routes by `HKWorkoutRouteQuery`. Values come in the units of
/// ``HealthKitQuerying/unit(for:)`` (a duration in minutes, energy in kcal, a distance in
/// km, as exports write them); activities are kept as exports write them (``WorkoutActivity``).
extension HealthKitQuerying {
    public func workouts(overlapping interval: DateInterval) async throws -> [Workout] {
        try await hkWorkouts(overlapping: interval).compactMap { Self.workout($0, routes: []) }
    }

    public func workout(_ uuid: UUID) async throws -> Workout? {
        let found = try await query(
            HKObjectType.workoutType(), predicate: HKQuery.predicateForObject(with: uuid), limit: 1,
            ascendingBy: HKSampleSortIdentifierStartDate)
        guard let object = found.first as? HKWorkout else { return nil }
        return Self.workout(object, routes: try await routes(of: object))
    }

    public func workoutTotals(overlapping interval: DateInterval) async throws -> [UUID: WorkoutTotals] {
        var totals: [UUID: WorkoutTotals] = [:]
        for workout in try await workouts(overlapping: interval) {
            let recorded = WorkoutTotals(workout)
            if !recorded.isEmpty { totals[workout.uuid] = recorded }
        }
        return totals
    }

    public func workoutRoutes(overlapping interval: DateInterval, maxPoints: Int) async throws -> [UUID: [RoutePoint]] {
        var routes: [UUID: [RoutePoint]] = [:]
        for workout in try await hkWorkouts(overlapping: interval) {
            let points = try await self.routes(of: workout).flatMap(\.points)
            if !points.isEmpty { routes[workout.uuid] = points.thinned(to: maxPoints) }
        }
        return routes
    }

    /// The workouts overlapping `interval` (``Sample/overlaps(_:)``), by start.
    private func hkWorkouts(overlapping interval: DateInterval) async throws -> [HKWorkout] {
        let predicate = HKQuery.predicateForSamples(withStart: interval.start, end: interval.end, options: [])
        let found = try await query(
            HKObjectType.workoutType(), predicate: predicate, limit: HKObjectQueryNoLimit,
            ascendingBy: HKSampleSortIdentifierStartDate)
        return found.compactMap { object in
            guard let workout = object as? HKWorkout, Self.sample(workout)?.overlaps(interval) == true else { return nil }
            return workout
        }
    }

    /// The routes of `workout`, each with every location HealthKit gives.
    func routes(of workout: HKWorkout) async throws -> [WorkoutRoute] {
        let found = try await query(
            HKSeriesType.workoutRoute(), predicate: HKQuery.predicateForObjects(from: workout), limit: HKObjectQueryNoLimit,
            ascendingBy: HKSampleSortIdentifierStartDate)
        var routes: [WorkoutRoute] = []
        for case let route as HKWorkoutRoute in found {
            let revision = route.sourceRevision
            routes.append(
                WorkoutRoute(
                    source: Source(name: revision.source.name, version: revision.version),
                    device: Self.sample(route)?.device, start: route.startDate, end: route.endDate,
                    metadata: Self.metadata(route.metadata),
                    points: try await locations(of: route).map(Self.point)))
        }
        return routes
    }

    /// Every location of `route`, batch after batch.
    private func locations(of route: HKWorkoutRoute) async throws -> [CLLocation] {
        let box = UncheckedBox(route)
        let collected = UncheckedBox((locations: [CLLocation](), finished: false))
        return try await withCheckedThrowingContinuation { continuation in
            // HealthKit calls the handler once per batch, one batch after another.
            let query = HKWorkoutRouteQuery(route: box.value) { _, locations, done, error in
                guard !collected.value.finished else { return }
                if let error {
                    collected.value.finished = true
                    continuation.resume(throwing: error)
                    return
                }
                collected.value.locations += locations ?? []
                if done {
                    collected.value.finished = true
                    continuation.resume(returning: collected.value.locations)
                }
            }
            healthStore.execute(query)
        }
    }

    /// Our workout from HealthKit's, with `routes`.
    static func workout(_ object: HKWorkout, routes: [WorkoutRoute]) -> Workout? {
        guard let header = sample(object) else { return nil }
        var workout = Workout(header: header, details: nil)
        workout.duration = object.duration / 60
        workout.durationUnit = "min"
        if let energy = object.totalEnergyBurned, energy.is(compatibleWith: HKUnit(from: "kcal")) {
            workout.totalEnergyBurned = energy.doubleValue(for: HKUnit(from: "kcal"))
            workout.totalEnergyBurnedUnit = "kcal"
        }
        if let distance = object.totalDistance, distance.is(compatibleWith: HKUnit(from: "km")) {
            workout.totalDistance = distance.doubleValue(for: HKUnit(from: "km"))
            workout.totalDistanceUnit = "km"
        }
        workout.events = (object.workoutEvents ?? []).compactMap(event)
        workout.statistics = statistics(object.allStatistics)
        workout.extras = object.workoutActivities.map { activity in
            WorkoutActivity(
                uuid: activity.uuid, start: activity.startDate, end: activity.endDate, duration: activity.duration / 60,
                durationUnit: "min", metadata: metadata(activity.metadata),
                events: activity.workoutEvents.compactMap(event), statistics: statistics(activity.allStatistics)
            )
            .element
        }
        workout.routes = routes
        return workout
    }

    private static func event(_ event: HKWorkoutEvent) -> WorkoutEvent? {
        guard let name = HealthKitWorkoutEvents.names[event.type.rawValue] else { return nil }
        let seconds = event.dateInterval.duration
        return WorkoutEvent(
            type: name, date: event.dateInterval.start, duration: seconds > 0 ? seconds / 60 : nil,
            durationUnit: seconds > 0 ? "min" : nil, metadata: metadata(event.metadata))
    }

    /// One statistic per type, by type identifier, in the type's unit.
    private static func statistics(_ all: [HKQuantityType: HKStatistics]) -> [WorkoutStatistic] {
        all.sorted { $0.key.identifier < $1.key.identifier }.compactMap { type, figures in
            let quantities = [
                figures.sumQuantity(), figures.averageQuantity(), figures.minimumQuantity(), figures.maximumQuantity(),
            ]
            guard let any = quantities.compactMap({ $0 }).first else { return nil }
            let known = unit(for: SampleType(type.identifier)).map { HKUnit(from: $0) }
            guard let unit = known ?? fallbackUnits.first(where: { any.is(compatibleWith: $0) }), any.is(compatibleWith: unit)
            else { return nil }
            func value(_ quantity: HKQuantity?) -> Double? { quantity.map { $0.doubleValue(for: unit) } }
            return WorkoutStatistic(
                type: SampleType(type.identifier), start: figures.startDate, end: figures.endDate,
                average: value(quantities[1]), minimum: value(quantities[2]), maximum: value(quantities[3]),
                sum: value(quantities[0]), unit: unit.unitString)
        }
    }

    /// A location as a route point: Core Location's negative "not known" values are `nil`.
    public static func point(_ location: CLLocation) -> RoutePoint {
        func known(_ value: Double) -> Double? { value < 0 ? nil : value }
        return RoutePoint(
            time: location.timestamp, latitude: location.coordinate.latitude, longitude: location.coordinate.longitude,
            elevation: location.verticalAccuracy < 0 ? nil : location.altitude, speed: known(location.speed),
            course: known(location.course), horizontalAccuracy: known(location.horizontalAccuracy),
            verticalAccuracy: known(location.verticalAccuracy))
    }

    /// HealthKit's metadata as entries, by key.
    static func metadata(_ metadata: [String: Any]?) -> [MetadataEntry] {
        (metadata ?? [:]).map { MetadataEntry(key: $0.key, value: text($0.value)) }.sorted { $0.key < $1.key }
    }
}

import Foundation
import HealthCore

/// What a workout holds beyond its sample row, on the wire: the `workout` member of a
/// ``SampleWire`` whose type is `HKWorkoutTypeIdentifier`, so that a workout travels whole in
/// sync batches and `POST /v1/samples` — its totals, events, statistics, routes with every
/// point, and the elements kept as read (docs/sync.md §4).
///
/// ```json
/// {"duration": 34.18, "duration_unit": "min",
///  "events": [{"type": "HKWorkoutEventTypePause", "date": "2020-02-24T17:50:00Z"}],
///  "statistics": [{"type": "HKQuantityTypeIdentifierActiveEnergyBurned", "sum": 134.432, "unit": "Cal"}],
///  "routes": [{"start": "…", "end": "…", "points": [{"lat": 34.045088, "lon": -118.232524, "ele": 85.65,
///    "time": "2020-02-24T18:00:45Z", "speed": 1.15, "course": 169.8, "h_acc": 2.27, "v_acc": 1.58}]}]}
/// ```
public struct WorkoutWire: Codable, Sendable, Hashable {
    public var duration: Double?
    public var durationUnit: String?
    public var totalDistance: Double?
    public var totalDistanceUnit: String?
    public var totalEnergyBurned: Double?
    public var totalEnergyBurnedUnit: String?
    public var events: [Event]?
    public var statistics: [Statistic]?
    public var routes: [Route]?
    /// Child elements of the export's `<Workout>` kept as read (`WorkoutActivity`…).
    public var kept: [RawElement]?

    enum CodingKeys: String, CodingKey {
        case duration, events, statistics, routes, kept
        case durationUnit = "duration_unit"
        case totalDistance = "total_distance"
        case totalDistanceUnit = "total_distance_unit"
        case totalEnergyBurned = "total_energy_burned"
        case totalEnergyBurnedUnit = "total_energy_burned_unit"
    }

    public struct Event: Codable, Sendable, Hashable {
        public var type: String
        public var date: Date
        public var duration: Double?
        public var durationUnit: String?
        public var metadata: [String: String]?

        enum CodingKeys: String, CodingKey {
            case type, date, duration, metadata
            case durationUnit = "duration_unit"
        }
    }

    public struct Statistic: Codable, Sendable, Hashable {
        public var type: String
        public var start: Date?
        public var end: Date?
        public var average: Double?
        public var minimum: Double?
        public var maximum: Double?
        public var sum: Double?
        public var unit: String?
    }

    public struct Route: Codable, Sendable, Hashable {
        public var source: String?
        public var sourceVersion: String?
        public var device: DeviceWire?
        public var start: Date?
        public var end: Date?
        public var creationDate: Date?
        public var metadata: [String: String]?
        public var filePath: String?
        public var points: [Point]

        enum CodingKeys: String, CodingKey {
            case source, device, start, end, metadata, points
            case sourceVersion = "source_version"
            case creationDate = "creation_date"
            case filePath = "file_path"
        }
    }

    public struct Point: Codable, Sendable, Hashable {
        public var lat: Double
        public var lon: Double
        public var ele: Double?
        public var time: Date?
        public var speed: Double?
        public var course: Double?
        public var hAcc: Double?
        public var vAcc: Double?

        enum CodingKeys: String, CodingKey {
            case lat, lon, ele, time, speed, course
            case hAcc = "h_acc"
            case vAcc = "v_acc"
        }
    }

    /// The wire form of what `workout` holds beyond its sample row.
    public init(_ workout: Workout) {
        func entries(_ metadata: [MetadataEntry]) -> [String: String]? {
            metadata.isEmpty ? nil : Dictionary(metadata.map { ($0.key, $0.value) }) { $1 }
        }
        duration = workout.duration
        durationUnit = workout.durationUnit
        totalDistance = workout.totalDistance
        totalDistanceUnit = workout.totalDistanceUnit
        totalEnergyBurned = workout.totalEnergyBurned
        totalEnergyBurnedUnit = workout.totalEnergyBurnedUnit
        events =
            workout.events.isEmpty
            ? nil
            : workout.events.map {
                Event(
                    type: $0.type, date: $0.date, duration: $0.duration, durationUnit: $0.durationUnit,
                    metadata: entries($0.metadata))
            }
        statistics =
            workout.statistics.isEmpty
            ? nil
            : workout.statistics.map {
                Statistic(
                    type: $0.type.identifier, start: $0.start, end: $0.end, average: $0.average, minimum: $0.minimum,
                    maximum: $0.maximum, sum: $0.sum, unit: $0.unit)
            }
        routes =
            workout.routes.isEmpty
            ? nil
            : workout.routes.map { route in
                Route(
                    source: route.source?.name, sourceVersion: route.source?.version, device: route.device.map(DeviceWire.init),
                    start: route.start, end: route.end, creationDate: route.creationDate, metadata: entries(route.metadata),
                    filePath: route.filePath,
                    points: route.points.map {
                        Point(
                            lat: $0.latitude, lon: $0.longitude, ele: $0.elevation, time: $0.time, speed: $0.speed,
                            course: $0.course,
                            hAcc: $0.horizontalAccuracy, vAcc: $0.verticalAccuracy)
                    })
            }
        kept = workout.extras.isEmpty ? nil : workout.extras
    }

    /// The most a workout may carry: more is refused with a 422 naming the list.
    public static let limits = (events: 10_000, statistics: 1_000, routes: 100, points: RoutePoint.maximumPerWorkout)

    /// `header` (the workout's sample, from the ``SampleWire``) with these details, or a
    /// ``WireFieldError`` naming the field under `pointer` (`/samples/3/workout`): numbers
    /// finite, positions on the globe, instants within the years 1900–2199, lists within
    /// ``limits``.
    public func workout(header: Sample, pointer: String) throws -> Workout {
        func at(_ field: String) -> String { "\(pointer)/\(field)" }
        func finite(_ value: Double?, _ field: String) throws -> Double? {
            guard let value else { return nil }
            guard value.isFinite else { throw WireFieldError("\(field) must be a finite number", pointer: at(field)) }
            return value
        }
        func instant(_ date: Date?, _ field: String) throws -> Date? {
            guard let date else { return nil }
            guard SampleWire.acceptedInstants.contains(date) else {
                throw WireFieldError("\(field) must be within the years 1900–2199", pointer: at(field))
            }
            return date
        }
        func entries(_ metadata: [String: String]?) -> [MetadataEntry] {
            (metadata ?? [:]).sorted { $0.key < $1.key }.map { MetadataEntry(key: $0.key, value: $0.value) }
        }
        guard header.type == .workout else {
            throw WireFieldError("only a workout (HKWorkoutTypeIdentifier) carries workout details", pointer: pointer)
        }
        let events = events ?? []
        let statistics = statistics ?? []
        let routes = routes ?? []
        for (name, count, limit) in [
            ("events", events.count, Self.limits.events), ("statistics", statistics.count, Self.limits.statistics),
            ("routes", routes.count, Self.limits.routes),
            ("routes", routes.reduce(0) { $0 + $1.points.count }, Self.limits.points),
        ] where count > limit {
            throw WireFieldError(
                "a workout carries at most \(limit) \(name == "routes" ? "route points or routes" : name)", pointer: at(name))
        }
        var workout = Workout(header: header, details: nil)
        // Without a UUID of its writer's, a workout's is derived from all of it, as an export's.
        workout.givenUUID = header.givenUUID
        workout.duration = try finite(duration, "duration")
        if let duration = workout.duration, duration < 0 {
            throw WireFieldError("duration must not be negative", pointer: at("duration"))
        }
        if !Workout.isDurationUnit(durationUnit) {
            throw WireFieldError("duration_unit must be s, min, hr or ms", pointer: at("duration_unit"))
        }
        workout.durationUnit = durationUnit
        for (value, field) in [(totalDistance, "total_distance"), (totalEnergyBurned, "total_energy_burned")] {
            if let value, value < 0 { throw WireFieldError("\(field) must not be negative", pointer: at(field)) }
        }
        workout.totalDistance = try finite(totalDistance, "total_distance")
        workout.totalDistanceUnit = totalDistanceUnit
        workout.totalEnergyBurned = try finite(totalEnergyBurned, "total_energy_burned")
        workout.totalEnergyBurnedUnit = totalEnergyBurnedUnit
        workout.events = try events.enumerated().map { index, event in
            let field = "events/\(index)"
            if !Workout.isDurationUnit(event.durationUnit) {
                throw WireFieldError("duration_unit must be s, min, hr or ms", pointer: at("\(field)/duration_unit"))
            }
            if let duration = event.duration,
                !(duration.isFinite && duration >= 0
                    && (Workout.seconds(duration, unit: event.durationUnit) ?? .infinity) <= PlausibleRange.longestWorkout)
            {
                throw WireFieldError("duration must be 0 to a year", pointer: at("\(field)/duration"))
            }
            return WorkoutEvent(
                type: event.type, date: try instant(event.date, "events/\(index)/date")!,
                duration: try finite(event.duration, "events/\(index)/duration"), durationUnit: event.durationUnit,
                metadata: entries(event.metadata))
        }
        workout.statistics = try statistics.enumerated().map { index, statistic in
            let field = "statistics/\(index)"
            guard !statistic.type.isEmpty, statistic.type.count <= 200 else {
                throw WireFieldError("type must be a type identifier", pointer: at("\(field)/type"))
            }
            return WorkoutStatistic(
                type: try SampleWire.resolve(statistic.type, pointer: at("\(field)/type")),
                start: try instant(statistic.start, "\(field)/start"), end: try instant(statistic.end, "\(field)/end"),
                average: try finite(statistic.average, "\(field)/average"),
                minimum: try finite(statistic.minimum, "\(field)/minimum"),
                maximum: try finite(statistic.maximum, "\(field)/maximum"), sum: try finite(statistic.sum, "\(field)/sum"),
                unit: statistic.unit)
        }
        workout.routes = try routes.enumerated().map { index, route in
            let field = "routes/\(index)"
            return WorkoutRoute(
                source: route.source.map { Source(name: $0, version: route.sourceVersion) }, device: route.device?.device,
                start: try instant(route.start, "\(field)/start"), end: try instant(route.end, "\(field)/end"),
                creationDate: try instant(route.creationDate, "\(field)/creation_date"), metadata: entries(route.metadata),
                filePath: route.filePath,
                points: try route.points.enumerated().map { position, point in
                    let at = "\(field)/points/\(position)"
                    let read = RoutePoint(
                        time: try instant(point.time, "\(at)/time"), latitude: point.lat, longitude: point.lon,
                        elevation: point.ele, speed: point.speed, course: point.course, horizontalAccuracy: point.hAcc,
                        verticalAccuracy: point.vAcc)
                    if let problem = read.problem {
                        throw WireFieldError(problem.reason, pointer: self.at(pointer, "\(at)/\(problem.field)"))
                    }
                    return read
                })
        }
        workout.extras = kept ?? []
        for (index, statistic) in workout.statistics.enumerated() {
            if let start = statistic.start, let end = statistic.end, end < start {
                throw WireFieldError("end must not precede start", pointer: at("statistics/\(index)/end"))
            }
        }
        // The ranges every other way in applies (docs/plausible-ranges.md).
        if let problem = PlausibleRange.violation(of: .workout(workout)) {
            throw WireFieldError(problem, pointer: pointer)
        }
        return workout
    }

    private func at(_ pointer: String, _ field: String) -> String { "\(pointer)/\(field)" }
}

import Foundation
import HealthCore

/// `GET /v1/workouts`: the workouts that start in a range of local days, each with what it
/// recorded of itself, oldest first.
public struct WorkoutListAnswer: Codable, Sendable, Equatable {
    public var from: String
    public var to: String
    public var workouts: [WorkoutSummaryWire]

    public init(from: String, to: String, workouts: [WorkoutSummaryWire]) {
        self.from = from
        self.to = to
        self.workouts = workouts
    }
}

/// One workout as the list gives it: its type, times and source, and the totals and
/// statistics it recorded (as recorded: values in their own units). A figure of a kind the
/// token may not read is left out (`HealthPipe-Withheld` names the kinds).
public struct WorkoutSummaryWire: Codable, Sendable, Equatable {
    public var uuid: UUID
    /// `HKWorkoutActivityTypeRunning`, as recorded.
    public var activityType: String
    /// `Running`: the type without its prefix.
    public var activity: String
    public var start: Date
    public var end: Date
    /// Seconds: the recorded duration in its unit converted, else from start to end.
    public var durationSeconds: Double
    /// The IANA zone the workout was recorded in (its `HKTimeZone`), when known. (An
    /// export's timestamps carry the offset of the export's moment, not the workout's.)
    public var timeZone: String?
    public var source: String
    public var device: DeviceWire?
    public var totalEnergyBurned: WorkoutQuantityWire?
    public var totalDistance: WorkoutQuantityWire?
    public var statistics: [WorkoutStatisticWire]

    enum CodingKeys: String, CodingKey {
        case uuid, activity, start, end, source, device, statistics
        case activityType = "activity_type"
        case durationSeconds = "duration_s"
        case timeZone = "time_zone"
        case totalEnergyBurned = "total_energy_burned"
        case totalDistance = "total_distance"
    }

    /// `workout` as the list shows it to a reader of `readable` kinds: the energy total needs
    /// `energy`, the distance `activity`, each statistic its own type's kind.
    public init(_ workout: Workout, readable: Set<HealthDataCategory>) {
        uuid = workout.uuid
        activityType = workout.activityType
        activity = HealthKitWorkoutActivities.shortName(workout.activityType)
        start = workout.start
        end = workout.end
        durationSeconds = workout.durationSeconds
        timeZone = workout.metadata.timeZoneIdentifier
        source = workout.source.name
        device = workout.device.map(DeviceWire.init)
        totalEnergyBurned =
            readable.contains(.energy)
            ? WorkoutQuantityWire(value: workout.totalEnergyBurned, unit: workout.totalEnergyBurnedUnit) : nil
        totalDistance =
            readable.contains(.activity)
            ? WorkoutQuantityWire(value: workout.totalDistance, unit: workout.totalDistanceUnit) : nil
        statistics = workout.statistics.filter { readable.contains(HealthDataCategory($0.type)) }
            .map(WorkoutStatisticWire.init)
    }

    /// The kinds of `workout`'s figures a reader of `readable` kinds does not see.
    public static func withheld(_ workout: Workout, readable: Set<HealthDataCategory>) -> Set<HealthDataCategory> {
        let activities = workout.activities
        var kinds = Set((workout.statistics + activities.flatMap(\.statistics)).map { HealthDataCategory($0.type) })
        let metadata =
            workout.metadata + workout.events.flatMap(\.metadata) + activities.flatMap(\.metadata)
            + activities.flatMap(\.events).flatMap(\.metadata)
        kinds.formUnion(metadata.compactMap { HealthDataCategory(workoutMetadataKey: $0.key) })
        if (workout.events + activities.flatMap(\.events)).contains(where: \.tellsDistance) || !workout.routes.isEmpty {
            kinds.insert(.activity)
        }
        if workout.totalEnergyBurned != nil { kinds.insert(.energy) }
        if workout.totalDistance != nil { kinds.insert(.activity) }
        return kinds.subtracting(readable)
    }
}

/// A recorded total: a value and its unit as written (`kcal`, `km`, `mi`).
public struct WorkoutQuantityWire: Codable, Sendable, Equatable {
    public var value: Double
    public var unit: String?

    init?(value: Double?, unit: String?) {
        guard let value, value.isFinite else { return nil }
        self.value = value
        self.unit = unit
    }
}

/// One of a workout's `WorkoutStatistics`: a sum for a cumulative type, an average, minimum
/// and maximum for a discrete one, in the unit written.
public struct WorkoutStatisticWire: Codable, Sendable, Equatable {
    public var type: String
    public var kind: HealthDataCategory
    public var start: Date?
    public var end: Date?
    public var sum: Double?
    public var average: Double?
    public var minimum: Double?
    public var maximum: Double?
    public var unit: String?

    init(_ statistic: WorkoutStatistic) {
        func finite(_ value: Double?) -> Double? { value.flatMap { $0.isFinite ? $0 : nil } }
        type = statistic.type.identifier
        kind = HealthDataCategory(statistic.type)
        start = statistic.start
        end = statistic.end
        sum = finite(statistic.sum)
        average = finite(statistic.average)
        minimum = finite(statistic.minimum)
        maximum = finite(statistic.maximum)
        unit = statistic.unit
    }
}

/// `GET /v1/workouts/{id}`: a workout with everything recorded of it but its route's points
/// (`/route` gives them): events, metadata, routes and the elements kept as read. Segments and
/// laps tell the pace: a reader without activity does not get them.
public struct WorkoutDetailAnswer: Codable, Sendable, Equatable {
    public var workout: WorkoutSummaryWire
    public var events: [WorkoutEventWire]
    public var metadata: [String: String]
    public var routes: [WorkoutRouteWire]
    /// The workout's activities (a multisport workout's legs), in the order recorded.
    public var activities: [WorkoutActivityWire]
    /// Child elements of the export's `<Workout>` kept as read, by name and count
    /// (`WorkoutActivity`, modelled in ``activities`` too, and anything newer).
    public var keptElements: [String: Int]

    enum CodingKeys: String, CodingKey {
        case workout, events, metadata, routes, activities
        case keptElements = "kept_elements"
    }

    public init(_ workout: Workout, readable: Set<HealthDataCategory>) {
        self.workout = WorkoutSummaryWire(workout, readable: readable)
        events = workout.events.filter { readable.contains(.activity) || !$0.tellsDistance }
            .map { WorkoutEventWire($0, readable: readable) }
        metadata = readableMetadata(workout.metadata, readable)
        // A route tells the distance: even its count and span are activity's.
        routes = readable.contains(.activity) ? workout.routes.map(WorkoutRouteWire.init) : []
        activities = workout.activities.map { WorkoutActivityWire($0, readable: readable) }
        keptElements = workout.extras.reduce(into: [:]) { $0[$1.name, default: 0] += 1 }
    }
}

/// A workout event: pause, resume, lap, segment, marker, motion paused or resumed.
public struct WorkoutEventWire: Codable, Sendable, Equatable {
    /// `HKWorkoutEventTypePause`, as recorded.
    public var type: String
    public var date: Date
    public var duration: Double?
    public var durationUnit: String?
    public var metadata: [String: String]

    enum CodingKeys: String, CodingKey {
        case type, date, duration, metadata
        case durationUnit = "duration_unit"
    }

    /// `event` for a reader of `readable` kinds: metadata of another kind (a lap's length) left out.
    init(_ event: WorkoutEvent, readable: Set<HealthDataCategory>) {
        type = event.type
        date = event.date
        duration = event.duration.flatMap { $0.isFinite ? $0 : nil }
        durationUnit = event.durationUnit
        metadata = readableMetadata(event.metadata, readable)
    }
}

/// One activity of a workout (a leg of a multisport workout): its span, events, metadata and
/// the statistics of kinds the reader may read.
public struct WorkoutActivityWire: Codable, Sendable, Equatable {
    public var uuid: UUID?
    public var start: Date
    public var end: Date?
    /// Seconds: the recorded duration converted, else end − start.
    public var durationSeconds: Double?
    public var metadata: [String: String]
    public var events: [WorkoutEventWire]
    public var statistics: [WorkoutStatisticWire]

    enum CodingKeys: String, CodingKey {
        case uuid, start, end, metadata, events, statistics
        case durationSeconds = "duration_s"
    }

    init(_ activity: WorkoutActivity, readable: Set<HealthDataCategory>) {
        uuid = activity.uuid
        start = activity.start
        end = activity.end
        durationSeconds = activity.durationSeconds
        metadata = readableMetadata(activity.metadata, readable)
        events = activity.events.filter { readable.contains(.activity) || !$0.tellsDistance }
            .map { WorkoutEventWire($0, readable: readable) }
        statistics = activity.statistics.filter { readable.contains(HealthDataCategory($0.type)) }
            .map(WorkoutStatisticWire.init)
    }
}

/// Metadata as a dictionary, entries of a kind the reader may not read left out (a key
/// written twice keeps its last value).
private func readableMetadata(_ entries: [MetadataEntry], _ readable: Set<HealthDataCategory>) -> [String: String] {
    Dictionary(
        HealthDataCategory.workoutMetadata(entries, readableBy: readable).entries.map { ($0.key, $0.value) },
        uniquingKeysWith: { _, last in last })
}

/// A recorded route, without its points.
public struct WorkoutRouteWire: Codable, Sendable, Equatable {
    public var start: Date?
    public var end: Date?
    public var source: String?
    public var points: Int
    /// The route's GPX file in the export (`/workout-routes/route_….gpx`), when it had one.
    public var filePath: String?

    enum CodingKeys: String, CodingKey {
        case start, end, source, points
        case filePath = "file_path"
    }

    init(_ route: WorkoutRoute) {
        start = route.start
        end = route.end
        source = route.source?.name
        points = route.points.count
        filePath = route.filePath
    }
}

/// `GET /v1/workouts/{id}/heart-rate`: the heart-rate readings of the workout's span, their
/// time-weighted mean, lowest and highest, and — given a maximum heart rate — the seconds in
/// each of five zones (docs/workouts.md §Heart rate).
public struct WorkoutHeartRateAnswer: Codable, Sendable, Equatable {
    public struct Reading: Codable, Sendable, Equatable {
        public var time: Date
        public var bpm: Double

        public init(time: Date, bpm: Double) {
            self.time = time
            self.bpm = bpm
        }
    }

    public struct Zone: Codable, Sendable, Equatable {
        public var zone: Int
        public var fromBpm: Double
        public var toBpm: Double?
        public var seconds: Double

        enum CodingKeys: String, CodingKey {
            case zone, seconds
            case fromBpm = "from_bpm"
            case toBpm = "to_bpm"
        }

        public init(zone: Int, fromBpm: Double, toBpm: Double?, seconds: Double) {
            self.zone = zone
            self.fromBpm = fromBpm
            self.toBpm = toBpm
            self.seconds = seconds
        }
    }

    public var workout: UUID
    public var start: Date
    public var end: Date
    public var meanBpm: Double?
    public var minimumBpm: Double?
    public var maximumBpm: Double?
    /// The maximum heart rate the zones are fifths of (`max_hr`); `nil`: no zones.
    public var maxHeartRate: Double?
    public var zones: [Zone]?
    public var belowZonesSeconds: Double?
    public var readings: [Reading]

    enum CodingKeys: String, CodingKey {
        case workout, start, end, zones, readings
        case meanBpm = "mean_bpm"
        case minimumBpm = "minimum_bpm"
        case maximumBpm = "maximum_bpm"
        case maxHeartRate = "max_hr"
        case belowZonesSeconds = "below_zones_s"
    }

    public init(
        workout: UUID, start: Date, end: Date, meanBpm: Double?, minimumBpm: Double?, maximumBpm: Double?,
        maxHeartRate: Double?, zones: [Zone]?, belowZonesSeconds: Double?, readings: [Reading]
    ) {
        self.workout = workout
        self.start = start
        self.end = end
        self.meanBpm = meanBpm
        self.minimumBpm = minimumBpm
        self.maximumBpm = maximumBpm
        self.maxHeartRate = maxHeartRate
        self.zones = zones
        self.belowZonesSeconds = belowZonesSeconds
        self.readings = readings
    }
}

import Foundation

/// A workout with its events, statistics and routes.
public struct Workout: Hashable, Sendable, Codable {
    /// `HKWorkoutActivityType…` as written.
    public var activityType: String
    public var start: Date
    public var end: Date
    public var duration: Double?
    public var durationUnit: String?
    public var totalDistance: Double?
    public var totalDistanceUnit: String?
    public var totalEnergyBurned: Double?
    public var totalEnergyBurnedUnit: String?
    public var source: Source
    public var device: Device?
    public var creationDate: Date?
    public var metadata: [MetadataEntry]
    public var utcOffsetSeconds: Int?
    /// The UUID its writer gave; `nil` for an export record (see ``uuid``).
    public var givenUUID: UUID?
    public var events: [WorkoutEvent]
    public var statistics: [WorkoutStatistic]
    public var routes: [WorkoutRoute]
    /// Child elements with no model yet (`WorkoutActivity` of multi-sport workouts, …),
    /// kept verbatim.
    public var extras: [RawElement]

    public init(
        activityType: String, start: Date, end: Date, duration: Double? = nil, durationUnit: String? = nil,
        totalDistance: Double? = nil, totalDistanceUnit: String? = nil,
        totalEnergyBurned: Double? = nil, totalEnergyBurnedUnit: String? = nil,
        source: Source, device: Device? = nil, creationDate: Date? = nil, metadata: [MetadataEntry] = [],
        utcOffsetSeconds: Int? = nil, events: [WorkoutEvent] = [], statistics: [WorkoutStatistic] = [],
        routes: [WorkoutRoute] = [], extras: [RawElement] = [], uuid: UUID? = nil
    ) {
        self.activityType = activityType
        self.start = start
        self.end = end
        self.duration = duration
        self.durationUnit = durationUnit
        self.totalDistance = totalDistance
        self.totalDistanceUnit = totalDistanceUnit
        self.totalEnergyBurned = totalEnergyBurned
        self.totalEnergyBurnedUnit = totalEnergyBurnedUnit
        self.source = source
        self.device = device
        self.creationDate = creationDate
        self.metadata = metadata
        self.utcOffsetSeconds = utcOffsetSeconds
        self.events = events
        self.statistics = statistics
        self.routes = routes
        self.extras = extras
        self.givenUUID = uuid
    }

    /// Seconds of a recorded duration in `unit` (`s`, `min`, `hr`, `ms`; none given: `min`, as
    /// exports write it); `nil` for none, a value not finite or negative (or not finite once
    /// converted), or an unknown unit.
    public static func seconds(_ duration: Double?, unit: String?) -> Double? {
        let scale: [String: Double] = ["s": 1, "sec": 1, "min": 60, "hr": 3600, "h": 3600, "ms": 0.001]
        guard let duration, duration.isFinite, duration >= 0, let factor = scale[unit ?? "min"] else { return nil }
        let seconds = duration * factor
        return seconds.isFinite ? seconds : nil
    }

    /// Whether `unit` is one ``seconds(_:unit:)`` converts (none given: minutes, as exports write).
    public static func isDurationUnit(_ unit: String?) -> Bool { seconds(1, unit: unit) != nil }

    /// The recorded duration in seconds, else end − start.
    public var durationSeconds: Double {
        Self.seconds(duration, unit: durationUnit) ?? max(0, end.timeIntervalSince(start))
    }

    /// The workout's identity: the UUID its writer gave, else the one derived from its content key.
    public var uuid: UUID { givenUUID ?? contentKey.uuid }

    /// The workout as a plain sample (`HKWorkoutTypeIdentifier`, the activity type as its
    /// category value), for indexing and change tracking.
    public var header: Sample {
        Sample(
            type: .workout, start: start, end: end, value: .category(activityType), source: source,
            device: device, creationDate: creationDate, metadata: metadata, utcOffsetSeconds: utcOffsetSeconds,
            uuid: givenUUID)
    }
}

/// `WorkoutEvent`: pause, resume, lap, segment, marker…
public struct WorkoutEvent: Hashable, Sendable, Codable {
    public var type: String
    public var date: Date
    public var duration: Double?
    public var durationUnit: String?
    public var metadata: [MetadataEntry]

    public init(type: String, date: Date, duration: Double? = nil, durationUnit: String? = nil, metadata: [MetadataEntry] = []) {
        self.type = type
        self.date = date
        self.duration = duration
        self.durationUnit = durationUnit
        self.metadata = metadata
    }
}

extension WorkoutEvent {
    /// `true` for a segment or a lap: Apple writes them per kilometre and per mile, so their
    /// durations tell the distance and the pace (activity's kind of data).
    public var tellsDistance: Bool {
        type == "HKWorkoutEventTypeSegment" || type == "HKWorkoutEventTypeLap"
    }
}

/// `WorkoutStatistics`: `sum` for cumulative types, `average/minimum/maximum` for discrete ones.
public struct WorkoutStatistic: Hashable, Sendable, Codable {
    public var type: SampleType
    public var start: Date?
    public var end: Date?
    public var average: Double?
    public var minimum: Double?
    public var maximum: Double?
    public var sum: Double?
    public var unit: String?

    public init(
        type: SampleType, start: Date? = nil, end: Date? = nil, average: Double? = nil, minimum: Double? = nil,
        maximum: Double? = nil, sum: Double? = nil, unit: String? = nil
    ) {
        self.type = type
        self.start = start
        self.end = end
        self.average = average
        self.minimum = minimum
        self.maximum = maximum
        self.sum = sum
        self.unit = unit
    }
}

/// A workout route: a GPX file linked by `FileReference`, or (old exports) inline locations.
public struct WorkoutRoute: Hashable, Sendable, Codable {
    public var source: Source?
    public var device: Device?
    public var start: Date?
    public var end: Date?
    public var creationDate: Date?
    public var metadata: [MetadataEntry]
    /// The `FileReference` path as written (`/workout-routes/route_….gpx`).
    public var filePath: String?
    public var points: [RoutePoint]

    public init(
        source: Source? = nil, device: Device? = nil, start: Date? = nil, end: Date? = nil,
        creationDate: Date? = nil, metadata: [MetadataEntry] = [], filePath: String? = nil, points: [RoutePoint] = []
    ) {
        self.source = source
        self.device = device
        self.start = start
        self.end = end
        self.creationDate = creationDate
        self.metadata = metadata
        self.filePath = filePath
        self.points = points
    }
}

/// One GPX track point (or inline `Location`).
public struct RoutePoint: Hashable, Sendable, Codable {
    public var time: Date?
    public var latitude: Double
    public var longitude: Double
    public var elevation: Double?
    public var speed: Double?
    public var course: Double?
    public var horizontalAccuracy: Double?
    public var verticalAccuracy: Double?

    public init(
        time: Date? = nil, latitude: Double, longitude: Double, elevation: Double? = nil, speed: Double? = nil,
        course: Double? = nil, horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil
    ) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.speed = speed
        self.course = course
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
    }
}

extension RoutePoint {
    /// The Earth's mean radius, metres: the sphere ``metres(to:)`` measures on.
    public static let earthRadius = 6_371_008.8

    /// The great-circle (haversine) distance to `other`, metres, on a sphere of the Earth's
    /// mean radius.
    public func metres(to other: RoutePoint) -> Double {
        let (phi1, phi2) = (latitude * .pi / 180, other.latitude * .pi / 180)
        let deltaPhi = phi2 - phi1
        let deltaLambda = (other.longitude - longitude) * .pi / 180
        let h = sin(deltaPhi / 2) * sin(deltaPhi / 2) + cos(phi1) * cos(phi2) * sin(deltaLambda / 2) * sin(deltaLambda / 2)
        return 2 * Self.earthRadius * asin(min(1, sqrt(h)))
    }

    /// The way travelled to `other`, `seconds` later (`nil`: not known), metres: the distance,
    /// or 0 for a jump faster than any GPS reports (a position glitch, not a way travelled;
    /// ``speedBounds``).
    public func travelled(to other: RoutePoint, seconds: Double?) -> Double {
        let step = metres(to: other)
        guard let seconds else { return step }
        return step > Self.speedBounds.upperBound * max(seconds, 1) ? 0 : step
    }
}

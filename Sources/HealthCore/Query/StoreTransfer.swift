import Foundation

/// A stored sample as its store holds it — anchor, content key, UUID and everything
/// attached — for copying a store row for row (`healthpipe migrate`): the copy's change
/// feed is the original's, anchor for anchor.
package struct StoredSampleRow: Sendable {
    package var anchor: Int64
    package var key: ContentKey
    /// The sample, its UUID given.
    package var sample: Sample
    /// A workout's details; an audiogram's points.
    package var workout: WorkoutDetails?
    package var audiogramPoints: [SensitivityPoint]?
    /// A correlation's members, by UUID, in storage order.
    package var members: [UUID] = []

    package init(anchor: Int64, key: ContentKey, sample: Sample) {
        self.anchor = anchor
        self.key = key
        self.sample = sample
    }
}

/// A record stored by content key alone (clinical records, ECGs, elements kept as read).
package struct StoredRecord: Sendable {
    package var key: ContentKey
    package var record: HealthRecord

    package init(key: ContentKey, record: HealthRecord) {
        self.key = key
        self.record = record
    }
}

/// What a workout has beyond its sample row, kept as JSON in `details`.
package struct WorkoutDetails: Codable, Hashable, Sendable {
    package var duration: Double?
    package var durationUnit: String?
    package var totalDistance: Double?
    package var totalDistanceUnit: String?
    package var totalEnergyBurned: Double?
    package var totalEnergyBurnedUnit: String?
    package var events: [WorkoutEvent]
    package var statistics: [WorkoutStatistic]
    package var routes: [WorkoutRoute]
    package var extras: [RawElement]

    package init(_ workout: Workout) {
        duration = workout.duration
        durationUnit = workout.durationUnit
        totalDistance = workout.totalDistance
        totalDistanceUnit = workout.totalDistanceUnit
        totalEnergyBurned = workout.totalEnergyBurned
        totalEnergyBurnedUnit = workout.totalEnergyBurnedUnit
        events = workout.events
        statistics = workout.statistics
        routes = workout.routes
        extras = workout.extras
    }

    package init(
        duration: Double?, durationUnit: String?, totalDistance: Double?, totalDistanceUnit: String?,
        totalEnergyBurned: Double?, totalEnergyBurnedUnit: String?, events: [WorkoutEvent], statistics: [WorkoutStatistic],
        routes: [WorkoutRoute], extras: [RawElement]
    ) {
        self.duration = duration
        self.durationUnit = durationUnit
        self.totalDistance = totalDistance
        self.totalDistanceUnit = totalDistanceUnit
        self.totalEnergyBurned = totalEnergyBurned
        self.totalEnergyBurnedUnit = totalEnergyBurnedUnit
        self.events = events
        self.statistics = statistics
        self.routes = routes
        self.extras = extras
    }

    package func json() throws -> String { try JSONText.encode(self) }

    private enum CodingKeys: String, CodingKey {
        case duration, durationUnit, totalDistance, totalDistanceUnit, totalEnergyBurned, totalEnergyBurnedUnit
        case events, statistics, routes, extras
    }

    /// Reads the stored JSON; a list left out of it (a read that drops `routes`) is empty.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        duration = try container.decodeIfPresent(Double.self, forKey: .duration)
        durationUnit = try container.decodeIfPresent(String.self, forKey: .durationUnit)
        totalDistance = try container.decodeIfPresent(Double.self, forKey: .totalDistance)
        totalDistanceUnit = try container.decodeIfPresent(String.self, forKey: .totalDistanceUnit)
        totalEnergyBurned = try container.decodeIfPresent(Double.self, forKey: .totalEnergyBurned)
        totalEnergyBurnedUnit = try container.decodeIfPresent(String.self, forKey: .totalEnergyBurnedUnit)
        events = try container.decodeIfPresent([WorkoutEvent].self, forKey: .events) ?? []
        statistics = try container.decodeIfPresent([WorkoutStatistic].self, forKey: .statistics) ?? []
        routes = try container.decodeIfPresent([WorkoutRoute].self, forKey: .routes) ?? []
        extras = try container.decodeIfPresent([RawElement].self, forKey: .extras) ?? []
    }
}

extension Workout {
    /// The workout a store holds: its sample row (`header`: the activity type as its category
    /// value, its UUID given) and its details, `nil` for a store that keeps none.
    package init(header: Sample, details: WorkoutDetails?) {
        let activityType: String
        if case .category(let value) = header.value { activityType = value } else { activityType = "" }
        self.init(
            activityType: activityType, start: header.start, end: header.end, duration: details?.duration,
            durationUnit: details?.durationUnit, totalDistance: details?.totalDistance,
            totalDistanceUnit: details?.totalDistanceUnit, totalEnergyBurned: details?.totalEnergyBurned,
            totalEnergyBurnedUnit: details?.totalEnergyBurnedUnit, source: header.source, device: header.device,
            creationDate: header.creationDate, metadata: header.metadata, utcOffsetSeconds: header.utcOffsetSeconds,
            events: details?.events ?? [], statistics: details?.statistics ?? [], routes: details?.routes ?? [],
            extras: details?.extras ?? [], uuid: header.uuid)
    }
}

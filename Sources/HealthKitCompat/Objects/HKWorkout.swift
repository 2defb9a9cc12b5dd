#if !canImport(HealthKit)
    import Foundation
    import HealthCore

    /// A workout: its activity type, span and duration, the totals and per-type statistics it
    /// recorded, its events and its activities (iOS 16 and later). Its routes are
    /// ``HKWorkoutRoute`` samples: query them with
    /// ``HKQuery/predicateForObjects(from:)-(HKWorkout)`` and read their locations with
    /// ``HKWorkoutRouteQuery``.
    public final class HKWorkout: HKSample, @unchecked Sendable {
        public let workoutActivityType: HKWorkoutActivityType
        /// The time spent working out, in seconds: the recorded duration (pauses left out),
        /// else end − start.
        public let duration: TimeInterval
        /// Pauses, resumes, laps, segments and markers, in the order recorded.
        public let workoutEvents: [HKWorkoutEvent]?
        /// The activities of the workout (a multisport workout's legs); empty for a workout
        /// recorded without any.
        public let workoutActivities: [HKWorkoutActivity]
        /// The statistics the workout recorded, one per quantity type.
        public let allStatistics: [HKQuantityType: HKStatistics]
        /// The energy burned the workout recorded, else the sum of its active energy statistic.
        public let totalEnergyBurned: HKQuantity?
        /// The distance the workout recorded, else the sum of its distance statistic.
        public let totalDistance: HKQuantity?

        init(
            activityType: HKWorkoutActivityType, start: Date, end: Date, uuid: UUID, metadata: [String: Any]?,
            sourceRevision: HKSourceRevision, device: HKDevice?, duration: TimeInterval? = nil,
            events: [HKWorkoutEvent]? = nil, activities: [HKWorkoutActivity] = [],
            statistics: [HKQuantityType: HKStatistics] = [:], totalEnergyBurned: HKQuantity? = nil,
            totalDistance: HKQuantity? = nil
        ) {
            self.workoutActivityType = activityType
            self.duration = duration ?? max(0, end.timeIntervalSince(start))
            self.workoutEvents = events
            self.workoutActivities = activities
            self.allStatistics = statistics
            self.totalEnergyBurned = totalEnergyBurned ?? statistics[HKQuantityType(.activeEnergyBurned)]?.sumQuantity()
            self.totalDistance =
                totalDistance
                ?? Self.distanceTypes.lazy.compactMap { statistics[HKQuantityType($0)]?.sumQuantity() }.first
            super.init(
                type: HKObjectType.workoutType(), start: start, end: end, uuid: uuid, metadata: metadata,
                sourceRevision: sourceRevision, device: device)
        }

        /// The statistic the workout recorded for `quantityType`, if any.
        public func statistics(for quantityType: HKQuantityType) -> HKStatistics? { allStatistics[quantityType] }

        /// The swimming strokes the workout recorded.
        public var totalSwimmingStrokeCount: HKQuantity? {
            allStatistics[HKQuantityType(.swimmingStrokeCount)]?.sumQuantity()
        }

        /// The flights of stairs the workout recorded.
        public var totalFlightsClimbed: HKQuantity? { allStatistics[HKQuantityType(.flightsClimbed)]?.sumQuantity() }

        private static let distanceTypes: [HKQuantityTypeIdentifier] = [
            .distanceWalkingRunning, .distanceCycling, .distanceSwimming, .distanceWheelchair, .distanceDownhillSnowSports,
        ]
    }

    /// What a workout event marks.
    public enum HKWorkoutEventType: Int, Sendable, CaseIterable {
        case pause = 1
        case resume = 2
        case lap = 3
        case marker = 4
        case motionPaused = 5
        case motionResumed = 6
        case segment = 7
        case pauseOrResumeRequest = 8
    }

    /// A moment or span of a workout: a pause, a lap, a segment…
    public final class HKWorkoutEvent: NSObject, @unchecked Sendable {
        public let type: HKWorkoutEventType
        /// When it happened (a zero-length interval for a moment).
        public let dateInterval: DateInterval
        public let metadata: [String: Any]?

        public init(type: HKWorkoutEventType, dateInterval: DateInterval, metadata: [String: Any]?) {
            self.type = type
            self.dateInterval = dateInterval
            self.metadata = metadata
            super.init()
        }

        @available(*, deprecated, message: "use dateInterval")
        public var date: Date { dateInterval.start }
    }

    /// Where a workout took place.
    public enum HKWorkoutSessionLocationType: Int, Sendable {
        case unknown = 1
        case indoor = 2
        case outdoor = 3
    }

    /// What a workout or one of its activities is: the activity type and where.
    public final class HKWorkoutConfiguration: NSObject, @unchecked Sendable {
        public var activityType: HKWorkoutActivityType = .other
        public var locationType: HKWorkoutSessionLocationType = .unknown

        public override init() { super.init() }
    }

    /// One activity of a workout (a leg of a multisport workout), with its own span, events
    /// and statistics.
    public final class HKWorkoutActivity: NSObject, @unchecked Sendable {
        public let uuid: UUID
        public let workoutConfiguration: HKWorkoutConfiguration
        public let startDate: Date
        /// `nil` while the activity is still going on.
        public let endDate: Date?
        public let metadata: [String: Any]?
        public let workoutEvents: [HKWorkoutEvent]
        public let allStatistics: [HKQuantityType: HKStatistics]
        /// The time spent in the activity, in seconds.
        public let duration: TimeInterval

        init(
            uuid: UUID, configuration: HKWorkoutConfiguration, start: Date, end: Date?, duration: TimeInterval,
            metadata: [String: Any]?, events: [HKWorkoutEvent], statistics: [HKQuantityType: HKStatistics]
        ) {
            self.uuid = uuid
            self.workoutConfiguration = configuration
            self.startDate = start
            self.endDate = end
            self.duration = duration
            self.metadata = metadata
            self.workoutEvents = events
            self.allStatistics = statistics
            super.init()
        }

        /// The statistic the activity recorded for `quantityType`, if any.
        public func statistics(for quantityType: HKQuantityType) -> HKStatistics? { allStatistics[quantityType] }

        public override func isEqual(_ object: Any?) -> Bool { (object as? HKWorkoutActivity)?.uuid == uuid }

        public override var hash: Int { uuid.hashValue }
    }
#endif

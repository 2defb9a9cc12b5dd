#if !canImport(HealthKit)
    import Foundation
    import HealthCore

    /// The base of HealthKit's queries, and its predicate factories. Run a query with
    /// ``HKHealthStore/execute(_:)``; its handler is called on a background thread.
    public class HKQuery: NSObject, @unchecked Sendable {
        public let objectType: HKObjectType?
        public let predicate: NSPredicate?
        let state = Locked(RunState())

        struct RunState {
            var stopped = false
            var task: Task<Void, Never>?
        }

        init(objectType: HKObjectType?, predicate: NSPredicate?) {
            self.objectType = objectType
            self.predicate = predicate
            super.init()
        }

        /// Runs the query against `store`: overridden by every query.
        func run(on store: HKHealthStore) async {}

        var isStopped: Bool { state.withLock { $0.stopped } }

        // MARK: Predicates

        public class func predicateForSamples(
            withStart startDate: Date?, end endDate: Date?, options: HKQueryOptions = []
        )
            -> NSPredicate
        {
            HKObjectPredicate(.dates(start: startDate, end: endDate, options: options))
        }

        public class func predicateForObject(with uuid: UUID) -> NSPredicate { HKObjectPredicate(.uuids([uuid])) }

        public class func predicateForObjects(with uuids: Set<UUID>) -> NSPredicate { HKObjectPredicate(.uuids(uuids)) }

        public class func predicateForObjects(from source: HKSource) -> NSPredicate { HKObjectPredicate(.sources([source])) }

        public class func predicateForObjects(from sources: Set<HKSource>) -> NSPredicate {
            HKObjectPredicate(.sources(sources))
        }

        public class func predicateForObjects(from devices: Set<HKDevice>) -> NSPredicate {
            HKObjectPredicate(.devices(devices))
        }

        public class func predicateForObjects(withDeviceProperty key: String, allowedValues: Set<String>) -> NSPredicate {
            HKObjectPredicate(.deviceProperty(key: key, values: allowedValues))
        }

        public class func predicateForObjects(withMetadataKey key: String) -> NSPredicate {
            HKObjectPredicate(.metadataKey(key, values: nil))
        }

        /// Objects whose metadata value for `key` is one of `allowedValues` (compared as text:
        /// exports store metadata as text).
        public class func predicateForObjects(withMetadataKey key: String, allowedValues: [Any]) -> NSPredicate {
            HKObjectPredicate(.metadataKey(key, values: allowedValues.map { "\($0)" }))
        }

        /// Category samples whose value compares with `value` by `operatorType` (`<`, `<=`, `>`,
        /// `>=`, `==`, `!=`; other operators match nothing).
        public class func predicateForCategorySamples(
            with operatorType: NSComparisonPredicate.Operator, value: Int
        )
            -> NSPredicate
        {
            HKObjectPredicate(.categoryValue(operatorType, value))
        }

        public class func predicateForCategorySamples(valueIn values: Set<Int>) -> NSPredicate {
            HKObjectPredicate(.categoryValues(values))
        }

        public class func predicateForWorkouts(with workoutActivityType: HKWorkoutActivityType) -> NSPredicate {
            HKObjectPredicate(.workoutActivity(workoutActivityType))
        }

        /// Workouts whose duration compares with `duration` (seconds) by `operatorType`.
        public class func predicateForWorkouts(
            with operatorType: NSComparisonPredicate.Operator, duration: TimeInterval
        ) -> NSPredicate {
            HKObjectPredicate(.workoutDuration(operatorType, duration))
        }

        /// Workouts whose total energy burned compares with `totalEnergyBurned`.
        public class func predicateForWorkouts(
            with operatorType: NSComparisonPredicate.Operator, totalEnergyBurned: HKQuantity
        ) -> NSPredicate {
            HKObjectPredicate(.workoutTotal(.energy, operatorType, totalEnergyBurned))
        }

        /// Workouts whose total distance compares with `totalDistance`.
        public class func predicateForWorkouts(
            with operatorType: NSComparisonPredicate.Operator, totalDistance: HKQuantity
        ) -> NSPredicate {
            HKObjectPredicate(.workoutTotal(.distance, operatorType, totalDistance))
        }

        /// Workouts with at least one activity that `activityPredicate` matches (made by a
        /// `predicateForWorkoutActivities` method).
        public class func predicateForWorkouts(activityPredicate: NSPredicate) -> NSPredicate {
            HKObjectPredicate(.workoutActivities(activityPredicate))
        }

        /// Workout activities of `workoutActivityType`.
        public class func predicateForWorkoutActivities(workoutActivityType: HKWorkoutActivityType) -> NSPredicate {
            HKObjectPredicate(.activityType(workoutActivityType))
        }

        /// Workout activities whose duration compares with `duration` (seconds).
        public class func predicateForWorkoutActivities(
            operatorType: NSComparisonPredicate.Operator, duration: TimeInterval
        ) -> NSPredicate {
            HKObjectPredicate(.activityDuration(operatorType, duration))
        }

        /// What `workout` recorded: its routes (``HKWorkoutRoute``), and the samples of the
        /// workout's source that lie within its span (HealthKit associates the samples a
        /// workout session collects with it; exports do not keep that link, so the source and
        /// the span stand for it).
        public class func predicateForObjects(from workout: HKWorkout) -> NSPredicate {
            HKObjectPredicate(
                .workout(
                    uuid: workout.uuid, start: workout.startDate, end: workout.endDate,
                    source: workout.sourceRevision.source))
        }
    }
#endif

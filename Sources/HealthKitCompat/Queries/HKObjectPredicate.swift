#if !canImport(HealthKit)
    import Foundation

    /// How a sample's dates are compared with a predicate's interval.
    public struct HKQueryOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// The sample's start lies in the interval.
        public static let strictStartDate = HKQueryOptions(rawValue: 1 << 0)
        /// The sample's end lies in the interval.
        public static let strictEndDate = HKQueryOptions(rawValue: 1 << 1)
    }

    /// The predicates HealthKit's `HKQuery.predicateFor…` methods make. They are plain
    /// `NSPredicate`s to the caller (combine them with `NSCompoundPredicate`); the store reads
    /// their conditions to narrow what it fetches, and evaluates them on each object.
    final class HKObjectPredicate: NSPredicate {
        enum Condition {
            /// HealthKit's rule: `endDate >= start AND startDate < end`, with `startDate >= start`
            /// under `.strictStartDate` and `endDate <= end` under `.strictEndDate`.
            case dates(start: Date?, end: Date?, options: HKQueryOptions)
            case uuids(Set<UUID>)
            case sources(Set<HKSource>)
            case devices(Set<HKDevice>)
            case deviceProperty(key: String, values: Set<String>)
            case metadataKey(String, values: [String]?)
            case categoryValue(NSComparisonPredicate.Operator, Int)
            case categoryValues(Set<Int>)
            case workoutActivity(HKWorkoutActivityType)
            /// What a workout recorded: its routes, and the samples of its source within its span.
            case workout(uuid: UUID, start: Date, end: Date, source: HKSource)
            case workoutDuration(NSComparisonPredicate.Operator, TimeInterval)
            case workoutTotal(WorkoutTotal, NSComparisonPredicate.Operator, HKQuantity)
            /// Workouts with an activity `predicate` matches.
            case workoutActivities(NSPredicate)
            /// Conditions on an ``HKWorkoutActivity``.
            case activityType(HKWorkoutActivityType)
            case activityDuration(NSComparisonPredicate.Operator, TimeInterval)
        }

        enum WorkoutTotal { case energy, distance }

        let condition: Condition

        init(_ condition: Condition) {
            self.condition = condition
            super.init(value: true)
        }

        required init?(coder: NSCoder) { nil }

        override func evaluate(with object: Any?, substitutionVariables bindings: [String: Any]?) -> Bool {
            if let activity = object as? HKWorkoutActivity {
                switch condition {
                case .activityType(let type): return activity.workoutConfiguration.activityType == type
                case .activityDuration(let comparison, let seconds): return Self.compare(activity.duration, comparison, seconds)
                default: return false
                }
            }
            guard let object = object as? HKObject else { return false }
            let sample = object as? HKSample
            switch condition {
            case .dates(let start, let end, let options):
                guard let sample else { return false }
                if let start {
                    guard sample.endDate >= start else { return false }
                    if options.contains(.strictStartDate), sample.startDate < start { return false }
                }
                if let end {
                    guard sample.startDate < end else { return false }
                    if options.contains(.strictEndDate), sample.endDate > end { return false }
                }
                return true
            case .uuids(let uuids): return uuids.contains(object.uuid)
            case .sources(let sources): return sources.contains(object.sourceRevision.source)
            case .devices(let devices): return object.device.map(devices.contains) ?? false
            case .deviceProperty(let key, let values):
                guard let device = object.device, let value = Self.property(key, of: device) else { return false }
                return values.contains(value)
            case .metadataKey(let key, let values):
                guard let value = object.metadata?[key] else { return false }
                return values.map { $0.contains("\(value)") } ?? true
            case .categoryValue(let comparison, let value):
                guard let sample = object as? HKCategorySample else { return false }
                return Self.compare(sample.value, comparison, value)
            case .categoryValues(let values): return (object as? HKCategorySample).map { values.contains($0.value) } ?? false
            case .workoutActivity(let type): return (object as? HKWorkout)?.workoutActivityType == type
            case .workout(let uuid, let start, let end, let source):
                if let route = object as? HKWorkoutRoute { return route.workoutUUID == uuid }
                guard let sample, !(sample is HKWorkout), !(sample is HKWorkoutRoute) else { return false }
                return sample.startDate >= start && sample.endDate <= end && sample.sourceRevision.source == source
            case .workoutDuration(let comparison, let seconds):
                return (object as? HKWorkout).map { Self.compare($0.duration, comparison, seconds) } ?? false
            case .workoutTotal(let total, let comparison, let quantity):
                guard let workout = object as? HKWorkout,
                    let recorded = total == .energy ? workout.totalEnergyBurned : workout.totalDistance,
                    recorded.is(compatibleWith: quantity.unit)
                else { return false }
                return Self.compare(recorded.doubleValue(for: quantity.unit), comparison, quantity.value)
            case .workoutActivities(let predicate):
                return (object as? HKWorkout)?.workoutActivities.contains { predicate.evaluate(with: $0) } ?? false
            case .activityType, .activityDuration:
                return false
            }
        }

        /// `lhs operator rhs` for the comparisons HealthKit's predicates take; any other
        /// operator matches nothing.
        private static func compare<Value: Comparable>(
            _ lhs: Value, _ comparison: NSComparisonPredicate.Operator, _ rhs: Value
        ) -> Bool {
            switch comparison {
            case .lessThan: lhs < rhs
            case .lessThanOrEqualTo: lhs <= rhs
            case .greaterThan: lhs > rhs
            case .greaterThanOrEqualTo: lhs >= rhs
            case .equalTo: lhs == rhs
            case .notEqualTo: lhs != rhs
            default: false
            }
        }

        /// The UUIDs a UUID predicate names (alone or in an AND): nothing else can match.
        static func uuids(of predicate: NSPredicate?) -> Set<UUID>? {
            if let predicate = predicate as? HKObjectPredicate, case .uuids(let uuids) = predicate.condition {
                return uuids
            }
            if let compound = predicate as? NSCompoundPredicate, compound.compoundPredicateType == .and {
                return compound.subpredicates.lazy.compactMap { uuids(of: $0 as? NSPredicate) }.first
            }
            return nil
        }

        /// The workout a workout predicate names (alone or in an AND).
        static func workout(of predicate: NSPredicate?) -> UUID? {
            if let predicate = predicate as? HKObjectPredicate, case .workout(let uuid, _, _, _) = predicate.condition {
                return uuid
            }
            if let compound = predicate as? NSCompoundPredicate, compound.compoundPredicateType == .and {
                return compound.subpredicates.lazy.compactMap { workout(of: $0 as? NSPredicate) }.first
            }
            return nil
        }

        private static func property(_ key: String, of device: HKDevice) -> String? {
            switch key {
            case HKDevicePropertyKeyName: device.name
            case HKDevicePropertyKeyManufacturer: device.manufacturer
            case HKDevicePropertyKeyModel: device.model
            case HKDevicePropertyKeyHardwareVersion: device.hardwareVersion
            case HKDevicePropertyKeyFirmwareVersion: device.firmwareVersion
            case HKDevicePropertyKeySoftwareVersion: device.softwareVersion
            case HKDevicePropertyKeyLocalIdentifier: device.localIdentifier
            case HKDevicePropertyKeyUDIDeviceIdentifier: device.udiDeviceIdentifier
            default: nil
            }
        }

        /// The dates of a date predicate (alone or in an AND): the interval statistics are
        /// computed over.
        static func dateBounds(of predicate: NSPredicate?) -> (start: Date?, end: Date?) {
            if let predicate = predicate as? HKObjectPredicate, case .dates(let start, let end, _) = predicate.condition {
                return (start, end)
            }
            if let compound = predicate as? NSCompoundPredicate, compound.compoundPredicateType == .and {
                for case let child as NSPredicate in compound.subpredicates {
                    let bounds = dateBounds(of: child)
                    if bounds.start != nil || bounds.end != nil { return bounds }
                }
            }
            return (nil, nil)
        }

        /// An interval that holds every sample `predicate` can match (`nil`: no bound known),
        /// for the store to fetch by; the predicate is evaluated on what it returns.
        static func window(of predicate: NSPredicate?) -> DateInterval? {
            if let predicate = predicate as? HKObjectPredicate, case .dates(let start, let end, _) = predicate.condition {
                // The store's overlap excludes a sample that ends exactly at `start`; HealthKit's
                // rule includes it: fetch from a millisecond earlier.
                let lower = start?.addingTimeInterval(-0.001) ?? .distantPast
                return DateInterval(start: lower, end: max(lower, end ?? .distantFuture))
            }
            if let predicate = predicate as? HKObjectPredicate, case .workout(_, let start, let end, _) = predicate.condition {
                return DateInterval(start: start, end: max(start, end))
            }
            if let compound = predicate as? NSCompoundPredicate, compound.compoundPredicateType == .and {
                let windows = compound.subpredicates.compactMap { window(of: $0 as? NSPredicate) }
                guard var result = windows.first else { return nil }
                for window in windows.dropFirst() {
                    let lower = max(result.start, window.start)
                    result = DateInterval(start: lower, end: max(lower, min(result.end, window.end)))
                }
                return result
            }
            return nil
        }
    }

    /// Device property keys for ``HKQuery/predicateForObjects(withDeviceProperty:allowedValues:)``.
    public let HKDevicePropertyKeyName = "name"
    public let HKDevicePropertyKeyManufacturer = "manufacturer"
    public let HKDevicePropertyKeyModel = "model"
    public let HKDevicePropertyKeyHardwareVersion = "hardwareVersion"
    public let HKDevicePropertyKeyFirmwareVersion = "firmwareVersion"
    public let HKDevicePropertyKeySoftwareVersion = "softwareVersion"
    public let HKDevicePropertyKeyLocalIdentifier = "localIdentifier"
    public let HKDevicePropertyKeyUDIDeviceIdentifier = "UDIDeviceIdentifier"

    /// `limit` meaning "no limit".
    public let HKObjectQueryNoLimit = 0

    extension NSSortDescriptor {
        /// HealthKit's sort: `HKSampleSortIdentifierStartDate` or `HKSampleSortIdentifierEndDate`.
        /// (swift-corelibs-foundation has no key-value coding; HealthKit's two keys map to key paths.)
        public convenience init(key: String?, ascending: Bool) {
            if key == HKSampleSortIdentifierEndDate {
                self.init(keyPath: \HKSample.endDate, ascending: ascending)
            } else {
                precondition(
                    key == HKSampleSortIdentifierStartDate,
                    "NSSortDescriptor(key:ascending:): only HKSampleSortIdentifierStartDate and …EndDate are provided")
                self.init(keyPath: \HKSample.startDate, ascending: ascending)
            }
        }
    }
#endif

#if !canImport(HealthKit)
    import Foundation

    /// HealthKit's `HKObjectType`: a kind of data, named by its HealthKit identifier. Two
    /// types with the same identifier are equal (usable in `Set<HKObjectType>`).
    public class HKObjectType: NSObject, @unchecked Sendable {
        /// The identifier exactly as HealthKit spells it (`HKQuantityTypeIdentifierStepCount`).
        public let identifier: String

        init(identifier: String) {
            self.identifier = identifier
            super.init()
        }

        public override func isEqual(_ object: Any?) -> Bool {
            guard let other = object as? HKObjectType else { return false }
            return identifier == other.identifier && Swift.type(of: self) == Swift.type(of: other)
        }

        public override var hash: Int { identifier.hashValue }

        public override var description: String { identifier }

        /// The quantity type of a known identifier.
        public class func quantityType(forIdentifier identifier: HKQuantityTypeIdentifier) -> HKQuantityType? {
            HKQuantityTypeIdentifier.known[identifier.rawValue] == nil ? nil : HKQuantityType(identifier)
        }

        /// The category type of a known identifier.
        public class func categoryType(forIdentifier identifier: HKCategoryTypeIdentifier) -> HKCategoryType? {
            HKCategoryTypeIdentifier.known.contains(identifier.rawValue) ? HKCategoryType(identifier) : nil
        }

        /// The correlation type of a known identifier.
        public class func correlationType(forIdentifier identifier: HKCorrelationTypeIdentifier) -> HKCorrelationType? {
            HKCorrelationTypeIdentifier.known.contains(identifier.rawValue) ? HKCorrelationType(identifier) : nil
        }

        /// The characteristic type of a known identifier.
        public class func characteristicType(forIdentifier identifier: HKCharacteristicTypeIdentifier) -> HKCharacteristicType? {
            HKCharacteristicTypeIdentifier.known.contains(identifier.rawValue) ? HKCharacteristicType(identifier) : nil
        }

        /// The workout type.
        public class func workoutType() -> HKWorkoutType { HKWorkoutType(identifier: HKWorkoutTypeIdentifier) }
    }

    /// The identifier of the workout type.
    public let HKWorkoutTypeIdentifier = "HKWorkoutTypeIdentifier"

    /// A type of sample (quantity, category, workout, correlation).
    public class HKSampleType: HKObjectType, @unchecked Sendable {}

    /// How HealthKit combines the samples of a quantity type.
    public enum HKQuantityAggregationStyle: Int, Sendable {
        case cumulative = 0
        case discreteArithmetic = 1
        case discreteTemporallyWeighted = 2
        case discreteEquivalentContinuousLevel = 3

        @available(*, deprecated, renamed: "discreteArithmetic")
        public static var discrete: HKQuantityAggregationStyle { .discreteArithmetic }
    }

    /// A quantity type (`stepCount`, `heartRate`, …).
    public final class HKQuantityType: HKSampleType, @unchecked Sendable {
        public convenience init(_ identifier: HKQuantityTypeIdentifier) {
            self.init(identifier: identifier.rawValue)
        }

        /// Cumulative (sums) or discrete (averages, minimum, maximum).
        public var aggregationStyle: HKQuantityAggregationStyle {
            HKQuantityTypeIdentifier.known[identifier]?.style ?? .discreteArithmetic
        }

        /// `true` when quantities of this type can be expressed in `unit`.
        public func `is`(compatibleWith unit: HKUnit) -> Bool {
            canonicalUnit.map { $0.isCompatible(with: unit) } ?? true
        }

        /// The unit HealthKit keeps this type in, when the type is known.
        var canonicalUnit: HKUnit? { HKQuantityTypeIdentifier.known[identifier].map { HKUnit(from: $0.unit) } }
    }

    /// A category type (`sleepAnalysis`, `appleStandHour`, …).
    public final class HKCategoryType: HKSampleType, @unchecked Sendable {
        public convenience init(_ identifier: HKCategoryTypeIdentifier) {
            self.init(identifier: identifier.rawValue)
        }
    }

    /// A correlation type (blood pressure, food).
    public final class HKCorrelationType: HKSampleType, @unchecked Sendable {
        public convenience init(_ identifier: HKCorrelationTypeIdentifier) {
            self.init(identifier: identifier.rawValue)
        }
    }

    /// The workout type.
    public final class HKWorkoutType: HKSampleType, @unchecked Sendable {}

    /// A characteristic (date of birth, biological sex, blood type…): not a sample.
    public final class HKCharacteristicType: HKObjectType, @unchecked Sendable {
        public convenience init(_ identifier: HKCharacteristicTypeIdentifier) {
            self.init(identifier: identifier.rawValue)
        }
    }

    extension HKSampleType {
        /// The type of a stored identifier, as the right subclass; `nil` for kinds HealthKit
        /// does not query as samples here (audiograms, ECGs, goals).
        static func forIdentifier(_ identifier: String) -> HKSampleType? {
            if identifier == HKWorkoutTypeIdentifier { return HKObjectType.workoutType() }
            if identifier.hasPrefix("HKQuantityTypeIdentifier") { return HKQuantityType(identifier: identifier) }
            if identifier.hasPrefix("HKCategoryTypeIdentifier") { return HKCategoryType(identifier: identifier) }
            if identifier.hasPrefix("HKCorrelationTypeIdentifier") { return HKCorrelationType(identifier: identifier) }
            return nil
        }
    }
#endif

/// A HealthKit data type, named by its HealthKit identifier
/// (`HKQuantityTypeIdentifierStepCount`, `HKCategoryTypeIdentifierSleepAnalysis`, …).
///
/// Unknown identifiers are kept verbatim: a record is never dropped because its type is new.
///
/// ```swift
/// let steps = SampleType.stepCount
/// steps.kind            // .quantity
/// SampleType("HKDataTypeSleepDurationGoal").kind  // .other
/// ```
public struct SampleType: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The identifier exactly as HealthKit and the export spell it.
    public let identifier: String

    public init(_ identifier: String) { self.identifier = identifier }

    public init(from decoder: any Decoder) throws {
        identifier = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }

    /// The family the identifier belongs to, read from its prefix.
    public var kind: Kind {
        if identifier.hasPrefix("HKQuantityTypeIdentifier") { return .quantity }
        if identifier.hasPrefix("HKCategoryTypeIdentifier") { return .category }
        if identifier.hasPrefix("HKCorrelationTypeIdentifier") { return .correlation }
        if identifier == SampleType.workout.identifier { return .workout }
        return .other
    }

    public var description: String { identifier }

    public static func < (lhs: SampleType, rhs: SampleType) -> Bool { lhs.identifier < rhs.identifier }

    /// The families of HealthKit sample types.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case quantity, category, workout, correlation, other
    }
}

extension SampleType {
    public static let stepCount = SampleType("HKQuantityTypeIdentifierStepCount")
    public static let activeEnergyBurned = SampleType("HKQuantityTypeIdentifierActiveEnergyBurned")
    public static let basalEnergyBurned = SampleType("HKQuantityTypeIdentifierBasalEnergyBurned")
    public static let heartRate = SampleType("HKQuantityTypeIdentifierHeartRate")
    public static let restingHeartRate = SampleType("HKQuantityTypeIdentifierRestingHeartRate")
    public static let heartRateVariabilitySDNN = SampleType("HKQuantityTypeIdentifierHeartRateVariabilitySDNN")
    public static let bodyMass = SampleType("HKQuantityTypeIdentifierBodyMass")
    public static let bodyFatPercentage = SampleType("HKQuantityTypeIdentifierBodyFatPercentage")
    public static let bloodGlucose = SampleType("HKQuantityTypeIdentifierBloodGlucose")
    public static let bloodPressureSystolic = SampleType("HKQuantityTypeIdentifierBloodPressureSystolic")
    public static let bloodPressureDiastolic = SampleType("HKQuantityTypeIdentifierBloodPressureDiastolic")
    public static let distanceWalkingRunning = SampleType("HKQuantityTypeIdentifierDistanceWalkingRunning")
    public static let appleExerciseTime = SampleType("HKQuantityTypeIdentifierAppleExerciseTime")
    public static let appleStandTime = SampleType("HKQuantityTypeIdentifierAppleStandTime")
    public static let dietaryEnergyConsumed = SampleType("HKQuantityTypeIdentifierDietaryEnergyConsumed")
    public static let sleepAnalysis = SampleType("HKCategoryTypeIdentifierSleepAnalysis")
    public static let appleStandHour = SampleType("HKCategoryTypeIdentifierAppleStandHour")
    public static let bloodPressure = SampleType("HKCorrelationTypeIdentifierBloodPressure")
    public static let food = SampleType("HKCorrelationTypeIdentifierFood")
    public static let workout = SampleType("HKWorkoutTypeIdentifier")
    public static let audiogram = SampleType("HKDataTypeIdentifierAudiogram")
}

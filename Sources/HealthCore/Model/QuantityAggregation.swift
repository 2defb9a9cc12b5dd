/// How HealthKit aggregates the values of a quantity type: summed over an interval
/// (steps, energy, distance) or summarised by their mean, minimum and maximum (heart rate,
/// weight). Raw values are HealthKit's `HKQuantityAggregationStyle`.
public enum QuantityAggregation: Int, Sendable, Hashable {
    case cumulative = 0
    case discreteArithmetic = 1
    case discreteTemporallyWeighted = 2
    case discreteEquivalentContinuousLevel = 3

    /// Summed over an interval.
    public var isCumulative: Bool { self == .cumulative }
}

extension SampleType {
    /// The quantity types HealthKit documents: how each is aggregated and the unit it keeps it in.
    public static let quantityCatalog: [String: (aggregation: QuantityAggregation, unit: String)] = [
        "HKQuantityTypeIdentifierStepCount": (.cumulative, "count"),
        "HKQuantityTypeIdentifierDistanceWalkingRunning": (.cumulative, "m"),
        "HKQuantityTypeIdentifierDistanceCycling": (.cumulative, "m"),
        "HKQuantityTypeIdentifierDistanceWheelchair": (.cumulative, "m"),
        "HKQuantityTypeIdentifierDistanceSwimming": (.cumulative, "m"),
        "HKQuantityTypeIdentifierDistanceDownhillSnowSports": (.cumulative, "m"),
        "HKQuantityTypeIdentifierBasalEnergyBurned": (.cumulative, "kcal"),
        "HKQuantityTypeIdentifierActiveEnergyBurned": (.cumulative, "kcal"),
        "HKQuantityTypeIdentifierFlightsClimbed": (.cumulative, "count"),
        "HKQuantityTypeIdentifierNikeFuel": (.cumulative, "count"),
        "HKQuantityTypeIdentifierAppleExerciseTime": (.cumulative, "min"),
        "HKQuantityTypeIdentifierAppleMoveTime": (.cumulative, "min"),
        "HKQuantityTypeIdentifierAppleStandTime": (.cumulative, "min"),
        "HKQuantityTypeIdentifierPushCount": (.cumulative, "count"),
        "HKQuantityTypeIdentifierSwimmingStrokeCount": (.cumulative, "count"),
        "HKQuantityTypeIdentifierTimeInDaylight": (.cumulative, "min"),
        "HKQuantityTypeIdentifierNumberOfTimesFallen": (.cumulative, "count"),
        "HKQuantityTypeIdentifierInhalerUsage": (.cumulative, "count"),
        "HKQuantityTypeIdentifierInsulinDelivery": (.cumulative, "IU"),
        "HKQuantityTypeIdentifierNumberOfAlcoholicBeverages": (.cumulative, "count"),
        "HKQuantityTypeIdentifierDietaryEnergyConsumed": (.cumulative, "kcal"),
        "HKQuantityTypeIdentifierDietaryProtein": (.cumulative, "g"),
        "HKQuantityTypeIdentifierDietaryCarbohydrates": (.cumulative, "g"),
        "HKQuantityTypeIdentifierDietaryFatTotal": (.cumulative, "g"),
        "HKQuantityTypeIdentifierDietaryFatSaturated": (.cumulative, "g"),
        "HKQuantityTypeIdentifierDietaryFatMonounsaturated": (.cumulative, "g"),
        "HKQuantityTypeIdentifierDietaryFatPolyunsaturated": (.cumulative, "g"),
        "HKQuantityTypeIdentifierDietarySugar": (.cumulative, "g"),
        "HKQuantityTypeIdentifierDietaryFiber": (.cumulative, "g"),
        "HKQuantityTypeIdentifierDietaryCholesterol": (.cumulative, "mg"),
        "HKQuantityTypeIdentifierDietarySodium": (.cumulative, "mg"),
        "HKQuantityTypeIdentifierDietaryPotassium": (.cumulative, "mg"),
        "HKQuantityTypeIdentifierDietaryCalcium": (.cumulative, "mg"),
        "HKQuantityTypeIdentifierDietaryIron": (.cumulative, "mg"),
        "HKQuantityTypeIdentifierDietaryVitaminC": (.cumulative, "mg"),
        "HKQuantityTypeIdentifierDietaryVitaminD": (.cumulative, "mcg"),
        "HKQuantityTypeIdentifierDietaryCaffeine": (.cumulative, "mg"),
        "HKQuantityTypeIdentifierDietaryWater": (.cumulative, "mL"),
        "HKQuantityTypeIdentifierHeartRate": (.discreteTemporallyWeighted, "count/min"),
        "HKQuantityTypeIdentifierRestingHeartRate": (.discreteArithmetic, "count/min"),
        "HKQuantityTypeIdentifierWalkingHeartRateAverage": (.discreteArithmetic, "count/min"),
        "HKQuantityTypeIdentifierHeartRateVariabilitySDNN": (.discreteArithmetic, "ms"),
        "HKQuantityTypeIdentifierHeartRateRecoveryOneMinute": (.discreteArithmetic, "count/min"),
        "HKQuantityTypeIdentifierOxygenSaturation": (.discreteArithmetic, "%"),
        "HKQuantityTypeIdentifierRespiratoryRate": (.discreteArithmetic, "count/min"),
        "HKQuantityTypeIdentifierBodyTemperature": (.discreteArithmetic, "degC"),
        "HKQuantityTypeIdentifierBasalBodyTemperature": (.discreteArithmetic, "degC"),
        "HKQuantityTypeIdentifierAppleSleepingWristTemperature": (.discreteArithmetic, "degC"),
        "HKQuantityTypeIdentifierBloodPressureSystolic": (.discreteArithmetic, "mmHg"),
        "HKQuantityTypeIdentifierBloodPressureDiastolic": (.discreteArithmetic, "mmHg"),
        "HKQuantityTypeIdentifierBloodGlucose": (.discreteArithmetic, "mg/dL"),
        "HKQuantityTypeIdentifierBloodAlcoholContent": (.discreteArithmetic, "%"),
        "HKQuantityTypeIdentifierPeripheralPerfusionIndex": (.discreteArithmetic, "%"),
        "HKQuantityTypeIdentifierElectrodermalActivity": (.discreteArithmetic, "S"),
        "HKQuantityTypeIdentifierForcedVitalCapacity": (.discreteArithmetic, "L"),
        "HKQuantityTypeIdentifierForcedExpiratoryVolume1": (.discreteArithmetic, "L"),
        "HKQuantityTypeIdentifierPeakExpiratoryFlowRate": (.discreteArithmetic, "L/min"),
        "HKQuantityTypeIdentifierVO2Max": (.discreteArithmetic, "mL/kg·min"),
        "HKQuantityTypeIdentifierBodyMass": (.discreteArithmetic, "kg"),
        "HKQuantityTypeIdentifierBodyMassIndex": (.discreteArithmetic, "count"),
        "HKQuantityTypeIdentifierBodyFatPercentage": (.discreteArithmetic, "%"),
        "HKQuantityTypeIdentifierLeanBodyMass": (.discreteArithmetic, "kg"),
        "HKQuantityTypeIdentifierHeight": (.discreteArithmetic, "m"),
        "HKQuantityTypeIdentifierWaistCircumference": (.discreteArithmetic, "m"),
        "HKQuantityTypeIdentifierUvExposure": (.discreteArithmetic, "count"),
        "HKQuantityTypeIdentifierEnvironmentalAudioExposure": (.discreteEquivalentContinuousLevel, "dBASPL"),
        "HKQuantityTypeIdentifierHeadphoneAudioExposure": (.discreteEquivalentContinuousLevel, "dBASPL"),
        "HKQuantityTypeIdentifierEnvironmentalSoundReduction": (.discreteEquivalentContinuousLevel, "dBASPL"),
        "HKQuantityTypeIdentifierWalkingSpeed": (.discreteArithmetic, "m/s"),
        "HKQuantityTypeIdentifierWalkingStepLength": (.discreteArithmetic, "m"),
        "HKQuantityTypeIdentifierWalkingAsymmetryPercentage": (.discreteArithmetic, "%"),
        "HKQuantityTypeIdentifierWalkingDoubleSupportPercentage": (.discreteArithmetic, "%"),
        "HKQuantityTypeIdentifierSixMinuteWalkTestDistance": (.discreteArithmetic, "m"),
        "HKQuantityTypeIdentifierStairAscentSpeed": (.discreteArithmetic, "m/s"),
        "HKQuantityTypeIdentifierStairDescentSpeed": (.discreteArithmetic, "m/s"),
        "HKQuantityTypeIdentifierAppleWalkingSteadiness": (.discreteArithmetic, "%"),
        "HKQuantityTypeIdentifierRunningSpeed": (.discreteArithmetic, "m/s"),
        "HKQuantityTypeIdentifierRunningPower": (.discreteArithmetic, "W"),
        "HKQuantityTypeIdentifierRunningStrideLength": (.discreteArithmetic, "m"),
        "HKQuantityTypeIdentifierRunningVerticalOscillation": (.discreteArithmetic, "cm"),
        "HKQuantityTypeIdentifierRunningGroundContactTime": (.discreteArithmetic, "ms"),
        "HKQuantityTypeIdentifierCyclingSpeed": (.discreteArithmetic, "m/s"),
        "HKQuantityTypeIdentifierCyclingPower": (.discreteArithmetic, "W"),
        "HKQuantityTypeIdentifierCyclingCadence": (.discreteArithmetic, "count/min"),
        "HKQuantityTypeIdentifierCyclingFunctionalThresholdPower": (.discreteArithmetic, "W"),
        "HKQuantityTypeIdentifierPhysicalEffort": (.discreteArithmetic, "kcal/hr·kg"),
        "HKQuantityTypeIdentifierAtrialFibrillationBurden": (.discreteArithmetic, "%"),
        "HKQuantityTypeIdentifierWaterTemperature": (.discreteArithmetic, "degC"),
        "HKQuantityTypeIdentifierUnderwaterDepth": (.discreteArithmetic, "m"),
    ]

    /// How the type's values aggregate, when it is a known quantity type.
    public var quantityAggregation: QuantityAggregation? { Self.quantityCatalog[identifier]?.aggregation }

    /// The unit HealthKit keeps the type in (`count/min`, `kg`), when it is a known quantity type.
    public var canonicalUnit: String? { Self.quantityCatalog[identifier]?.unit }
}

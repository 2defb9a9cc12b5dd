import HealthCore

/// Health Auto Export metric names and the HealthKit types they are stored as. A name not
/// listed is kept under `HAE:<name>` (kind `other`), never rejected.
enum HAEMetricMap {
    static let quantities: [String: SampleType] = [
        "step_count": .stepCount,
        "active_energy": .activeEnergyBurned,
        "basal_energy_burned": .basalEnergyBurned,
        "walking_running_distance": .distanceWalkingRunning,
        "flights_climbed": SampleType("HKQuantityTypeIdentifierFlightsClimbed"),
        "heart_rate": .heartRate,
        "resting_heart_rate": .restingHeartRate,
        "walking_heart_rate_average": SampleType("HKQuantityTypeIdentifierWalkingHeartRateAverage"),
        "heart_rate_variability": .heartRateVariabilitySDNN,
        "weight_body_mass": .bodyMass,
        "blood_glucose": .bloodGlucose,
        "respiratory_rate": SampleType("HKQuantityTypeIdentifierRespiratoryRate"),
        "apple_exercise_time": .appleExerciseTime,
        "apple_stand_time": .appleStandTime,
        "dietary_energy": .dietaryEnergyConsumed,
        "body_temperature": SampleType("HKQuantityTypeIdentifierBodyTemperature"),
        "basal_body_temperature": SampleType("HKQuantityTypeIdentifierBasalBodyTemperature"),
        "vo2_max": SampleType("HKQuantityTypeIdentifierVO2Max"),
        "height": SampleType("HKQuantityTypeIdentifierHeight"),
        "body_mass_index": SampleType("HKQuantityTypeIdentifierBodyMassIndex"),
    ]

    /// Health Auto Export's unit words → HealthKit unit strings.
    static func unit(_ units: String) -> String {
        switch units {
        case "kcal": "kcal"
        case "bpm", "count/min": "count/min"
        case "steps": "count"
        default: units
        }
    }

    /// The sleep stage words of unaggregated points → HealthKit category values.
    static func sleepValue(_ word: String) -> String {
        switch word.lowercased().replacingOccurrences(of: " ", with: "") {
        case "inbed": "HKCategoryValueSleepAnalysisInBed"
        case "core": "HKCategoryValueSleepAnalysisAsleepCore"
        case "deep": "HKCategoryValueSleepAnalysisAsleepDeep"
        case "rem": "HKCategoryValueSleepAnalysisAsleepREM"
        case "awake": "HKCategoryValueSleepAnalysisAwake"
        default: "HKCategoryValueSleepAnalysisAsleepUnspecified"
        }
    }
}

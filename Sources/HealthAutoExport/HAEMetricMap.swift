import HealthCore

/// Health Auto Export metric names and the HealthKit types they are stored as. A name not
/// listed is kept under `HAE:<name>` (kind `other`) and reported in `unknown_metrics`,
/// never rejected. `apple_stand_hour` (hours stood per period) and `mindful_minutes`,
/// `handwashing`, `toothbrushing` (category events sent as counts) have no faithful
/// HealthKit sample shape, so they stay under their own names too.
enum HAEMetricMap {
    /// Every quantity metric the app sends (its names are Apple Health's display names in
    /// snake_case), with the HealthKit type it is stored as. Nutrients come both bare
    /// (`protein`) and prefixed (`dietary_protein`): both are accepted.
    static let quantities: [String: SampleType] = {
        var map: [String: SampleType] = [
            "step_count": SampleType("HKQuantityTypeIdentifierStepCount"),
            "active_energy": SampleType("HKQuantityTypeIdentifierActiveEnergyBurned"),
            "basal_energy_burned": SampleType("HKQuantityTypeIdentifierBasalEnergyBurned"),
            "walking_running_distance": SampleType("HKQuantityTypeIdentifierDistanceWalkingRunning"),
            "cycling_distance": SampleType("HKQuantityTypeIdentifierDistanceCycling"),
            "swimming_distance": SampleType("HKQuantityTypeIdentifierDistanceSwimming"),
            "wheelchair_distance": SampleType("HKQuantityTypeIdentifierDistanceWheelchair"),
            "distance_downhill_snow_sports": SampleType("HKQuantityTypeIdentifierDistanceDownhillSnowSports"),
            "flights_climbed": SampleType("HKQuantityTypeIdentifierFlightsClimbed"),
            "push_count": SampleType("HKQuantityTypeIdentifierPushCount"),
            "swimming_stroke_count": SampleType("HKQuantityTypeIdentifierSwimmingStrokeCount"),
            "apple_exercise_time": SampleType("HKQuantityTypeIdentifierAppleExerciseTime"),
            "apple_move_time": SampleType("HKQuantityTypeIdentifierAppleMoveTime"),
            "apple_stand_time": SampleType("HKQuantityTypeIdentifierAppleStandTime"),
            "physical_effort": SampleType("HKQuantityTypeIdentifierPhysicalEffort"),
            "time_in_daylight": SampleType("HKQuantityTypeIdentifierTimeInDaylight"),
            "cycling_cadence": SampleType("HKQuantityTypeIdentifierCyclingCadence"),
            "cycling_power": SampleType("HKQuantityTypeIdentifierCyclingPower"),
            "cycling_speed": SampleType("HKQuantityTypeIdentifierCyclingSpeed"),
            "cycling_functional_threshold_power": SampleType("HKQuantityTypeIdentifierCyclingFunctionalThresholdPower"),
            "running_power": SampleType("HKQuantityTypeIdentifierRunningPower"),
            "running_speed": SampleType("HKQuantityTypeIdentifierRunningSpeed"),
            "running_stride_length": SampleType("HKQuantityTypeIdentifierRunningStrideLength"),
            "running_vertical_oscillation": SampleType("HKQuantityTypeIdentifierRunningVerticalOscillation"),
            "running_ground_contact_time": SampleType("HKQuantityTypeIdentifierRunningGroundContactTime"),
            "walking_speed": SampleType("HKQuantityTypeIdentifierWalkingSpeed"),
            "walking_step_length": SampleType("HKQuantityTypeIdentifierWalkingStepLength"),
            "walking_asymmetry_percentage": SampleType("HKQuantityTypeIdentifierWalkingAsymmetryPercentage"),
            "walking_double_support_percentage": SampleType("HKQuantityTypeIdentifierWalkingDoubleSupportPercentage"),
            "walking_steadiness": SampleType("HKQuantityTypeIdentifierAppleWalkingSteadiness"),
            "apple_walking_steadiness": SampleType("HKQuantityTypeIdentifierAppleWalkingSteadiness"),
            "six_minute_walking_test_distance": SampleType("HKQuantityTypeIdentifierSixMinuteWalkTestDistance"),
            "six_minute_walk_test_distance": SampleType("HKQuantityTypeIdentifierSixMinuteWalkTestDistance"),
            "stair_speed_up": SampleType("HKQuantityTypeIdentifierStairAscentSpeed"),
            "stair_speed_down": SampleType("HKQuantityTypeIdentifierStairDescentSpeed"),
            "heart_rate": SampleType("HKQuantityTypeIdentifierHeartRate"),
            "resting_heart_rate": SampleType("HKQuantityTypeIdentifierRestingHeartRate"),
            "walking_heart_rate_average": SampleType("HKQuantityTypeIdentifierWalkingHeartRateAverage"),
            "heart_rate_variability": SampleType("HKQuantityTypeIdentifierHeartRateVariabilitySDNN"),
            "cardio_recovery": SampleType("HKQuantityTypeIdentifierHeartRateRecoveryOneMinute"),
            "atrial_fibrillation_burden": SampleType("HKQuantityTypeIdentifierAtrialFibrillationBurden"),
            "vo2_max": SampleType("HKQuantityTypeIdentifierVO2Max"),
            "blood_oxygen_saturation": SampleType("HKQuantityTypeIdentifierOxygenSaturation"),
            "respiratory_rate": SampleType("HKQuantityTypeIdentifierRespiratoryRate"),
            "breathing_disturbances": SampleType("HKQuantityTypeIdentifierAppleSleepingBreathingDisturbances"),
            "peripheral_perfusion_index": SampleType("HKQuantityTypeIdentifierPeripheralPerfusionIndex"),
            "forced_vital_capacity": SampleType("HKQuantityTypeIdentifierForcedVitalCapacity"),
            "forced_expiratory_volume_1": SampleType("HKQuantityTypeIdentifierForcedExpiratoryVolume1"),
            "peak_expiratory_flow_rate": SampleType("HKQuantityTypeIdentifierPeakExpiratoryFlowRate"),
            "inhaler_usage": SampleType("HKQuantityTypeIdentifierInhalerUsage"),
            "weight_body_mass": SampleType("HKQuantityTypeIdentifierBodyMass"),
            "height": SampleType("HKQuantityTypeIdentifierHeight"),
            "body_mass_index": SampleType("HKQuantityTypeIdentifierBodyMassIndex"),
            "body_fat_percentage": SampleType("HKQuantityTypeIdentifierBodyFatPercentage"),
            "lean_body_mass": SampleType("HKQuantityTypeIdentifierLeanBodyMass"),
            "waist_circumference": SampleType("HKQuantityTypeIdentifierWaistCircumference"),
            "body_temperature": SampleType("HKQuantityTypeIdentifierBodyTemperature"),
            "basal_body_temperature": SampleType("HKQuantityTypeIdentifierBasalBodyTemperature"),
            "apple_sleeping_wrist_temperature": SampleType("HKQuantityTypeIdentifierAppleSleepingWristTemperature"),
            "electrodermal_activity": SampleType("HKQuantityTypeIdentifierElectrodermalActivity"),
            "blood_glucose": SampleType("HKQuantityTypeIdentifierBloodGlucose"),
            "insulin_delivery": SampleType("HKQuantityTypeIdentifierInsulinDelivery"),
            "blood_alcohol_content": SampleType("HKQuantityTypeIdentifierBloodAlcoholContent"),
            "number_of_alcoholic_beverages": SampleType("HKQuantityTypeIdentifierNumberOfAlcoholicBeverages"),
            "number_of_times_fallen": SampleType("HKQuantityTypeIdentifierNumberOfTimesFallen"),
            "uv_exposure": SampleType("HKQuantityTypeIdentifierUVExposure"),
            "environmental_audio_exposure": SampleType("HKQuantityTypeIdentifierEnvironmentalAudioExposure"),
            "headphone_audio_exposure": SampleType("HKQuantityTypeIdentifierHeadphoneAudioExposure"),
            "environmental_sound_reduction": SampleType("HKQuantityTypeIdentifierEnvironmentalSoundReduction"),
            "underwater_depth": SampleType("HKQuantityTypeIdentifierUnderwaterDepth"),
            "water_temperature": SampleType("HKQuantityTypeIdentifierWaterTemperature"),
        ]
        for (name, type) in nutrients {
            map[name] = SampleType("HKQuantityTypeIdentifier" + type)
            map["dietary_" + name] = SampleType("HKQuantityTypeIdentifier" + type)
        }
        return map
    }()

    /// Nutrients: HAE name → HealthKit type name after `HKQuantityTypeIdentifier`.
    static let nutrients: [(String, String)] = [
        ("dietary_energy", "DietaryEnergyConsumed"),
        ("protein", "DietaryProtein"),
        ("carbohydrates", "DietaryCarbohydrates"),
        ("total_fat", "DietaryFatTotal"),
        ("saturated_fat", "DietaryFatSaturated"),
        ("monounsaturated_fat", "DietaryFatMonounsaturated"),
        ("polyunsaturated_fat", "DietaryFatPolyunsaturated"),
        ("cholesterol", "DietaryCholesterol"),
        ("fiber", "DietaryFiber"),
        ("sugar", "DietarySugar"),
        ("sodium", "DietarySodium"),
        ("potassium", "DietaryPotassium"),
        ("calcium", "DietaryCalcium"),
        ("iron", "DietaryIron"),
        ("magnesium", "DietaryMagnesium"),
        ("phosphorus", "DietaryPhosphorus"),
        ("zinc", "DietaryZinc"),
        ("copper", "DietaryCopper"),
        ("manganese", "DietaryManganese"),
        ("selenium", "DietarySelenium"),
        ("chromium", "DietaryChromium"),
        ("molybdenum", "DietaryMolybdenum"),
        ("chloride", "DietaryChloride"),
        ("iodine", "DietaryIodine"),
        ("vitamin_a", "DietaryVitaminA"),
        ("vitamin_b6", "DietaryVitaminB6"),
        ("vitamin_b12", "DietaryVitaminB12"),
        ("vitamin_c", "DietaryVitaminC"),
        ("vitamin_d", "DietaryVitaminD"),
        ("vitamin_e", "DietaryVitaminE"),
        ("vitamin_k", "DietaryVitaminK"),
        ("thiamin", "DietaryThiamin"),
        ("riboflavin", "DietaryRiboflavin"),
        ("niacin", "DietaryNiacin"),
        ("folate", "DietaryFolate"),
        ("biotin", "DietaryBiotin"),
        ("pantothenic_acid", "DietaryPantothenicAcid"),
        ("caffeine", "DietaryCaffeine"),
        ("water", "DietaryWater"),
    ]

    /// Health Auto Export's unit words → HealthKit unit strings.
    static func unit(_ units: String) -> String {
        switch units {
        case "kcal": "kcal"
        case "bpm", "count/min", "breaths/min", "beats/min": "count/min"
        case "steps": "count"
        case "ml/(kg·min)", "ml/(kg*min)", "mL/(kg*min)", "ml/kg/min": "mL/(kg·min)"
        case "ml": "mL"
        case "km/h": "km/hr"
        case "mph": "mi/hr"
        case "µg", "ug": "mcg"
        default: units
        }
    }

    /// A value in HealthKit's terms: Health Auto Export sends percentages as 0–100 (97 for
    /// 97 % SpO₂), HealthKit and Apple's export keep fractions (0.97) under `%`.
    static func value(_ qty: Double, units: String) -> Double {
        units == "%" ? qty / 100 : qty
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

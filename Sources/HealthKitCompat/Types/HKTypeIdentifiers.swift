#if !canImport(HealthKit)
    import HealthCore

    // HealthKit's identifiers, with the aggregation style and unit HealthKit gives each.

    /// A quantity type identifier: `HKQuantityTypeIdentifier.stepCount.rawValue` is
    /// `"HKQuantityTypeIdentifierStepCount"`, as in HealthKit and in exports.
    public struct HKQuantityTypeIdentifier: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public static let stepCount = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierStepCount")
        public static let distanceWalkingRunning = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierDistanceWalkingRunning")
        public static let distanceCycling = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierDistanceCycling")
        public static let distanceWheelchair = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierDistanceWheelchair")
        public static let distanceSwimming = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierDistanceSwimming")
        public static let distanceDownhillSnowSports = HKQuantityTypeIdentifier(
            "HKQuantityTypeIdentifierDistanceDownhillSnowSports")
        public static let basalEnergyBurned = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierBasalEnergyBurned")
        public static let activeEnergyBurned = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierActiveEnergyBurned")
        public static let flightsClimbed = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierFlightsClimbed")
        public static let nikeFuel = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierNikeFuel")
        public static let appleExerciseTime = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierAppleExerciseTime")
        public static let appleMoveTime = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierAppleMoveTime")
        public static let appleStandTime = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierAppleStandTime")
        public static let pushCount = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierPushCount")
        public static let swimmingStrokeCount = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierSwimmingStrokeCount")
        public static let timeInDaylight = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierTimeInDaylight")
        public static let numberOfTimesFallen = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierNumberOfTimesFallen")
        public static let inhalerUsage = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierInhalerUsage")
        public static let insulinDelivery = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierInsulinDelivery")
        public static let numberOfAlcoholicBeverages = HKQuantityTypeIdentifier(
            "HKQuantityTypeIdentifierNumberOfAlcoholicBeverages")
        public static let dietaryEnergyConsumed = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierDietaryEnergyConsumed")
        public static let dietaryProtein = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierDietaryProtein")
        public static let dietaryCarbohydrates = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierDietaryCarbohydrates")
        public static let dietaryFatTotal = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierDietaryFatTotal")
        public static let dietaryFatSaturated = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierDietaryFatSaturated")
        public static let dietaryFatMonounsaturated = HKQuantityTypeIdentifier(
            "HKQuantityTypeIdentifierDietaryFatMonounsaturated")
        public static let dietaryFatPolyunsaturated = HKQuantityTypeIdentifier(
            "HKQuantityTypeIdentifierDietaryFatPolyunsaturated")
        public static let dietarySugar = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierDietarySugar")
        public static let dietaryFiber = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierDietaryFiber")
        public static let dietaryCholesterol = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierDietaryCholesterol")
        public static let dietarySodium = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierDietarySodium")
        public static let dietaryPotassium = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierDietaryPotassium")
        public static let dietaryCalcium = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierDietaryCalcium")
        public static let dietaryIron = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierDietaryIron")
        public static let dietaryVitaminC = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierDietaryVitaminC")
        public static let dietaryVitaminD = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierDietaryVitaminD")
        public static let dietaryCaffeine = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierDietaryCaffeine")
        public static let dietaryWater = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierDietaryWater")
        public static let heartRate = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierHeartRate")
        public static let restingHeartRate = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierRestingHeartRate")
        public static let walkingHeartRateAverage = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierWalkingHeartRateAverage")
        public static let heartRateVariabilitySDNN = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierHeartRateVariabilitySDNN")
        public static let heartRateRecoveryOneMinute = HKQuantityTypeIdentifier(
            "HKQuantityTypeIdentifierHeartRateRecoveryOneMinute")
        public static let oxygenSaturation = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierOxygenSaturation")
        public static let respiratoryRate = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierRespiratoryRate")
        public static let bodyTemperature = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierBodyTemperature")
        public static let basalBodyTemperature = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierBasalBodyTemperature")
        public static let appleSleepingWristTemperature = HKQuantityTypeIdentifier(
            "HKQuantityTypeIdentifierAppleSleepingWristTemperature")
        public static let bloodPressureSystolic = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierBloodPressureSystolic")
        public static let bloodPressureDiastolic = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierBloodPressureDiastolic")
        public static let bloodGlucose = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierBloodGlucose")
        public static let bloodAlcoholContent = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierBloodAlcoholContent")
        public static let peripheralPerfusionIndex = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierPeripheralPerfusionIndex")
        public static let electrodermalActivity = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierElectrodermalActivity")
        public static let forcedVitalCapacity = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierForcedVitalCapacity")
        public static let forcedExpiratoryVolume1 = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierForcedExpiratoryVolume1")
        public static let peakExpiratoryFlowRate = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierPeakExpiratoryFlowRate")
        public static let vo2Max = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierVO2Max")
        public static let bodyMass = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierBodyMass")
        public static let bodyMassIndex = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierBodyMassIndex")
        public static let bodyFatPercentage = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierBodyFatPercentage")
        public static let leanBodyMass = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierLeanBodyMass")
        public static let height = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierHeight")
        public static let waistCircumference = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierWaistCircumference")
        public static let uvExposure = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierUvExposure")
        public static let environmentalAudioExposure = HKQuantityTypeIdentifier(
            "HKQuantityTypeIdentifierEnvironmentalAudioExposure")
        public static let headphoneAudioExposure = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierHeadphoneAudioExposure")
        public static let environmentalSoundReduction = HKQuantityTypeIdentifier(
            "HKQuantityTypeIdentifierEnvironmentalSoundReduction")
        public static let walkingSpeed = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierWalkingSpeed")
        public static let walkingStepLength = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierWalkingStepLength")
        public static let walkingAsymmetryPercentage = HKQuantityTypeIdentifier(
            "HKQuantityTypeIdentifierWalkingAsymmetryPercentage")
        public static let walkingDoubleSupportPercentage = HKQuantityTypeIdentifier(
            "HKQuantityTypeIdentifierWalkingDoubleSupportPercentage")
        public static let sixMinuteWalkTestDistance = HKQuantityTypeIdentifier(
            "HKQuantityTypeIdentifierSixMinuteWalkTestDistance")
        public static let stairAscentSpeed = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierStairAscentSpeed")
        public static let stairDescentSpeed = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierStairDescentSpeed")
        public static let appleWalkingSteadiness = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierAppleWalkingSteadiness")
        public static let runningSpeed = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierRunningSpeed")
        public static let runningPower = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierRunningPower")
        public static let runningStrideLength = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierRunningStrideLength")
        public static let runningVerticalOscillation = HKQuantityTypeIdentifier(
            "HKQuantityTypeIdentifierRunningVerticalOscillation")
        public static let runningGroundContactTime = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierRunningGroundContactTime")
        public static let cyclingSpeed = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierCyclingSpeed")
        public static let cyclingPower = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierCyclingPower")
        public static let cyclingCadence = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierCyclingCadence")
        public static let cyclingFunctionalThresholdPower = HKQuantityTypeIdentifier(
            "HKQuantityTypeIdentifierCyclingFunctionalThresholdPower")
        public static let physicalEffort = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierPhysicalEffort")
        public static let atrialFibrillationBurden = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierAtrialFibrillationBurden")
        public static let waterTemperature = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierWaterTemperature")
        public static let underwaterDepth = HKQuantityTypeIdentifier("HKQuantityTypeIdentifierUnderwaterDepth")

        /// The known identifiers: how HealthKit aggregates each and the unit it keeps it in
        /// (the catalog of `SampleType.quantityCatalog`).
        static let known: [String: (style: HKQuantityAggregationStyle, unit: String)] = SampleType.quantityCatalog.mapValues {
            (HKQuantityAggregationStyle(rawValue: $0.aggregation.rawValue)!, $0.unit)
        }
    }

    /// A category type identifier (`HKCategoryTypeIdentifierSleepAnalysis`, …).
    public struct HKCategoryTypeIdentifier: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }

        public static let sleepAnalysis = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierSleepAnalysis")
        public static let appleStandHour = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierAppleStandHour")
        public static let mindfulSession = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierMindfulSession")
        public static let highHeartRateEvent = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierHighHeartRateEvent")
        public static let lowHeartRateEvent = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierLowHeartRateEvent")
        public static let irregularHeartRhythmEvent = HKCategoryTypeIdentifier(
            "HKCategoryTypeIdentifierIrregularHeartRhythmEvent")
        public static let environmentalAudioExposureEvent = HKCategoryTypeIdentifier(
            "HKCategoryTypeIdentifierEnvironmentalAudioExposureEvent")
        public static let headphoneAudioExposureEvent = HKCategoryTypeIdentifier(
            "HKCategoryTypeIdentifierHeadphoneAudioExposureEvent")
        public static let toothbrushingEvent = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierToothbrushingEvent")
        public static let handwashingEvent = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierHandwashingEvent")
        public static let lowCardioFitnessEvent = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierLowCardioFitnessEvent")
        public static let appleWalkingSteadinessEvent = HKCategoryTypeIdentifier(
            "HKCategoryTypeIdentifierAppleWalkingSteadinessEvent")
        public static let sleepApneaEvent = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierSleepApneaEvent")
        public static let menstrualFlow = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierMenstrualFlow")
        public static let intermenstrualBleeding = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierIntermenstrualBleeding")
        public static let sexualActivity = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierSexualActivity")
        public static let ovulationTestResult = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierOvulationTestResult")
        public static let cervicalMucusQuality = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierCervicalMucusQuality")
        public static let contraceptive = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierContraceptive")
        public static let pregnancy = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierPregnancy")
        public static let lactation = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierLactation")
        public static let abdominalCramps = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierAbdominalCramps")
        public static let acne = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierAcne")
        public static let appetiteChanges = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierAppetiteChanges")
        public static let bloating = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierBloating")
        public static let breastPain = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierBreastPain")
        public static let chestTightnessOrPain = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierChestTightnessOrPain")
        public static let chills = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierChills")
        public static let constipation = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierConstipation")
        public static let coughing = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierCoughing")
        public static let diarrhea = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierDiarrhea")
        public static let dizziness = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierDizziness")
        public static let fainting = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierFainting")
        public static let fatigue = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierFatigue")
        public static let fever = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierFever")
        public static let headache = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierHeadache")
        public static let heartburn = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierHeartburn")
        public static let hotFlashes = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierHotFlashes")
        public static let lossOfSmell = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierLossOfSmell")
        public static let lossOfTaste = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierLossOfTaste")
        public static let lowerBackPain = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierLowerBackPain")
        public static let memoryLapse = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierMemoryLapse")
        public static let moodChanges = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierMoodChanges")
        public static let nausea = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierNausea")
        public static let nightSweats = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierNightSweats")
        public static let pelvicPain = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierPelvicPain")
        public static let rapidPoundingOrFlutteringHeartbeat = HKCategoryTypeIdentifier(
            "HKCategoryTypeIdentifierRapidPoundingOrFlutteringHeartbeat")
        public static let runnyNose = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierRunnyNose")
        public static let shortnessOfBreath = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierShortnessOfBreath")
        public static let sinusCongestion = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierSinusCongestion")
        public static let skippedHeartbeat = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierSkippedHeartbeat")
        public static let sleepChanges = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierSleepChanges")
        public static let soreThroat = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierSoreThroat")
        public static let vomiting = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierVomiting")
        public static let wheezing = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierWheezing")
        public static let bladderIncontinence = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierBladderIncontinence")
        public static let drySkin = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierDrySkin")
        public static let hairLoss = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierHairLoss")
        public static let vaginalDryness = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierVaginalDryness")
        public static let generalizedBodyAche = HKCategoryTypeIdentifier("HKCategoryTypeIdentifierGeneralizedBodyAche")

        /// The known identifiers.
        static let known: Set<String> = [
            sleepAnalysis.rawValue, appleStandHour.rawValue, mindfulSession.rawValue, highHeartRateEvent.rawValue,
            lowHeartRateEvent.rawValue, irregularHeartRhythmEvent.rawValue, environmentalAudioExposureEvent.rawValue,
            headphoneAudioExposureEvent.rawValue, toothbrushingEvent.rawValue, handwashingEvent.rawValue,
            lowCardioFitnessEvent.rawValue, appleWalkingSteadinessEvent.rawValue, sleepApneaEvent.rawValue,
            menstrualFlow.rawValue, intermenstrualBleeding.rawValue, sexualActivity.rawValue, ovulationTestResult.rawValue,
            cervicalMucusQuality.rawValue, contraceptive.rawValue, pregnancy.rawValue, lactation.rawValue,
            abdominalCramps.rawValue, acne.rawValue, appetiteChanges.rawValue, bloating.rawValue, breastPain.rawValue,
            chestTightnessOrPain.rawValue, chills.rawValue, constipation.rawValue, coughing.rawValue, diarrhea.rawValue,
            dizziness.rawValue, fainting.rawValue, fatigue.rawValue, fever.rawValue, headache.rawValue, heartburn.rawValue,
            hotFlashes.rawValue, lossOfSmell.rawValue, lossOfTaste.rawValue, lowerBackPain.rawValue, memoryLapse.rawValue,
            moodChanges.rawValue, nausea.rawValue, nightSweats.rawValue, pelvicPain.rawValue,
            rapidPoundingOrFlutteringHeartbeat.rawValue, runnyNose.rawValue, shortnessOfBreath.rawValue, sinusCongestion.rawValue,
            skippedHeartbeat.rawValue, sleepChanges.rawValue, soreThroat.rawValue, vomiting.rawValue, wheezing.rawValue,
            bladderIncontinence.rawValue, drySkin.rawValue, hairLoss.rawValue, vaginalDryness.rawValue,
            generalizedBodyAche.rawValue,
        ]
    }

    /// A correlation type identifier.
    public struct HKCorrelationTypeIdentifier: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public static let bloodPressure = HKCorrelationTypeIdentifier("HKCorrelationTypeIdentifierBloodPressure")
        public static let food = HKCorrelationTypeIdentifier("HKCorrelationTypeIdentifierFood")

        /// The known identifiers.
        static let known: Set<String> = [bloodPressure.rawValue, food.rawValue]
    }

    /// A characteristic type identifier.
    public struct HKCharacteristicTypeIdentifier: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public static let biologicalSex = HKCharacteristicTypeIdentifier("HKCharacteristicTypeIdentifierBiologicalSex")
        public static let bloodType = HKCharacteristicTypeIdentifier("HKCharacteristicTypeIdentifierBloodType")
        public static let dateOfBirth = HKCharacteristicTypeIdentifier("HKCharacteristicTypeIdentifierDateOfBirth")
        public static let fitzpatrickSkinType = HKCharacteristicTypeIdentifier(
            "HKCharacteristicTypeIdentifierFitzpatrickSkinType")
        public static let wheelchairUse = HKCharacteristicTypeIdentifier("HKCharacteristicTypeIdentifierWheelchairUse")
        public static let activityMoveMode = HKCharacteristicTypeIdentifier("HKCharacteristicTypeIdentifierActivityMoveMode")

        /// The known identifiers.
        static let known: Set<String> = [
            biologicalSex.rawValue, bloodType.rawValue, dateOfBirth.rawValue, fitzpatrickSkinType.rawValue,
            wheelchairUse.rawValue, activityMoveMode.rawValue,
        ]
    }
#endif

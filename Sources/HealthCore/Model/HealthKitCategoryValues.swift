/// Category values as exports spell them (`HKCategoryValueSleepAnalysisAsleepCore`) and as
/// HealthKit numbers them, per family of category types.
public enum HealthKitCategoryValues {
    /// Names → raw values, every family together (the names carry the family).
    public static let values: [String: Int] = {
        var table: [String: Int] = [:]
        for (prefix, cases) in families {
            for (name, value) in cases { table[prefix + name] = value }
        }
        table["HKCategoryValueSleepAnalysisAsleep"] = 1
        return table
    }()

    /// The family a category type's values belong to.
    public static func family(of identifier: String) -> String? {
        switch identifier.dropFirst("HKCategoryTypeIdentifier".count) {
        case "SleepAnalysis": "HKCategoryValueSleepAnalysis"
        case "AppleStandHour": "HKCategoryValueAppleStandHour"
        case "MenstrualFlow": "HKCategoryValueMenstrualFlow"
        case "OvulationTestResult": "HKCategoryValueOvulationTestResult"
        case "CervicalMucusQuality": "HKCategoryValueCervicalMucusQuality"
        case "EnvironmentalAudioExposureEvent": "HKCategoryValueEnvironmentalAudioExposureEvent"
        case "HeadphoneAudioExposureEvent": "HKCategoryValueHeadphoneAudioExposureEvent"
        case "LowCardioFitnessEvent": "HKCategoryValueLowCardioFitnessEvent"
        case "AppleWalkingSteadinessEvent": "HKCategoryValueAppleWalkingSteadinessEvent"
        case "AppetiteChanges": "HKCategoryValueAppetiteChanges"
        case "Contraceptive": "HKCategoryValueContraceptive"
        case "MoodChanges", "SleepChanges": "HKCategoryValuePresence"
        case "Constipation", "Diarrhea", "Fatigue", "Headache", "Nausea", "Chills",
            "Coughing", "Dizziness", "Fainting", "Fever", "Heartburn", "HotFlashes", "LossOfSmell", "LossOfTaste",
            "LowerBackPain", "MemoryLapse", "NightSweats", "PelvicPain", "RapidPoundingOrFlutteringHeartbeat",
            "RunnyNose", "ShortnessOfBreath", "SinusCongestion", "SkippedHeartbeat", "SoreThroat", "Vomiting",
            "Wheezing", "AbdominalCramps", "Acne", "Bloating", "BreastPain", "ChestTightnessOrPain",
            "BladderIncontinence", "DrySkin", "HairLoss", "VaginalDryness", "GeneralizedBodyAche":
            "HKCategoryValueSeverity"
        default: "HKCategoryValue"
        }
    }

    /// The export name of `value` for a category type, when HealthKit names it.
    public static func name(of value: Int, for identifier: String) -> String? {
        guard let family = family(of: identifier),
            let name = families[family]?.first(where: { $0.value == value })?.key
        else { return nil }
        return family + name
    }

    public static let families: [String: [String: Int]] = [
        "HKCategoryValueSleepAnalysis": [
            "InBed": 0, "AsleepUnspecified": 1, "Awake": 2, "AsleepCore": 3, "AsleepDeep": 4, "AsleepREM": 5,
        ],
        "HKCategoryValueAppleStandHour": ["Stood": 0, "Idle": 1],
        "HKCategoryValue": ["NotApplicable": 0],
        "HKCategoryValueSeverity": ["Unspecified": 0, "NotPresent": 1, "Mild": 2, "Moderate": 3, "Severe": 4],
        "HKCategoryValuePresence": ["Present": 0, "NotPresent": 1],
        "HKCategoryValueMenstrualFlow": ["Unspecified": 1, "Light": 2, "Medium": 3, "Heavy": 4, "None": 5],
        "HKCategoryValueOvulationTestResult": [
            "Negative": 1, "LuteinizingHormoneSurge": 2, "Indeterminate": 3, "EstrogenSurge": 4,
        ],
        "HKCategoryValueCervicalMucusQuality": ["Dry": 1, "Sticky": 2, "Creamy": 3, "Watery": 4, "EggWhite": 5],
        "HKCategoryValueEnvironmentalAudioExposureEvent": ["MomentaryLimit": 1],
        "HKCategoryValueHeadphoneAudioExposureEvent": ["SevenDayLimit": 1],
        "HKCategoryValueLowCardioFitnessEvent": ["LowFitness": 1],
        "HKCategoryValueAppleWalkingSteadinessEvent": [
            "InitialLow": 1, "InitialVeryLow": 2, "RepeatLow": 3, "RepeatVeryLow": 4,
        ],
        "HKCategoryValueAppetiteChanges": ["Unspecified": 0, "NoChange": 1, "Decreased": 2, "Increased": 3],
        "HKCategoryValueContraceptive": [
            "Unspecified": 1, "Implant": 2, "Injection": 3, "IntrauterineDevice": 4, "IntravaginalRing": 5, "Oral": 6,
            "Patch": 7,
        ],
    ]
}

/// The names a person gives a sample type, from one table that every way in reads: the
/// CLI's `--type` and `--metrics`, the API's `type`, the MCP tools' `type`.
///
/// A type is named by its HealthKit identifier (`HKQuantityTypeIdentifierStepCount`), by
/// its short name (`steps`, `heart_rate`, `sleep`), or by its identifier's words in snake
/// case (`step_count`). Anything else is an ``UnknownSampleTypeName`` that suggests the
/// closest names: a misspelt type never reads as a type without samples.
///
/// ```swift
/// try SampleTypeNames.type(named: "steps")                              // .stepCount
/// try SampleTypeNames.type(named: "HKQuantityTypeIdentifierStepCount")  // .stepCount
/// try SampleTypeNames.type(named: "StepCount")  // throws: did you mean steps (HKQuantityTypeIdentifierStepCount)?
/// SampleTypeNames.shortName(of: .heartRateVariabilitySDNN)             // "hrv"
/// ```
///
/// A store may hold types the table does not know (a HealthKit type newer than this code,
/// Health Auto Export's `HAE:<name>`): callers that can list the store's types pass them
/// as `storedTypes`, and those are accepted by identifier and by their words too.
public enum SampleTypeNames {
    /// One named type.
    public struct Entry: Hashable, Sendable {
        /// `steps`, `heart_rate`: what the CLI, the API and the exports call it.
        public let name: String
        public let type: SampleType
    }

    /// Every type the table knows, in a stable order: quantities, categories,
    /// correlations, then the workout and the audiogram.
    public static let entries: [Entry] = {
        let quantities = SampleType.quantityCatalog.keys.sorted()
        let categories = categorySuffixes.map { "HKCategoryTypeIdentifier" + $0 }
        let others = [
            "HKCorrelationTypeIdentifierBloodPressure", "HKCorrelationTypeIdentifierFood", SampleType.workout.identifier,
            SampleType.audiogram.identifier,
        ]
        return (quantities + categories + others).compactMap { identifier in
            let type = SampleType(identifier)
            return shortName(of: type).map { Entry(name: $0, type: type) }
        }
    }()

    /// The short name of `type`: its alias (`steps`), else its identifier's words in snake
    /// case (`mindful_session`); `nil` for an identifier without a known prefix (`HAE:…`).
    public static func shortName(of type: SampleType) -> String? {
        aliasByIdentifier[type.identifier] ?? derivedName(of: type)
    }

    /// The identifier's words in snake case: `HKCategoryTypeIdentifierMindfulSession` →
    /// `mindful_session`, `HKQuantityTypeIdentifierVO2Max` → `vo2_max`; `nil` without a
    /// known prefix.
    public static func derivedName(of type: SampleType) -> String? {
        if type == .workout { return "workout" }
        for prefix in prefixes where type.identifier.hasPrefix(prefix) {
            let words = splitWords(String(type.identifier.dropFirst(prefix.count)))
            return words.isEmpty ? nil : words.map { $0.lowercased() }.joined(separator: "_")
        }
        return nil
    }

    /// The type `name` means: an identifier or a name of the table's, or of `storedTypes`.
    /// Throws ``UnknownSampleTypeName`` with the closest names otherwise.
    public static func type(named name: String, storedTypes: [SampleType] = []) throws(UnknownSampleTypeName) -> SampleType {
        if let type = lookup[name] { return type }
        for type in storedTypes where type.identifier == name || derivedName(of: type) == name { return type }
        throw UnknownSampleTypeName(name: name, suggestions: suggestions(for: name, storedTypes: storedTypes))
    }

    /// ``type(named:storedTypes:)``, asking `storedTypes` for the store's types only when
    /// the table does not know `name` (listing them costs a query).
    public static func type(
        named name: String, storedTypes: () async throws -> [SampleType]
    ) async throws -> SampleType {
        if let type = lookup[name] { return type }
        return try SampleTypeNames.type(named: name, storedTypes: try await storedTypes())
    }

    /// What a person types, for messages and docs: `steps (HKQuantityTypeIdentifierStepCount)`.
    public static func describe(_ type: SampleType) -> String {
        shortName(of: type).map { "\($0) (\(type.identifier))" } ?? type.identifier
    }

    // MARK: The table

    /// The identifier families whose names are derived from their words.
    static let prefixes = [
        "HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCorrelationTypeIdentifier", "HKDataTypeIdentifier",
    ]

    /// Short names that are not the identifier's words (the CSV export's metric names).
    static let aliases: [(name: String, identifier: String)] = [
        ("weight", "HKQuantityTypeIdentifierBodyMass"),
        ("steps", "HKQuantityTypeIdentifierStepCount"),
        ("glucose", "HKQuantityTypeIdentifierBloodGlucose"),
        ("bmi", "HKQuantityTypeIdentifierBodyMassIndex"),
        ("body_fat", "HKQuantityTypeIdentifierBodyFatPercentage"),
        ("walking_heart_rate", "HKQuantityTypeIdentifierWalkingHeartRateAverage"),
        ("hrv", "HKQuantityTypeIdentifierHeartRateVariabilitySDNN"),
        ("vo2max", "HKQuantityTypeIdentifierVO2Max"),
        ("active_energy", "HKQuantityTypeIdentifierActiveEnergyBurned"),
        ("basal_energy", "HKQuantityTypeIdentifierBasalEnergyBurned"),
        ("distance", "HKQuantityTypeIdentifierDistanceWalkingRunning"),
        ("cycling_distance", "HKQuantityTypeIdentifierDistanceCycling"),
        ("flights", "HKQuantityTypeIdentifierFlightsClimbed"),
        ("exercise_time", "HKQuantityTypeIdentifierAppleExerciseTime"),
        ("dietary_energy", "HKQuantityTypeIdentifierDietaryEnergyConsumed"),
        ("water", "HKQuantityTypeIdentifierDietaryWater"),
        ("sleep", "HKCategoryTypeIdentifierSleepAnalysis"),
    ]

    /// The category types HealthKit documents, after `HKCategoryTypeIdentifier`.
    static let categorySuffixes = [
        "SleepAnalysis", "AppleStandHour", "MindfulSession", "HighHeartRateEvent", "LowHeartRateEvent",
        "IrregularHeartRhythmEvent", "EnvironmentalAudioExposureEvent", "HeadphoneAudioExposureEvent",
        "ToothbrushingEvent", "HandwashingEvent", "LowCardioFitnessEvent", "AppleWalkingSteadinessEvent",
        "SleepApneaEvent", "MenstrualFlow", "IntermenstrualBleeding", "SexualActivity", "OvulationTestResult",
        "CervicalMucusQuality", "Contraceptive", "Pregnancy", "Lactation", "AbdominalCramps", "Acne", "AppetiteChanges",
        "Bloating", "BreastPain", "ChestTightnessOrPain", "Chills", "Constipation", "Coughing", "Diarrhea", "Dizziness",
        "Fainting", "Fatigue", "Fever", "Headache", "Heartburn", "HotFlashes", "LossOfSmell", "LossOfTaste",
        "LowerBackPain", "MemoryLapse", "MoodChanges", "Nausea", "NightSweats", "PelvicPain",
        "RapidPoundingOrFlutteringHeartbeat", "RunnyNose", "ShortnessOfBreath", "SinusCongestion", "SkippedHeartbeat",
        "SleepChanges", "SoreThroat", "Vomiting", "Wheezing", "BladderIncontinence", "DrySkin", "HairLoss",
        "VaginalDryness", "GeneralizedBodyAche",
    ]

    private static let aliasByIdentifier: [String: String] = Dictionary(
        uniqueKeysWithValues: aliases.map { ($0.identifier, $0.name) })

    /// Every accepted spelling → its type: identifiers, short names, derived names.
    static let lookup: [String: SampleType] = {
        var table: [String: SampleType] = [:]
        for entry in entries {
            table[entry.type.identifier] = entry.type
            table[entry.name] = entry.type
            if let derived = derivedName(of: entry.type) { table[derived] = entry.type }
        }
        return table
    }()

    /// `AppleExerciseTime` → `Apple`, `Exercise`, `Time`; `VO2Max` → `VO2`, `Max`.
    package static func splitWords(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            let startsWord =
                character.isUppercase && !current.isEmpty
                && (!(current.last!.isUppercase || current.last!.isNumber) || (next?.isLowercase ?? false))
            if startsWord {
                words.append(current)
                current = ""
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}

extension SampleType {
    /// The short name the CLI, the API and the exports use (`steps`, `heart_rate`); see
    /// ``SampleTypeNames``.
    public var shortName: String? { SampleTypeNames.shortName(of: self) }
}

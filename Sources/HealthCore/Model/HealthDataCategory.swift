import Foundation

/// The kinds of health data a person grants or denies one at a time — the unit of consent
/// on the dashboard and of a token's data scopes (`healthpipe users add --types steps,sleep`).
///
/// Every sample type belongs to exactly one category; types the list below does not name
/// (nutrition, glucose, audiograms, symptoms, …) are ``other``, so a new HealthKit type is
/// never served to a token that was only granted, say, steps.
///
/// ```swift
/// HealthDataCategory(SampleType.heartRateVariabilitySDNN)  // .heart
/// HealthDataCategory.parse("steps,sleep")                    // [.steps, .sleep]
/// ```
public enum HealthDataCategory: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    case steps
    case energy
    case activity
    case heart
    case sleep
    case body
    case workouts
    case other

    /// The kind of data a workout's metadata entry tells of, when it is one a reader may be
    /// refused: `HKAverageMETs` is energy; elevation, distance, speed, laps, strokes, cadence
    /// and power are activity; heart-rate entries are heart. `nil` for the others (indoor,
    /// weather, time zone, a third party's own keys): they go with the workout.
    ///
    /// Other apps' spellings count too (`Average Heart Rate`, `avg_hr`, `Total Ascent`, `Km`,
    /// `Kilojoules`): a key is read as its lower-cased text and as its words (split at
    /// anything not a letter or digit and where a lower-case letter meets an upper-case one).
    public init?(workoutMetadataKey key: String) {
        let name = key.lowercased()
        let words = Self.words(key)
        func any(_ parts: [String], _ wholeWords: [String]) -> Bool {
            parts.contains(where: name.contains) || !words.isDisjoint(with: wholeWords)
        }
        if any(["heartrate", "heart", "pulse"], ["hr", "bpm"]) {
            self = .heart
        } else if any(["mets", "energy", "calorie", "kilojoule", "kcal", "effort"], ["kj", "cal"]) {
            self = .energy
        } else if any(
            [
                "elevation", "ascen", "descen", "distance", "speed", "pace", "lap", "stroke", "stride", "cadence",
                "power", "steps", "vo2", "metre", "meter", "mile",
            ], ["km", "mi", "m"])
        {
            self = .activity
        } else {
            return nil
        }
    }

    /// `Average Heart Rate` → {average, heart, rate}; `avgHR` → {avg, hr}.
    private static func words(_ key: String) -> Set<String> {
        var words: Set<String> = []
        var word = ""
        var previousLower = false
        for character in key {
            guard character.isLetter || character.isNumber else {
                if !word.isEmpty { words.insert(word.lowercased()) }
                word = ""
                previousLower = false
                continue
            }
            if character.isUppercase, previousLower {
                words.insert(word.lowercased())
                word = ""
            }
            word.append(character)
            previousLower = character.isLowercase
        }
        if !word.isEmpty { words.insert(word.lowercased()) }
        return words
    }

    /// The entries of a workout's `metadata` a reader of `readable` kinds may see
    /// (``init(workoutMetadataKey:)``), and the kinds of those left out.
    public static func workoutMetadata(
        _ metadata: [MetadataEntry], readableBy readable: Set<HealthDataCategory>
    ) -> (entries: [MetadataEntry], withheld: Set<HealthDataCategory>) {
        var withheld: Set<HealthDataCategory> = []
        let entries = metadata.filter { entry in
            guard let kind = HealthDataCategory(workoutMetadataKey: entry.key), !readable.contains(kind) else { return true }
            withheld.insert(kind)
            return false
        }
        return (entries, withheld)
    }

    /// The category of a sample type.
    public init(_ type: SampleType) {
        let name = type.identifier
        switch type {
        case .stepCount: self = .steps
        case .activeEnergyBurned, .basalEnergyBurned: self = .energy
        case .sleepAnalysis: self = .sleep
        case .workout: self = .workouts
        default:
            if Self.activityTypes.contains(name) || name.hasPrefix("HKQuantityTypeIdentifierDistance") {
                self = .activity
            } else if Self.heartTypes.contains(name) {
                self = .heart
            } else if Self.bodyTypes.contains(name) {
                self = .body
            } else {
                self = .other
            }
        }
    }

    /// What the consent page calls it.
    public var title: String {
        switch self {
        case .steps: "Steps"
        case .energy: "Active energy"
        case .activity: "Exercise, stand and distance"
        case .heart: "Heart"
        case .sleep: "Sleep"
        case .body: "Body measurements"
        case .workouts: "Workouts and routes"
        case .other: "Everything else"
        }
    }

    /// The HealthKit types it covers, in words.
    public var covers: String {
        switch self {
        case .steps: "step count from the Watch and the iPhone"
        case .energy: "active and resting energy burned"
        case .activity: "exercise minutes, stand hours, distances, flights, activity rings"
        case .heart: "heart rate, resting heart rate, heart rate variability, ECGs, blood oxygen"
        case .sleep: "sleep analysis: in bed, asleep, and the core, deep and REM stages"
        case .body: "weight, body fat, height, BMI, lean body mass"
        case .workouts:
            "workouts with their type, duration, events and route (their energy, distance and heart rate need those kinds)"
        case .other: "nutrition, glucose, blood pressure, symptoms, hearing and any other type"
        }
    }

    /// Why HealthPipeline uses it.
    public var purpose: String {
        switch self {
        case .steps: "daily steps without double counting, the trends chart, readiness's activity load"
        case .energy: "the move ring, the energy trend, readiness's activity load"
        case .activity: "the exercise and stand rings"
        case .heart: "resting heart rate and HRV trends against your baseline, readiness"
        case .sleep: "nightly stages, bedtime consistency, naps, readiness's sleep contributors"
        case .body: "the weight trend"
        case .workouts: "the recent workouts list and their routes"
        case .other: "the CSV export and the change feed of those types; no dashboard panel"
        }
    }

    public static func < (lhs: HealthDataCategory, rhs: HealthDataCategory) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// Parses `steps,sleep` (or `all`); `nil` when a name is unknown or the list is empty.
    public static func parse(_ text: String) -> Set<HealthDataCategory>? {
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if names == ["all"] { return Set(allCases) }
        let categories = names.map(HealthDataCategory.init(rawValue:))
        guard !categories.isEmpty, categories.allSatisfy({ $0 != nil }) else { return nil }
        return Set(categories.compactMap { $0 })
    }

    /// `steps,sleep`, in the order of `allCases`: how lists are stored and shown.
    public static func list(_ categories: Set<HealthDataCategory>) -> String {
        categories.sorted().map(\.rawValue).joined(separator: ",")
    }

    /// Every name, for messages: `steps, energy, …, other`.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    private static let activityTypes: Set<String> = [
        "HKQuantityTypeIdentifierAppleExerciseTime", "HKQuantityTypeIdentifierAppleStandTime",
        "HKCategoryTypeIdentifierAppleStandHour", "HKQuantityTypeIdentifierFlightsClimbed",
        "HKQuantityTypeIdentifierAppleMoveTime", "HKQuantityTypeIdentifierPushCount",
        "HKQuantityTypeIdentifierSwimmingStrokeCount", "HKQuantityTypeIdentifierNikeFuel",
        "HKQuantityTypeIdentifierPhysicalEffort", "HKQuantityTypeIdentifierWalkingSpeed",
        "HKQuantityTypeIdentifierWalkingStepLength", "HKQuantityTypeIdentifierRunningSpeed",
        "HKQuantityTypeIdentifierRunningPower", "HKQuantityTypeIdentifierCyclingSpeed",
        "HKQuantityTypeIdentifierCyclingPower", "HKQuantityTypeIdentifierCyclingCadence",
        "HKQuantityTypeIdentifierVO2Max", "HKQuantityTypeIdentifierSixMinuteWalkTestDistance",
    ]

    private static let heartTypes: Set<String> = [
        "HKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifierRestingHeartRate",
        "HKQuantityTypeIdentifierWalkingHeartRateAverage", "HKQuantityTypeIdentifierHeartRateVariabilitySDNN",
        "HKQuantityTypeIdentifierHeartRateRecoveryOneMinute", "HKQuantityTypeIdentifierOxygenSaturation",
        "HKQuantityTypeIdentifierAtrialFibrillationBurden", "HKCategoryTypeIdentifierHighHeartRateEvent",
        "HKCategoryTypeIdentifierLowHeartRateEvent", "HKCategoryTypeIdentifierIrregularHeartRhythmEvent",
        "HKDataTypeIdentifierHeartbeatSeries", "HKElectrocardiogramType",
    ]

    private static let bodyTypes: Set<String> = [
        "HKQuantityTypeIdentifierBodyMass", "HKQuantityTypeIdentifierBodyFatPercentage",
        "HKQuantityTypeIdentifierHeight", "HKQuantityTypeIdentifierBodyMassIndex",
        "HKQuantityTypeIdentifierLeanBodyMass", "HKQuantityTypeIdentifierWaistCircumference",
    ]
}

import HealthCore

/// Every metric the export knows by name, and a metric for any other type a store holds.
public enum MetricRegistry {
    /// LOINC codes of haemoglobin A1c in blood: 4548-4 (NGSP %, the common one), 17856-6
    /// (by HPLC) and 4549-2 (by electrophoresis).
    public static let hbA1cCodes: Set<String> = ["4548-4", "17856-6", "4549-2"]

    /// The named metrics, in the order `--all-metrics` writes them.
    public static let known: [ExportMetric] = {
        func quantity(
            _ name: String, _ title: String, _ identifier: String, _ family: ExportMetric.UnitFamily, decimals: Int? = nil,
            scale: Double = 1, label: String? = nil
        ) -> ExportMetric {
            ExportMetric(
                name: name, title: title, origin: .quantity(SampleType("HKQuantityTypeIdentifier" + identifier)),
                unitFamily: family, decimals: decimals, scale: scale, unitLabel: label)
        }
        return [
            quantity("weight", "Weight", "BodyMass", .weight, decimals: 2),
            quantity("steps", "Steps", "StepCount", .fixed("count"), label: "steps"),
            {
                var glucose = quantity("glucose", "Blood Glucose", "BloodGlucose", .glucose)
                glucose.decimalsByUnit = ["mg/dL": 1, "mmol/L": 2]
                return glucose
            }(),
            ExportMetric(
                name: "a1c", title: "Hemoglobin A1C", origin: .labResult(loinc: hbA1cCodes), unitFamily: .fixed("%"), decimals: 1),
            quantity("height", "Height", "Height", .fixed("cm")),
            quantity("bmi", "Body Mass Index", "BodyMassIndex", .fixed("count")),
            quantity("body_fat", "Body Fat", "BodyFatPercentage", .fixed("%"), scale: 100),
            quantity("lean_body_mass", "Lean Body Mass", "LeanBodyMass", .weight, decimals: 2),
            quantity("heart_rate", "Heart Rate", "HeartRate", .fixed("count/min"), label: "bpm"),
            quantity("resting_heart_rate", "Resting Heart Rate", "RestingHeartRate", .fixed("count/min"), label: "bpm"),
            quantity(
                "walking_heart_rate", "Walking Heart Rate Average", "WalkingHeartRateAverage", .fixed("count/min"), label: "bpm"),
            quantity("hrv", "Heart Rate Variability (SDNN)", "HeartRateVariabilitySDNN", .fixed("ms")),
            quantity("blood_pressure_systolic", "Blood Pressure Systolic", "BloodPressureSystolic", .fixed("mmHg")),
            quantity("blood_pressure_diastolic", "Blood Pressure Diastolic", "BloodPressureDiastolic", .fixed("mmHg")),
            quantity("oxygen_saturation", "Oxygen Saturation", "OxygenSaturation", .fixed("%"), scale: 100),
            quantity("respiratory_rate", "Respiratory Rate", "RespiratoryRate", .fixed("count/min"), label: "breaths/min"),
            quantity("body_temperature", "Body Temperature", "BodyTemperature", .temperature),
            quantity("vo2max", "VO2 Max", "VO2Max", .fixed(nil)),
            quantity("active_energy", "Active Energy", "ActiveEnergyBurned", .fixed("kcal")),
            quantity("basal_energy", "Resting Energy", "BasalEnergyBurned", .fixed("kcal")),
            quantity("distance", "Walking + Running Distance", "DistanceWalkingRunning", .distance),
            quantity("cycling_distance", "Cycling Distance", "DistanceCycling", .distance),
            quantity("flights", "Flights Climbed", "FlightsClimbed", .fixed("count")),
            quantity("exercise_time", "Exercise Minutes", "AppleExerciseTime", .fixed("min")),
            quantity("dietary_energy", "Dietary Energy", "DietaryEnergyConsumed", .fixed("kcal")),
            quantity("water", "Water", "DietaryWater", .fixed("mL")),
            ExportMetric(
                name: "sleep", title: "Sleep", origin: .category(SampleType("HKCategoryTypeIdentifierSleepAnalysis")),
                unitFamily: .fixed("min")),
        ]
    }()

    /// The metric called `name`: a known one, or one derived from a stored type's name
    /// (`mindful_session` for `HKCategoryTypeIdentifierMindfulSession`).
    public static func metric(named name: String, storedTypes: [SampleType]) -> ExportMetric? {
        known.first { $0.name == name } ?? storedTypes.lazy.compactMap(derived).first { $0.name == name }
    }

    /// The metrics of a comma-separated list (`weight, steps`), or of `all`: what
    /// `--metrics` and `?metrics=` take. Throws ``UnknownMetricError`` for a name that is
    /// neither known nor a stored type.
    public static func metrics(named list: String, storedTypes: [SampleType]) throws -> [ExportMetric] {
        guard list != "all" else { return all(storedTypes: storedTypes) }
        return try list.split(separator: ",").map { part in
            let name = part.trimmingCharacters(in: .whitespaces)
            guard let metric = metric(named: name, storedTypes: storedTypes) else {
                throw UnknownMetricError(name: name, available: all(storedTypes: storedTypes).map(\.name))
            }
            return metric
        }
    }

    /// Every known metric the store has data for, in registry order, then a derived metric
    /// for every other quantity or category type it holds. (`a1c` is decided by
    /// ``CSVExporter``, which reads the clinical records.)
    public static func all(storedTypes: [SampleType]) -> [ExportMetric] {
        let stored = Set(storedTypes)
        let knownTypes = Set(known.compactMap(\.sampleType))
        return known.filter { metric in metric.sampleType.map(stored.contains) ?? true }
            + storedTypes.filter { !knownTypes.contains($0) }.compactMap(derived)
    }

    /// A metric for a stored quantity or category type the registry does not name: values
    /// in the unit each sample was stored in.
    static func derived(_ type: SampleType) -> ExportMetric? {
        for (prefix, category) in [("HKQuantityTypeIdentifier", false), ("HKCategoryTypeIdentifier", true)]
        where type.identifier.hasPrefix(prefix) {
            let words = splitWords(String(type.identifier.dropFirst(prefix.count)))
            guard !words.isEmpty else { return nil }
            return ExportMetric(
                name: words.map { $0.lowercased() }.joined(separator: "_"), title: words.joined(separator: " "),
                origin: category ? .category(type) : .quantity(type), unitFamily: .fixed(category ? "min" : nil))
        }
        return nil
    }

    /// `AppleExerciseTime` → `Apple`, `Exercise`, `Time`; `VO2Max` → `VO2`, `Max`.
    static func splitWords(_ text: String) -> [String] {
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

extension ExportMetric {
    /// The sample type of a quantity or category metric.
    var sampleType: SampleType? {
        switch origin {
        case .quantity(let type), .category(let type): type
        case .labResult: nil
        }
    }

    /// The kind of data a token must be allowed to read to export it (lab results: `other`).
    public var category: HealthDataCategory { sampleType.map(HealthDataCategory.init) ?? .other }
}

/// A metric name the registry and the store do not know.
public struct UnknownMetricError: Error, CustomStringConvertible, Sendable {
    public let name: String
    /// The names this store can export.
    public let available: [String]

    public var description: String { "unknown metric '\(name)'; this store has: \(available.joined(separator: ", "))" }
}

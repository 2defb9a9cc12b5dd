import HealthCore

/// Every metric the export knows by name, and a metric for any other type a store holds.
public enum MetricRegistry {
    /// LOINC codes of haemoglobin A1c in blood: 4548-4 (NGSP %, the common one), 17856-6
    /// (by HPLC) and 4549-2 (by electrophoresis).
    public static let hbA1cCodes: Set<String> = ["4548-4", "17856-6", "4549-2"]

    /// The named metrics, in the order `--all-metrics` writes them.
    public static let known: [ExportMetric] = {
        // A type's metric is called by the type's short name, as everywhere (``SampleTypeNames``).
        func quantity(
            _ title: String, _ identifier: String, _ family: ExportMetric.UnitFamily, decimals: Int? = nil,
            scale: Double = 1, label: String? = nil
        ) -> ExportMetric {
            let type = SampleType("HKQuantityTypeIdentifier" + identifier)
            return ExportMetric(
                name: type.shortName!, title: title, origin: .quantity(type), unitFamily: family, decimals: decimals,
                scale: scale, unitLabel: label)
        }
        return [
            quantity("Weight", "BodyMass", .weight, decimals: 2),
            quantity("Steps", "StepCount", .fixed("count"), label: "steps"),
            {
                var glucose = quantity("Blood Glucose", "BloodGlucose", .glucose)
                glucose.decimalsByUnit = ["mg/dL": 1, "mmol/L": 2]
                return glucose
            }(),
            ExportMetric(
                name: "a1c", title: "Hemoglobin A1C", origin: .labResult(loinc: hbA1cCodes), unitFamily: .fixed("%"), decimals: 1),
            quantity("Height", "Height", .fixed("cm")),
            quantity("Body Mass Index", "BodyMassIndex", .fixed("count")),
            quantity("Body Fat", "BodyFatPercentage", .fixed("%"), scale: 100),
            quantity("Lean Body Mass", "LeanBodyMass", .weight, decimals: 2),
            quantity("Heart Rate", "HeartRate", .fixed("count/min"), label: "bpm"),
            quantity("Resting Heart Rate", "RestingHeartRate", .fixed("count/min"), label: "bpm"),
            quantity("Walking Heart Rate Average", "WalkingHeartRateAverage", .fixed("count/min"), label: "bpm"),
            quantity("Heart Rate Variability (SDNN)", "HeartRateVariabilitySDNN", .fixed("ms")),
            quantity("Blood Pressure Systolic", "BloodPressureSystolic", .fixed("mmHg")),
            quantity("Blood Pressure Diastolic", "BloodPressureDiastolic", .fixed("mmHg")),
            quantity("Oxygen Saturation", "OxygenSaturation", .fixed("%"), scale: 100),
            quantity("Respiratory Rate", "RespiratoryRate", .fixed("count/min"), label: "breaths/min"),
            quantity("Body Temperature", "BodyTemperature", .temperature),
            quantity("VO2 Max", "VO2Max", .fixed(nil)),
            quantity("Active Energy", "ActiveEnergyBurned", .fixed("kcal")),
            quantity("Resting Energy", "BasalEnergyBurned", .fixed("kcal")),
            quantity("Walking + Running Distance", "DistanceWalkingRunning", .distance),
            quantity("Cycling Distance", "DistanceCycling", .distance),
            quantity("Flights Climbed", "FlightsClimbed", .fixed("count")),
            quantity("Exercise Minutes", "AppleExerciseTime", .fixed("min")),
            quantity("Dietary Energy", "DietaryEnergyConsumed", .fixed("kcal")),
            quantity("Water", "DietaryWater", .fixed("mL")),
            ExportMetric(
                name: SampleType.sleepAnalysis.shortName!, title: "Sleep", origin: .category(.sleepAnalysis),
                unitFamily: .fixed("min")),
        ]
    }()

    /// The metric called `name`: a known one, or the metric of the quantity or category type
    /// `name` names (``SampleTypeNames``: `mindful_session` or
    /// `HKCategoryTypeIdentifierMindfulSession`, also a stored type the table does not know).
    public static func metric(named name: String, storedTypes: [SampleType]) -> ExportMetric? {
        if let metric = known.first(where: { $0.name == name }) { return metric }
        guard let type = try? SampleTypeNames.type(named: name, storedTypes: storedTypes) else { return nil }
        return known.first { $0.sampleType == type } ?? derived(type)
    }

    /// The metrics of a comma-separated list (`weight, steps`), or of `all`: what
    /// `--metrics` and `?metrics=` take. Throws ``UnknownMetricError`` for a name that is
    /// neither known nor a stored type.
    public static func metrics(named list: String, storedTypes: [SampleType]) throws -> [ExportMetric] {
        guard list != "all" else { return all(storedTypes: storedTypes) }
        var metrics: [ExportMetric] = []
        var named = Set<String>()
        for part in list.split(separator: ",") {
            let name = part.trimmingCharacters(in: .whitespaces)
            guard let metric = metric(named: name, storedTypes: storedTypes) else {
                throw UnknownMetricError(
                    name: name, available: all(storedTypes: storedTypes).map(\.name),
                    suggestions: SampleTypeNames.suggestions(for: name, storedTypes: storedTypes))
            }
            // A metric named twice (or by two of its names) is exported once, where first named.
            if named.insert(metric.name).inserted { metrics.append(metric) }
        }
        return metrics
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

    /// A metric for a quantity or category type the registry does not name, called by the
    /// type's short name: values in the unit each sample was stored in.
    static func derived(_ type: SampleType) -> ExportMetric? {
        for (prefix, category) in [("HKQuantityTypeIdentifier", false), ("HKCategoryTypeIdentifier", true)]
        where type.identifier.hasPrefix(prefix) {
            let words = splitWords(String(type.identifier.dropFirst(prefix.count)))
            guard !words.isEmpty, let name = type.shortName else { return nil }
            return ExportMetric(
                name: name, title: words.joined(separator: " "), origin: category ? .category(type) : .quantity(type),
                unitFamily: .fixed(category ? "min" : nil))
        }
        return nil
    }

    /// `AppleExerciseTime` → `Apple`, `Exercise`, `Time`; `VO2Max` → `VO2`, `Max`.
    static func splitWords(_ text: String) -> [String] { SampleTypeNames.splitWords(text) }
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
    /// The closest type names (``SampleTypeNames/suggestions(for:storedTypes:limit:)``).
    public let suggestions: [String]

    public var description: String {
        let given = name.count > 80 ? String(name.prefix(80)) + "…" : name
        let guess = suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: ", or "))?"
        return "unknown metric '\(given)'\(guess) This store has: \(available.joined(separator: ", "))"
    }
}

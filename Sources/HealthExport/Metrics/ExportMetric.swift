import HealthCore

/// A metric the CSV export knows: its name on the command line, its label in the `Metric`
/// column, where its values come from and the unit they are written in.
public struct ExportMetric: Hashable, Sendable {
    /// Where the values come from.
    public enum Origin: Hashable, Sendable {
        /// Quantity samples of a type, converted to ``ExportMetric/unit``.
        case quantity(SampleType)
        /// Category samples: one row per sample, the value its duration in minutes, the
        /// category value in the `Metric` column (`Sleep (AsleepCore)`).
        case category(SampleType)
        /// Lab results among the clinical records (FHIR `Observation`) with one of these
        /// LOINC codes.
        case labResult(loinc: Set<String>)
    }

    /// Which unit preference applies.
    public enum UnitFamily: Hashable, Sendable {
        case weight, glucose, distance, temperature
        /// A fixed unit (or, with `nil`, the unit each sample was stored in).
        case fixed(String?)
    }

    /// `weight`, `steps`, `resting_heart_rate`: what `--metrics` takes.
    public var name: String
    /// `Weight`, `Steps`, `Resting Heart Rate`: the `Metric` column.
    public var title: String
    public var origin: Origin
    public var unitFamily: UnitFamily
    /// Decimals to write; `nil` writes the shortest text that reads back as the same number.
    public var decimals: Int?
    /// Decimals for particular output units (glucose: 0.1 mg/dL, 0.01 mmol/L, as meters show).
    public var decimalsByUnit: [String: Int] = [:]
    /// Multiplies the value after conversion (HealthKit's `%` is a fraction: 0.21 → 21).
    public var scale: Double
    /// The `Unit` column when it should not be the unit's symbol (`steps`, `bpm`).
    public var unitLabel: String?

    public init(
        name: String, title: String, origin: Origin, unitFamily: UnitFamily, decimals: Int? = nil, scale: Double = 1,
        unitLabel: String? = nil
    ) {
        self.name = name
        self.title = title
        self.origin = origin
        self.unitFamily = unitFamily
        self.decimals = decimals
        self.scale = scale
        self.unitLabel = unitLabel
    }

    /// Decimals for values written in `unit`.
    func decimals(for unit: String?) -> Int? { unit.flatMap { decimalsByUnit[$0] } ?? decimals }

    /// What the `Unit` column says for values in `unit`.
    func label(for unit: String) -> String {
        if let unitLabel { return unitLabel }
        switch unit {
        case "degC": return "°C"
        case "degF": return "°F"
        default: return unit
        }
    }

    /// The HealthKit unit the values are converted to, with `preferences`; `nil` keeps each
    /// sample's own unit.
    public func unit(_ preferences: UnitPreferences) -> String? {
        switch unitFamily {
        case .weight: preferences.weight.rawValue
        case .glucose: preferences.glucose.rawValue
        case .distance: preferences.distance.rawValue
        case .temperature: preferences.temperature.rawValue
        case .fixed(let unit): unit
        }
    }
}

/// The units a person wants to read.
public struct UnitPreferences: Hashable, Sendable {
    public enum Weight: String, Sendable, CaseIterable { case kg, lb }
    public enum Glucose: String, Sendable, CaseIterable {
        case milligramsPerDeciliter = "mg/dL"
        case millimolesPerLiter = "mmol/L"
    }
    public enum Distance: String, Sendable, CaseIterable { case km, mi }
    public enum Temperature: String, Sendable, CaseIterable {
        case celsius = "degC"
        case fahrenheit = "degF"
    }

    public var weight = Weight.kg
    public var glucose = Glucose.milligramsPerDeciliter
    public var distance = Distance.km
    public var temperature = Temperature.celsius

    public init() {}
}

import ArgumentParser
import HealthCore
import HealthDaily
import HealthExport
import HealthReadiness
import HealthSynth

// The CLI's fixed choices as typed values: ArgumentParser parses them, lists them in
// `--help` and names the allowed values when one is wrong. No `rawValue:)!` anywhere.

extension NormalizationVersion: ExpressibleByArgument {}
extension ReadinessConfiguration.ActivityMeasure: ExpressibleByArgument {}
extension CSVDateStyle: ExpressibleByArgument {}
extension UnitPreferences.Weight: ExpressibleByArgument {}
extension UnitPreferences.Glucose: ExpressibleByArgument {}
extension UnitPreferences.Distance: ExpressibleByArgument {}
extension SyntheticExport.Persona: ExpressibleByArgument {}

/// `--temperature-unit`: `C` or `F` (the stored units are `degC` and `degF`).
enum TemperatureChoice: String, ExpressibleByArgument, CaseIterable {
    case C, F

    var unit: UnitPreferences.Temperature { self == .C ? .celsius : .fahrenheit }
}

/// `--format` of the commands that print a table or JSON.
enum TableOrJSON: String, ExpressibleByArgument, CaseIterable {
    case table, json
}

/// `--format` of `days`: also JSON Lines, one day a line.
enum DaysFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, jsonl
}

/// `--format` of `snapshot`.
enum SnapshotFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

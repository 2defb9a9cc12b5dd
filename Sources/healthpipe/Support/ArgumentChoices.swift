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

/// `--norm`: the daily metrics' rules. (`healthpipe --version` prints the build's version;
/// the rules' flag was `--version` before, which now says where it went.)
struct NormOptions: ParsableArguments {
    @Option(name: .customLong("norm"), help: "The daily metrics' rules: norm_v1 (the default) or norm_v2 (merge by the second).")
    var version = NormalizationVersion.v1

    @Option(name: .customLong("version"), help: .hidden)
    var formerFlag: String?

    /// Refuses the former flag, saying where it went. Called from the command's own
    /// `validate()`: an option group's runs while `--version` is still unparsed, and the
    /// parser would print the build's version instead.
    func rejectFormerFlag() throws {
        if let formerFlag {
            throw ValidationError(
                "the daily metrics' rules are chosen with --norm \(formerFlag); --version prints the build's version")
        }
    }
}

import Foundation
import HealthCore

/// What a CSV export of samples asks for, whoever asks: `healthpipe export csv` builds it
/// from its flags, `GET /v1/export.csv` decodes it from its query parameters
/// (``init(query:)``). Both turn it into the exporter's settings here
/// (``options(zone:interval:zoneChanges:)``), so a unit, a date style or the Source column
/// means the same in both.
///
/// The days exported and the zone are not part of it: the command line and the server
/// choose them each their own way (a default range, a token's scope), then hand them in.
public struct CSVExportRequest: Sendable, Equatable {
    /// `all`, or comma-separated metric names (`weight,steps`, any stored type's name):
    /// what ``MetricRegistry/metrics(named:storedTypes:)`` takes.
    public var metrics = "all"
    public var units = UnitPreferences()
    public var dateStyle = CSVDateStyle.iso
    /// Adds a fifth column, `Source`.
    public var includesSource = false

    public init(
        metrics: String = "all", units: UnitPreferences = UnitPreferences(), dateStyle: CSVDateStyle = .iso,
        includesSource: Bool = false
    ) {
        self.metrics = metrics
        self.units = units
        self.dateStyle = dateStyle
        self.includesSource = includesSource
    }

    /// Whether every metric is asked for (`all`), rather than a list.
    public var asksForAll: Bool { metrics == "all" }

    /// The exporter's settings for this request: rows stamped in `zone` (then in each of
    /// `zoneChanges` from its start on), samples that start in `interval` (`nil`: all).
    public func options(
        zone: TimeZone, interval: DateInterval?, zoneChanges: [(start: Date, zone: TimeZone)]
    ) -> CSVExporter.Options {
        var options = CSVExporter.Options()
        options.zone = zone
        options.interval = interval
        options.zoneChanges = zoneChanges
        options.dateStyle = dateStyle
        options.units = units
        options.includesSource = includesSource
        return options
    }

    /// The metrics asked for among a store's `storedTypes` (names resolve against
    /// `namedAmong` when given: a token's readable types, so a typo never lists the
    /// person's other kinds of data). Throws ``UnknownMetricError`` for a name that is
    /// neither known nor stored.
    public func chosenMetrics(storedTypes: [SampleType], namedAmong: [SampleType]? = nil) throws -> [ExportMetric] {
        try MetricRegistry.metrics(named: metrics, storedTypes: asksForAll ? storedTypes : namedAmong ?? storedTypes)
    }
}

extension CSVExportRequest {
    /// A query parameter with a value outside its set: its name and the values it takes
    /// (never the value given).
    public struct InvalidParameter: Error, Equatable, CustomStringConvertible {
        public let name: String
        public let allowed: String
        public var description: String { "\(name) must be \(allowed)" }
    }

    /// Whether a list (`weight, steps`) names at least one metric: an empty one, or one of
    /// commas and spaces only, would export a header alone.
    public static func namesAMetric(_ list: String) -> Bool {
        list.split(separator: ",").contains { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// `temperature_unit` and `--temperature-unit` say `C` or `F`.
    public static let temperatureNames: [String: UnitPreferences.Temperature] = ["C": .celsius, "F": .fahrenheit]

    /// Decodes a request from query parameters (`query` answers a parameter's value, `nil`
    /// when absent): `metrics` (default `all`; one naming nothing is refused), `weight_unit` kg|lb, `glucose_unit`
    /// mg/dL|mmol/L, `distance_unit` km|mi, `temperature_unit` C|F, `date_format`
    /// iso|healthexporter, `source` true|false. An absent parameter keeps its default; a
    /// value outside its set throws ``InvalidParameter``.
    public init(query: (String) -> String?) throws(InvalidParameter) {
        self.init()
        if let metrics = query("metrics") {
            guard Self.namesAMetric(metrics) else {
                throw InvalidParameter(name: "metrics", allowed: "all or a comma-separated list of metric names")
            }
            self.metrics = metrics
        }
        units.weight = try Self.choice(query("weight_unit"), default: .kg, "weight_unit", "kg or lb")
        units.glucose = try Self.choice(
            query("glucose_unit"), default: .milligramsPerDeciliter, "glucose_unit", "mg/dL or mmol/L")
        units.distance = try Self.choice(query("distance_unit"), default: .km, "distance_unit", "km or mi")
        if let name = query("temperature_unit") {
            guard let unit = Self.temperatureNames[name] else {
                throw InvalidParameter(name: "temperature_unit", allowed: "C or F")
            }
            units.temperature = unit
        }
        dateStyle = try Self.choice(query("date_format"), default: .iso, "date_format", "iso or healthexporter")
        switch query("source") {
        case nil, "false": includesSource = false
        case "true": includesSource = true
        default: throw InvalidParameter(name: "source", allowed: "true or false")
        }
    }

    private static func choice<T: RawRepresentable>(
        _ value: String?, default fallback: T, _ name: String, _ allowed: String
    ) throws(InvalidParameter) -> T where T.RawValue == String {
        guard let value else { return fallback }
        guard let parsed = T(rawValue: value) else { throw InvalidParameter(name: name, allowed: allowed) }
        return parsed
    }
}

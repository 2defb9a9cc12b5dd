import ArgumentParser
import Foundation
import HealthCore
import HealthDaily
import HealthExport

struct ExportCSV: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "csv",
        abstract:
            "Samples as CSV rows Date,Metric,Value,Unit in your units, the daily metrics (--daily) or the workouts (--workouts).",
        discussion: """
            Metrics: \(MetricRegistry.known.map(\.name).joined(separator: ", ")), and any other stored \
            type by its name (mindful_session). Rows stream from the store: memory stays flat. \
            See docs/export.md.
            """)

    @OptionGroup var storage: StoreOptions

    @Option(help: "Comma-separated metric names (weight,steps,glucose,a1c,…).")
    var metrics: String?

    @Flag(help: "Every metric the store holds.")
    var allMetrics = false

    @Flag(help: "The normalised daily metrics, one row per local day (as `healthpipe days`).")
    var daily = false

    @Flag(help: "The workouts, one row per workout with its own duration, energy (kcal), distance, heart rate (bpm) and climb.")
    var workouts = false

    @Option(help: "First local day, YYYY-MM-DD (default: 29 days before --to).")
    var from: String?

    @Option(help: "Last local day, inclusive, YYYY-MM-DD (default: today, or the last day with data if none is newer).")
    var to: String?

    @Flag(help: "Every date (instead of the last 30 days).")
    var allDates = false

    @OptionGroup var zones: ZoneOptions

    @Option(help: "kg or lb (default: kg).")
    var weightUnit: UnitPreferences.Weight?

    @Option(help: "mg/dL or mmol/L (default: mg/dL).")
    var glucoseUnit: UnitPreferences.Glucose?

    @Option(help: "km or mi (--workouts: and the climb in m or ft; default: km).")
    var distanceUnit: UnitPreferences.Distance?

    @Option(help: "C or F (default: C).")
    var temperatureUnit: TemperatureChoice?

    @Option(
        help:
            "iso (2026-01-09T10:30:00-08:00) or healthexporter (1/9/26, 10:30 AM); each row in its day's zone (default: iso)."
    )
    var dateFormat: CSVDateStyle?

    @Flag(name: .customLong("source-column"), help: "Add a Source column.")
    var source = false

    /// `--source` names a source to filter by elsewhere (`delete --source S`): refused here.
    @Flag(name: .customLong("source"), help: .hidden)
    var sourceFilter = false

    @Option(help: "A file, a folder (the file is named HealthPipeline_YYYY-MM-DD_HHMMSS.csv), or - for standard output.")
    var out = "-"

    /// The samples' export as the flags ask it (the same request `GET /v1/export.csv` decodes).
    var request: CSVExportRequest {
        var units = UnitPreferences()
        units.weight = weightUnit ?? units.weight
        units.glucose = glucoseUnit ?? units.glucose
        units.distance = distanceUnit ?? units.distance
        units.temperature = temperatureUnit?.unit ?? units.temperature
        return CSVExportRequest(
            metrics: allMetrics ? "all" : metrics ?? "all", units: units, dateStyle: dateFormat ?? .iso,
            includesSource: source)
    }

    func validate() throws {
        if sourceFilter { throw ValidationError("the Source column is --source-column (--source filters by a source)") }
        guard [metrics != nil, allMetrics, daily, workouts].filter({ $0 }).count == 1 else {
            throw ValidationError("give one of --metrics, --all-metrics, --daily or --workouts")
        }
        if let metrics, !CSVExportRequest.namesAMetric(metrics) {
            throw ValidationError("--metrics must name at least one metric (weight,steps,…), or use --all-metrics")
        }
        if allDates, from != nil || to != nil { throw ValidationError("use either --all-dates or --from/--to") }
        // Options that would change nothing are refused, not ignored.
        let notForWorkouts = [
            ("--weight-unit", weightUnit != nil), ("--glucose-unit", glucoseUnit != nil),
            ("--temperature-unit", temperatureUnit != nil), ("--source-column", source),
        ]
        if workouts, let (name, _) = notForWorkouts.first(where: \.1) {
            throw ValidationError("\(name) is for samples (--metrics, --all-metrics); --workouts writes kcal, km or mi, bpm")
        }
        let notForDays = notForWorkouts + [("--distance-unit", distanceUnit != nil), ("--date-format", dateFormat != nil)]
        if daily, let (name, _) = notForDays.first(where: \.1) {
            throw ValidationError("\(name) is for samples (--metrics, --all-metrics); --daily writes the days' own columns")
        }
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, LocalDate(value) == nil { throw ValidationError("\(name) must be a date YYYY-MM-DD, not '\(value)'") }
        }
        if let from = from.flatMap(LocalDate.init), let to = to.flatMap(LocalDate.init), from > to {
            throw ValidationError("--from must not be after --to")
        }
    }

    func run() async throws {
        try await storage.withQueries { try await export(from: $0) }
    }

    /// The samples (or days) asked for, from a store of either kind, written whole or not at all.
    private func export(from store: any HealthQuerying) async throws {
        let data = zones.data(store)
        let started = Date()
        // Today and the file's stamp are in the data's zone now, as in every command.
        let zone = try await data.zone(at: started)
        let dates = try await interval(data, store: store)
        let destination = try CSVDestination(out, now: started, zone: zone)
        do {
            let output = CSVOutput { try destination.write($0) }
            let summary =
                daily
                ? try await exportDaily(store, output, dates)
                : workouts
                    ? try await exportWorkouts(store, output, dates)
                    : try await exportSamples(store, output, zone, dates, data)
            try destination.commit()
            let elapsed = Date().timeIntervalSince(started)
            printError(
                String(
                    format: "%@ in %.2f s (%.1f MB)%@", summary, elapsed, Double(output.bytesWritten) / 1e6,
                    destination.path.map { " → \($0)" } ?? ""))
        } catch {
            destination.discard()
            throw error
        }
    }

    private func exportSamples(
        _ store: any HealthQuerying, _ output: CSVOutput, _ zone: TimeZone, _ dates: (LocalDate, LocalDate)?,
        _ data: DataZones
    ) async throws -> String {
        let chosen: [ExportMetric]
        do {
            chosen = try request.chosenMetrics(storedTypes: try await store.storedSampleTypes())
        } catch let error as UnknownMetricError {
            throw ValidationError(error.description)
        }
        // Each day from its start to its end in its own zone; each row stamped in its day's zone.
        var interval: DateInterval?
        var zoneChanges: [(start: Date, zone: TimeZone)] = []
        if let (first, last) = dates {
            if !allDates { interval = try await data.interval(from: first, through: last) }
            zoneChanges = try await data.zoneChanges(from: first, through: last)
        }
        let options = request.options(zone: zone, interval: interval, zoneChanges: zoneChanges)
        let progress = ProgressLine(enabled: isatty(STDERR_FILENO) == 1)
        let start = Date()
        let report = try await CSVExporter(store: store, options: options).export(chosen, to: output) {
            progress.show(count: $0, of: "rows", since: start)
        }
        progress.clear()
        // Every metric (--all-metrics) means those the store holds: the others are not news.
        if !request.asksForAll {
            for (metric, reason) in report.unavailable { printError("\(metric): unavailable, \(reason)") }
        }
        if report.keptInStoredUnit > 0 {
            printError("\(report.keptInStoredUnit) rows had a unit that does not convert and keep their stored unit")
        }
        let counts = report.rows.filter { $0.count > 0 }.map { "\($0.metric) \($0.count)" }.joined(separator: ", ")
        return "Wrote \(report.totalRows) row\(report.totalRows == 1 ? "" : "s")" + (counts.isEmpty ? "" : " (\(counts))")
    }

    private func exportDaily(
        _ store: any HealthQuerying, _ output: CSVOutput, _ dates: (LocalDate, LocalDate)?
    ) async throws -> String {
        guard let (first, last) = dates else {
            try DailyCSV.write([], to: output)
            return "Wrote 0 days (the store is empty)"
        }
        let days = try await DailyNormalizer(store: store, configuration: zones.configuration(), now: { Date() })
            .metrics(from: first, through: last)
        try DailyCSV.write(days, to: output)
        return "Wrote \(days.count) day\(days.count == 1 ? "" : "s")"
    }

    private func exportWorkouts(
        _ store: any HealthQuerying, _ output: CSVOutput, _ dates: (LocalDate, LocalDate)?
    ) async throws -> String {
        let configuration = zones.configuration()
        var found: [Workout] = []
        let normalizer = DailyNormalizer(store: store, configuration: configuration, now: { Date() })
        if let (first, last) = dates {
            let span = try await normalizer.span(from: first, through: last)
            found = try await store.workouts(overlapping: span).filter { $0.start >= span.start && $0.start < span.end }
            if found.isEmpty {
                printError(try await WorkoutTable.noneNote(from: first, through: last, in: store, normalizer))
            }
        }
        let zones = try await WorkoutTable.zones(of: found, normalizer)
        try WorkoutCSV.write(
            found, distance: distanceUnit ?? .km, dateStyle: dateFormat ?? .iso,
            zone: { zones[$0.uuid] ?? configuration.homeZone }, to: output)
        return "Wrote \(found.count) workout\(found.count == 1 ? "" : "s")"
    }

    /// The inclusive local dates asked for: --from/--to; the 30 days to --to, or to today —
    /// or to the last day with data when the store holds nothing newer, which standard error
    /// says; or (--all-dates) the days the store's samples span, `nil` for an empty store —
    /// each end in the zone of its day (a trip east: the last day is there, not at home).
    /// A range with no data says where the data is.
    private func interval(_ data: DataZones, store: any HealthQuerying) async throws -> (LocalDate, LocalDate)? {
        if allDates {
            guard let span = try await store.storedSpan() else { return nil }
            // The last second's day: a sample that ends at midnight is the day before's.
            let last = max(span.start, span.end.addingTimeInterval(-1))
            let first = LocalDate(span.start, in: try await data.zone(at: span.start))
            return (first, max(first, LocalDate(last, in: try await data.zone(at: last))))
        }
        let anchor = try await DayRangeOptions.anchor(store: store, configuration: zones.configuration())
        return DayRangeOptions.range(from: from.flatMap(LocalDate.init), to: to.flatMap(LocalDate.init), days: 30, anchor: anchor)
    }
}

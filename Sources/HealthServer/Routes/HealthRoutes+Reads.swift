import Foundation
import HealthCore
import HealthDaily
import HealthExport
import HealthSQLite
import Hummingbird

/// Reads from the user's health store: sleep sessions and the CSV export.
extension HealthRoutes {
    /// `GET /v1/sleep?from=&to=[&tz=]`: the sleep of each night, as `healthpipe sleep --format json`.
    func getSleep(_ request: Request, _ context: HealthRequestContext) async throws -> Response {
        let access = try await readAccess(context)
        try access.require([.sleep])
        let user = access.user
        let (first, last) = try range(request, maxDays: 366)
        var settings = DailyNormalizer.Configuration()
        settings.homeZone = try dayZone(request)
        let database = try await repositories.readableStore(user.id)
        return try json(
            try await SleepAnalyzer(store: database.queries, configuration: settings).nights(from: first, through: last))
    }

    /// `GET /v1/export.csv?metrics=weight,steps|all&from=&to=[&tz=&weight_unit=&glucose_unit=
    /// &distance_unit=&temperature_unit=&date_format=&source=true]`, streamed.
    ///
    /// A metric the token may not read is a 403 when named; `all` means every metric it may
    /// read (`HealthPipe-Withheld` names the kinds left out).
    func getExportCSV(_ request: Request, _ context: HealthRequestContext) async throws -> Response {
        let access = try await readAccess(context)
        // A token that may read nothing gets a 403 naming why, as on every other read.
        if access.readable.isEmpty { try access.require(Set(HealthDataCategory.allCases)) }
        let user = access.user
        let query = request.uri.queryParameters
        func parameter(_ name: String) -> String? { query[Substring(name)].map(String.init) }
        let zone = try dayZone(request)
        let (first, last) = try range(request, maxDays: 36600)
        let database = try await repositories.readableStore(user.id)
        // Days in the data's zones (HKTimeZone evidence, else tz), as every read: the rows
        // from the first day's start to the last day's end, each stamped in its day's zone.
        var settings = DailyNormalizer.Configuration()
        settings.homeZone = zone
        let days = DailyNormalizer(store: database.queries, configuration: settings, now: { Date() })
        var options = CSVExporter.Options()
        options.zone = zone
        options.interval = try await days.span(from: first, through: last)
        options.zoneChanges = try await days.zoneChanges(from: first, through: last)
        switch parameter("source") ?? "false" {
        case "true": options.includesSource = true
        case "false": options.includesSource = false
        default: throw Problem.badRequest("source must be true or false")
        }
        options.dateStyle = try choice(parameter("date_format"), default: .iso, "date_format", "iso or healthexporter")
        options.units.weight = try choice(parameter("weight_unit"), default: .kg, "weight_unit", "kg or lb")
        options.units.glucose = try choice(
            parameter("glucose_unit"), default: .milligramsPerDeciliter, "glucose_unit", "mg/dL or mmol/L")
        options.units.distance = try choice(parameter("distance_unit"), default: .km, "distance_unit", "km or mi")
        switch parameter("temperature_unit") ?? "C" {
        case "C": options.units.temperature = .celsius
        case "F": options.units.temperature = .fahrenheit
        default: throw Problem.badRequest("temperature_unit must be C or F")
        }
        let store = database.queries
        let stored = try await store.storedSampleTypes()
        var metrics: [ExportMetric]
        let list = parameter("metrics") ?? "all"
        // Named metrics resolve (and unknown ones are answered with the closest names and
        // "this store has …") among the types the token may read: a coach's typo never lists
        // the person's other kinds of data.
        let readable = stored.filter { access.readable.contains(HealthDataCategory($0)) }
        do {
            metrics = try MetricRegistry.metrics(named: list, storedTypes: list == "all" ? stored : readable)
        } catch let error as UnknownMetricError {
            throw Problem.unprocessableQuery(error.description)
        }
        var withheld = Set<HealthDataCategory>()
        if list == "all" {
            withheld = Set(metrics.map(\.category)).subtracting(access.readable)
            metrics.removeAll { withheld.contains($0.category) }
        } else {
            try access.require(Set(metrics.map(\.category)))
        }
        let exporter = CSVExporter(store: store, options: options)
        let chosen = metrics
        // Written to the response a page of rows at a time: awaiting the client's reads slows
        // the scan (memory stays a page and a few 64 KiB buffers), a client that goes away
        // ends it, and no thread waits meanwhile.
        let body = ResponseBody { writer in
            let output = CSVOutput()
            _ = try await exporter.export(
                chosen, to: output, deliver: { chunk in try await writer.write(ByteBuffer(bytes: chunk)) })
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: Self.withheldHeader(withheld) + [
                .contentType: "text/csv; charset=utf-8",
                .contentDisposition: "attachment; filename=\"HealthPipeline_\(first)_\(last).csv\"",
            ], body: body)
    }

    private func choice<T: RawRepresentable>(_ value: String?, default fallback: T, _ name: String, _ allowed: String) throws -> T
    where T.RawValue == String {
        guard let value else { return fallback }
        guard let parsed = T(rawValue: value) else { throw Problem.badRequest("\(name) must be \(allowed)") }
        return parsed
    }
}

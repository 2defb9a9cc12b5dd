import Foundation
import HealthCore
import HealthDaily
import HealthExport
import Hummingbird

/// Reads from the user's health store: sleep sessions and the CSV export.
extension HealthRoutes {
    var sleepRoutes: RouteCollection<AuthenticatedContext> { Self.collection().get("sleep", use: getSleep) }
    var exportRoutes: RouteCollection<AuthenticatedContext> { Self.collection().get("export.csv", use: getExportCSV) }

    /// `GET /v1/sleep?from=&to=[&tz=]`: the sleep of each night, as `healthpipe sleep --format json`.
    func getSleep(_ request: Request, _ context: AuthenticatedContext) async throws -> [SleepNight] {
        let access = try await readAccess(context)
        try access.require([.sleep])
        let user = access.user
        let (first, last) = try range(request, maxDays: 366)
        var settings = DailyNormalizer.Configuration()
        settings.homeZone = try await dayZone(request, userID: user.id)
        let database = try await repositories.readableStore(user.id)
        return try await SleepAnalyzer(store: database.queries, configuration: settings).nights(from: first, through: last)
    }

    /// `GET /v1/export.csv?metrics=weight,steps|all&from=&to=[&tz=&weight_unit=&glucose_unit=
    /// &distance_unit=&temperature_unit=&date_format=&source=true]`, streamed.
    ///
    /// A metric the token may not read is a 403 when named; `all` means every metric it may
    /// read (`HealthPipe-Withheld` names the kinds left out).
    func getExportCSV(_ request: Request, _ context: AuthenticatedContext) async throws -> Response {
        let access = try await readAccess(context)
        // A token that may read nothing gets a 403 naming why, as on every other read.
        if access.readable.isEmpty { try access.require(Set(HealthDataCategory.allCases)) }
        let user = access.user
        let query = request.uri.queryParameters
        let asked: CSVExportRequest
        do {
            asked = try CSVExportRequest(query: { query[Substring($0)].map(String.init) })
        } catch {
            throw Problem.badRequest(error.description)
        }
        let zone = try await dayZone(request, userID: user.id)
        let (first, last) = try range(request, maxDays: 36600)
        let database = try await repositories.readableStore(user.id)
        // Days in the data's zones (HKTimeZone evidence, else tz), as every read: the rows
        // from the first day's start to the last day's end, each stamped in its day's zone.
        var settings = DailyNormalizer.Configuration()
        settings.homeZone = zone
        let days = DailyNormalizer(store: database.queries, configuration: settings, now: { Date() })
        let options = asked.options(
            zone: zone, interval: try await days.span(from: first, through: last),
            zoneChanges: try await days.zoneChanges(from: first, through: last))
        let store = database.queries
        let stored = try await store.storedSampleTypes()
        var metrics: [ExportMetric]
        // Named metrics resolve (and unknown ones are answered with the closest names and
        // "this store has …") among the types the token may read: a coach's typo never lists
        // the person's other kinds of data.
        let readable = stored.filter { access.readable.contains(HealthDataCategory($0)) }
        do {
            metrics = try asked.chosenMetrics(storedTypes: stored, namedAmong: readable)
        } catch let error as UnknownMetricError {
            throw Problem.unprocessableQuery(error.description)
        }
        var withheld = Set<HealthDataCategory>()
        if asked.asksForAll {
            // Every kind the token may not read, not those of the metrics stored: the header
            // must not tell a coach which other kinds of data the person keeps.
            withheld = Set(HealthDataCategory.allCases).subtracting(access.readable)
            metrics.removeAll { !access.readable.contains($0.category) }
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
}

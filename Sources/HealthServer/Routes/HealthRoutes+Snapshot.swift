import Foundation
import HealthContext
import HealthCore
import HealthDaily
import HealthMetrics
import HealthWeather
import Hummingbird

/// `GET /v1/snapshot`: the coach context from the user's own store, as
/// `healthpipe snapshot --format json` gives it.
extension HealthRoutes {
    var snapshotRoutes: RouteCollection<AuthenticatedContext> { Self.collection().get("snapshot", use: getSnapshot) }

    /// `?at=` (ISO 8601 with an offset; default now), `?tz=` (the zone of days without
    /// `HKTimeZone`), `?lat=&lon=` (the weather there; without them the weather is missing,
    /// with the reason). Every provider has its own deadline; a failing one leaves its
    /// fields empty and names why under `missing`, and never fails the request.
    ///
    /// `?types=` narrows the kinds of data used (each must be readable, or 403); without it,
    /// the parts from kinds the token may not read are empty, "not permitted" their reason.
    ///
    /// Without `at`, a store whose data ends before today is seen as of its newest sample, as
    /// `healthpipe snapshot` and MCP see it, and `HealthPipe-Note` says so.
    func getSnapshot(
        _ request: Request, _ context: AuthenticatedContext
    ) async throws -> EditedResponse<HealthContextSnapshot> {
        let access = try await readAccess(context)
        let shown = try access.requested(request, offered: Set(HealthDataCategory.allCases))
        let user = access.user
        let query = request.uri.queryParameters
        var instant = configuration.clock()
        if let at = query["at"].map(String.init) {
            guard let parsed = Self.instant(at) else {
                throw Problem.badRequest("at must be an ISO 8601 instant with an offset, e.g. 2024-06-01T20:00:00Z")
            }
            guard NormalizedDailyMetrics.servedInstants.contains(parsed) else {
                throw Problem.unprocessableQuery("at must be within the years 1900–2199")
            }
            instant = parsed
        }
        let latitude = query["lat"].map { Double(String($0)) }
        let longitude = query["lon"].map { Double(String($0)) }
        var location: GeoLocation?
        switch (latitude, longitude) {
        case (nil, nil): location = nil
        case (let lat??, let lon??):
            guard let valid = GeoLocation(latitude: lat, longitude: lon) else {
                throw Problem.badRequest("lat must be within -90…90 and lon within -180…180")
            }
            location = valid
        case (nil, _?), (_?, nil): throw Problem.unprocessableQuery("give lat and lon together, as numbers in degrees")
        default: throw Problem.badRequest("lat and lon must be numbers in degrees")
        }
        var settings = ContextAssembler.Configuration()
        settings.daily.homeZone = try await dayZone(request, userID: user.id)
        settings.timeouts["weather"] = configuration.weather.timeout
        settings.providerTimeout = configuration.snapshotProviderTimeout
        settings.dayTimeout = configuration.snapshotProviderTimeout
        let database = try await repositories.readableStore(user.id)
        let withheld = Set(HealthDataCategory.allCases).subtracting(shown)
        var note: String?
        if query["at"] == nil {
            // The stored days the anchor reads are never behind the samples.
            try await recomputer.computeDirtyDaysBeforeReading(userID: user.id)
            let now = instant
            let stored = StoredDailyMetrics(
                repository: repositories.dailyMetrics, userID: user.id, version: settings.daily.version,
                zone: settings.daily.homeZone)
            let anchor = try await DailyNormalizer(store: database.queries, configuration: settings.daily, now: { now })
                .anchor(excluding: withheld, daily: stored)
            instant = anchor.instant(now: now)
            note = anchor.snapshotNote
        }
        let assembler = ContextAssembler.standard(
            store: database.queries, appData: database.appData, weather: OpenMeteoClient(configuration: configuration.weather),
            location: location, configuration: settings, withheld: withheld)
        let snapshot = await assembler.assemble(at: instant)
        return EditedResponse(headers: note.map { [HTTPFields.Element.Name("HealthPipe-Note")!: $0] } ?? [:], response: snapshot)
    }

    static func instant(_ text: String) -> Date? { NormalizedDailyMetrics.parseInstant(text) }
}

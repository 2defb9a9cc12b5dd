import Foundation
import HealthCore
import HealthServerRecords
import Hummingbird

/// The `/v1` handlers over the server's repositories, one ``RouteCollection`` per resource
/// (each in its `HealthRoutes+<Resource>.swift`). A handler takes the request and the
/// ``AuthenticatedContext``, and returns its answer as a value the context's
/// ``HealthResponseEncoder`` writes (`EditedResponse` when it adds headers or a status), or
/// a ``Response`` where the answer is streamed, replayed or of two shapes; refusals are
/// ``Problem``s.
struct HealthRoutes: Sendable {
    let configuration: ServerConfiguration
    let repositories: ServerRepositories
    let imports: ImportRunner
    /// The people whose days writes left dirty, for ``DayRecomputeService``.
    var days = DayQueue()

    /// Every resource under `/v1`: the router mounts exactly these.
    var collections: [RouteCollection<AuthenticatedContext>] {
        [
            dailyMetricsRoutes, sampleRoutes, accountRoutes, homeZoneRoutes, deviceRoutes, syncRoutes, sleepRoutes,
            snapshotRoutes,
            exportRoutes, importRoutes, workoutRoutes,
        ]
    }

    /// An empty collection of this server's `/v1` routes.
    static func collection() -> RouteCollection<AuthenticatedContext> {
        RouteCollection(context: AuthenticatedContext.self)
    }

    /// The days of the person's samples, computed after a write and before a read.
    var recomputer: DayRecomputer { DayRecomputer(repositories: repositories, logger: imports.logger) }

    /// The policy of requests that run once (``RequestOnce``), over this server's stores.
    var once: RequestOnce {
        RequestOnce(
            remembered: repositories.idempotency, slots: repositories.inFlight, clock: configuration.clock,
            inOneStatement: repositories.onceInOneStatement)
    }

    /// `GET /readyz`: 503 while the store does not answer.
    func ready() async throws -> [String: String] {
        do {
            try await repositories.dailyMetrics.ping()
        } catch {
            throw Problem(.serviceUnavailable, "Not ready", detail: "the store does not answer")
        }
        return ["status": "ready"]
    }
}

/// The query parameters every resource reads the same way.
extension HealthRoutes {
    /// The dates a query may name: 1900-01-01 through 2199-12-31. Others are a 422 (a day
    /// in year 0 with its 60 days of history before it has no zone, no calendar, no data).
    static let servedDates = LocalDate("1900-01-01")!...LocalDate("2199-12-31")!

    /// A query's `YYYY-MM-DD` (else a 400) within ``servedDates`` (else a 422), naming the
    /// parameter.
    static func queryDate(_ text: String, name: String) throws -> LocalDate {
        guard let date = LocalDate(text) else { throw Problem.badRequest("\(name) must be YYYY-MM-DD") }
        guard servedDates.contains(date) else {
            throw Problem.unprocessableQuery(
                "\(name) must be between \(servedDates.lowerBound) and \(servedDates.upperBound)")
        }
        return date
    }

    /// `from=` and `to=` (both needed), at most `maxDays` apart.
    func range(_ request: Request, maxDays: Int) throws -> (LocalDate, LocalDate) {
        guard let from = request.uri.queryParameters["from"], let to = request.uri.queryParameters["to"] else {
            throw Problem.unprocessableQuery("give from=YYYY-MM-DD and to=YYYY-MM-DD")
        }
        let first = try Self.queryDate(String(from), name: "from")
        let last = try Self.queryDate(String(to), name: "to")
        guard first <= last, last.dayNumber - first.dayNumber < maxDays else {
            throw Problem.unprocessableQuery("from must not be after to, and the range at most \(maxDays) days")
        }
        return (first, last)
    }

    /// The `version` query parameter, `norm_v1` when absent.
    func version(_ request: Request) throws -> NormalizationVersion {
        guard let text = request.uri.queryParameters["version"] else { return .v1 }
        guard let version = NormalizationVersion(rawValue: String(text)) else {
            throw Problem.badRequest("version must be \(NormalizationVersion.names)")
        }
        return version
    }

    /// `?tz=` when the request gives it (an IANA zone), else `nil`. On a write it is the zone
    /// of days without `HKTimeZone` only while the person has no home zone: the first one a
    /// write gives becomes it (docs/api.md §Home zone).
    func givenZone(_ request: Request) throws -> TimeZone? {
        guard let text = request.uri.queryParameters["tz"] else { return nil }
        return try Self.zone(named: String(text), pointer: nil)
    }

    /// A write's `?tz=`, the zone that sets the person's home zone when they have none yet
    /// (docs/api.md §Home zone) — checked whoever sends it (a 400 for a name that is no
    /// zone), kept only from the owner's token: a coach's token that writes steps does not
    /// decide in which zone the person's days are counted.
    func homeZoneOffer(_ request: Request, user: User) throws -> TimeZone? {
        let zone = try givenZone(request)
        return user.isOwner ? zone : nil
    }

    /// The IANA zone `name`, or a 400 (`pointer`: a body's field, else the `tz` parameter).
    static func zone(named name: String, pointer: String?) throws -> TimeZone {
        // Foundation reads a name only up to a NUL byte: `Asia/Tokyo\0x` must not become a zone.
        guard name.count <= 64, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "/_+-".contains($0)) })
        else {
            throw Problem.badRequest("tz must be an IANA zone such as Europe/Paris", pointer: pointer)
        }
        guard let zone = TimeZone(identifier: name) else {
            throw Problem.badRequest("tz must be an IANA zone such as Europe/Paris, not '\(name)'", pointer: pointer)
        }
        return zone
    }

    /// The zone of a read's days without `HKTimeZone`: `?tz=` when given, else the person's
    /// home zone, else UTC.
    func dayZone(_ request: Request, userID: String) async throws -> TimeZone {
        if let zone = try givenZone(request) { return zone }
        return try await repositories.homeZone(of: userID)
    }

    /// A query integer in `range`, or a 400 naming it.
    static func integer(_ text: Substring?, name: String, default fallback: Int64, in range: ClosedRange<Int64>) throws -> Int64 {
        guard let text else { return fallback }
        guard let value = Int64(text), range.contains(value) else {
            throw Problem.badRequest(
                "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)", pointer: "query/\(name)")
        }
        return value
    }
}

import Foundation
import HealthCore
import HealthDaily
import HealthMetrics
import HealthReadiness
import HealthServerRecords
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL

/// The storage the server runs on.
public struct ServerRepositories: Sendable {
    public var users: any UserRepository
    public var dailyMetrics: any DailyMetricsRepository
    public var healthStores: any UserHealthStores
    public var idempotency: any IdempotencyRepository
    public var imports: any ImportJobRepository
    public var devices: any DeviceRepository
    /// Consent and dashboard sessions.
    public var web: any WebAccessRepository
    /// Where uploaded exports wait for their import.
    public var uploadFolder: String
    /// With several servers on one PostgreSQL database: where uploads wait for whichever
    /// server claims them (`nil`: this server imports its own uploads from `uploadFolder`).
    public var importQueue: (any SharedImportQueue)?
    /// The slots of requests that must not run twice at once: in this process, or in the
    /// shared database when several servers use it.
    public var inFlight: any InFlightSlots = LocalInFlightSlots()
    /// Per user: writers share, a deletion holds alone (every copy of these repositories
    /// shares one: build each server's repositories once).
    public var userLocks = UserLocks()

    public init(
        users: any UserRepository, dailyMetrics: any DailyMetricsRepository, healthStores: any UserHealthStores,
        idempotency: any IdempotencyRepository, imports: any ImportJobRepository, devices: any DeviceRepository,
        web: any WebAccessRepository, uploadFolder: String
    ) {
        self.users = users
        self.dailyMetrics = dailyMetrics
        self.healthStores = healthStores
        self.idempotency = idempotency
        self.imports = imports
        self.devices = devices
        self.web = web
        self.uploadFolder = uploadFolder
    }

    /// Every repository from one store, users' samples in `healthStores` (both opened by
    /// `ServerStorage.open(_:)` in HealthServerStorage), uploads in `dataFolder/uploads`.
    /// A store with a ``ServerStore/sharedImportQueue`` (PostgreSQL) queues uploads for any
    /// server, and shares its in-flight slots with them.
    public init(store: any ServerStore, healthStores: any UserHealthStores, dataFolder: String) {
        self.init(
            users: store, dailyMetrics: store, healthStores: healthStores, idempotency: store, imports: store,
            devices: store, web: store, uploadFolder: (dataFolder as NSString).appendingPathComponent("uploads"))
        importQueue = store.sharedImportQueue
        if let shared = store.sharedInFlightSlots { inFlight = shared }
    }
}

/// Builds the application: the CLI runs it, the tests drive it (`app.test(.router)`).
///
/// It throws when `configuration.tls` is set but cannot be used: a server asked for HTTPS
/// never falls back to plain HTTP.
///
/// ```swift
/// let storage = try await ServerStorage.open(.sqlite(path: "data/server.sqlite", dataFolder: "data"))
/// let repositories = ServerRepositories(store: storage.records, healthStores: storage.healthStores, dataFolder: "data")
/// let app = try buildApplication(configuration: .init(), repositories: repositories)
/// try await app.runService()
/// ```
public func buildApplication(
    configuration: ServerConfiguration, repositories: ServerRepositories, logger: Logger = Logger(label: "healthpipe.serve")
) throws -> some ApplicationProtocol {
    let router = Router(context: HealthRequestContext.self)
    // HSTS first (outermost, before any route): on every answer, the problems too.
    if configuration.servesHTTPS { router.add(middleware: StrictTransportSecurityMiddleware()) }
    router.add(middleware: ProblemMiddleware())
    let imports = ImportRunner(repositories: repositories, limits: .init(configuration), logger: logger)
    let routes = HealthRoutes(configuration: configuration, repositories: repositories, imports: imports)
    let importService = ImportService(
        runner: imports,
        claims: repositories.importQueue.map { queue in
            ImportService.Claims(queue: queue) { userID, zone in
                { database in try await routes.recomputer.computeDirtyDays(userID: userID, database: database, forImport: true) }
            }
        },
        shutdownGrace: .milliseconds(Int64(min(max(0, configuration.importShutdownGrace), 86_400) * 1000)))
    router.get("/healthz") { _, _ in try routes.json(["status": "ok"]) }
    router.get("/readyz") { _, _ in try await routes.ready() }
    router.get("/openapi.json") { _, _ in
        Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.openapi_json)))
    }
    // One budget of wrong tokens per peer, at /login, /v1 and /mcp.
    let failures = RateLimiter(limit: configuration.failedSignInsPerMinute)
    WebRoutes(
        configuration: configuration, repositories: repositories, failures: failures,
        beforeReadingDays: { try await routes.recomputer.computeDirtyDaysBeforeReading(userID: $0) }
    ).register(on: router)
    // One budget per token across /v1 and /mcp.
    let limiter = RateLimiter(limit: configuration.requestsPerMinute)
    // The handlers see the user the bearer middleware found (``AuthenticatedContext``).
    let v1 = router.group("v1")
        .add(middleware: BearerAuthMiddleware(users: repositories.users, failures: failures, clock: configuration.clock))
        .add(
            middleware: RateLimitMiddleware(
                limiter: limiter, clock: configuration.clock)
        )
        .group(context: AuthenticatedContext.self)
    for route in HealthRoutes.table {
        let handler = route.handler(routes)
        v1.on(RouterPath(route.path), method: route.method) { request, context in try await handler(request, context) }
    }
    // The coach's MCP endpoint: the same token and rate limit as /v1 (docs/mcp.md).
    router.group("mcp")
        .add(middleware: BearerAuthMiddleware(users: repositories.users, failures: failures, clock: configuration.clock))
        .add(
            middleware: RateLimitMiddleware(
                limiter: limiter, clock: configuration.clock)
        )
        .group(context: AuthenticatedContext.self)
        .post { request, context in try await routes.postMCP(request, context) }
    let address = ApplicationConfiguration(
        address: .hostname(configuration.host, port: configuration.port), serverName: "healthpipe")
    let connections = ConnectionLimit(limit: configuration.maxConnections ?? ConnectionLimit.defaultLimit())
    let http1 = HTTP1Channel.Configuration(
        additionalChannelHandlers: [
            connections.handler(),
            MinimumBodyRate(grace: configuration.idleTimeout, bytesPerSecond: configuration.minimumBodyRate),
        ],
        idleTimeout: .milliseconds(Int64(configuration.idleTimeout * 1000)))
    var server = HTTPServerBuilder.http1(configuration: http1)
    if let tls = configuration.tls {
        do {
            // The builder makes its TLS context only when the server starts: make one now,
            // so that a configuration that cannot work stops the build with its reason.
            _ = try NIOSSLContext(configuration: tls)
            server = try HTTPServerBuilder.tls(.http1(configuration: http1), tlsConfiguration: tls)
        } catch {
            throw ServerTLS.TLSSetupError(reason: "\(error)")
        }
    }
    return Application(
        router: router, server: server, configuration: address, services: [importService], logger: logger)
}

/// Every route the server has, as `METHOD /path` (`{name}` for a path parameter): what
/// `/openapi.json` must document, no more and no less.
public let serverRoutes: [String] =
    ["GET /healthz", "GET /readyz", "GET /openapi.json"]
    + HealthRoutes.table.map { "\($0.method) /v1/\($0.path)" }

/// The handlers, over the repositories.
struct HealthRoutes: Sendable {
    typealias Handler = @Sendable (Request, AuthenticatedContext) async throws -> Response

    /// The `/v1` routes: the router registers exactly these.
    static let table: [(method: HTTPRequest.Method, path: String, handler: @Sendable (HealthRoutes) -> Handler)] = [
        (.post, "daily-metrics", { $0.postDailyMetrics }),
        (.get, "daily-metrics", { $0.getDailyMetrics }),
        (.get, "readiness", { $0.getReadiness }),
        (.post, "health-auto-export", { $0.postHealthAutoExport }),
        (.post, "samples", { $0.postSamples }),
        (.delete, "samples", { $0.deleteSamples }),
        (.get, "changes", { $0.getChanges }),
        (.delete, "me", { $0.deleteMe }),
        (.post, "devices", { $0.postDevice }),
        (.get, "devices", { $0.getDevices }),
        (.delete, "devices/{id}", { $0.deleteDevice }),
        (.post, "devices/{id}/keys", { $0.postDeviceKey }),
        (.post, "sync/batches", { $0.postSyncBatch }),
        (.get, "sleep", { $0.getSleep }),
        (.get, "snapshot", { $0.getSnapshot }),
        (.get, "export.csv", { $0.getExportCSV }),
        (.post, "imports", { $0.postImport }),
        (.get, "imports/{id}", { $0.getImport }),
        (.get, "workouts", { $0.getWorkouts }),
        (.get, "workouts/{id}", { $0.getWorkout }),
        (.get, "workouts/{id}/route", { $0.getWorkoutRoute }),
        (.get, "workouts/{id}/heart-rate", { $0.getWorkoutHeartRate }),
    ]

    let configuration: ServerConfiguration
    let repositories: ServerRepositories
    let imports: ImportRunner

    /// The days of the person's samples, computed after a write and before a read.
    var recomputer: DayRecomputer { DayRecomputer(repositories: repositories, logger: imports.logger) }

    func ready() async throws -> Response {
        do {
            try await repositories.dailyMetrics.ping()
        } catch {
            throw Problem(.serviceUnavailable, "Not ready", detail: "the store does not answer")
        }
        return try json(["status": "ready"])
    }

    /// `POST /v1/daily-metrics`: an array of payloads in the backend schema, upserted per
    /// (user, local_date, normalization_version) in one transaction. A day replaces the stored
    /// one whole, so the token needs write for every kind a day holds (steps, energy, sleep, heart).
    func postDailyMetrics(_ request: Request, _ context: AuthenticatedContext) async throws -> Response {
        let user = try context.require(.write)
        try Self.requireWrite(NormalizedDailyMetrics.categories, user: user)
        let days = try await decodeJSON([NormalizedDailyMetrics].self, request, decoder: NormalizedDailyMetrics.backendDecoder())
        guard days.count <= configuration.maxDaysPerRequest else {
            throw Problem.badRequest("at most \(configuration.maxDaysPerRequest) days per request; split the batch")
        }
        try DailyMetricsValidation.validate(days, user: user)
        let owned = days.map { day in
            var day = day
            day.userID = user.id
            return day
        }
        let counts = try await repositories.withUser(user.id) {
            try await repositories.dailyMetrics.upsert(owned, userID: user.id)
        }
        return try json(counts)
    }

    /// `GET /v1/daily-metrics?from=&to=[&version=&types=]`: fields of kinds the token may not
    /// read (or did not ask for) are `null`; `HealthPipe-Withheld` names them.
    func getDailyMetrics(_ request: Request, _ context: AuthenticatedContext) async throws -> Response {
        let access = try await readAccess(context)
        let shown = try access.requested(request, offered: NormalizedDailyMetrics.categories)
        let (first, last) = try range(request, maxDays: 3660)
        let version = try self.version(request)
        try await recomputer.computeDirtyDaysBeforeReading(userID: access.user.id)
        let withheld = NormalizedDailyMetrics.categories.subtracting(shown)
        let days = try await repositories.dailyMetrics.dailyMetrics(
            userID: access.user.id, from: first, through: last, version: version
        ).map { $0.withholding(withheld) }
        let data = try NormalizedDailyMetrics.backendEncoder().encode(days)
        var headers = Self.withheldHeader(withheld)
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `GET /v1/readiness?date=` (one score) or `?from=&to=` (an array), from the stored days.
    func getReadiness(_ request: Request, _ context: AuthenticatedContext) async throws -> Response {
        let access = try await readAccess(context)
        try access.require(NormalizedDailyMetrics.categories)
        let user = access.user
        let single = request.uri.queryParameters["date"].map(String.init)
        let (first, last): (LocalDate, LocalDate)
        if let single {
            let date = try Self.queryDate(single, name: "date")
            for name in ["from", "to"] as [Substring] {
                guard let value = request.uri.queryParameters[name] else { continue }
                guard LocalDate(String(value)) != nil else { throw Problem.badRequest("\(name) must be YYYY-MM-DD") }
                throw Problem.unprocessableQuery("give date, or from and to, not both")
            }
            (first, last) = (date, date)
        } else {
            (first, last) = try range(request, maxDays: 366)
        }
        var settings = ReadinessConfiguration()
        if let need = request.uri.queryParameters["sleep_need"] {
            guard let hours = Double(String(need)), (4.0...12.0).contains(hours) else {
                throw Problem.badRequest("sleep_need must be 4–12 hours")
            }
            settings.sleepNeedHours = hours
        }
        try await recomputer.computeDirtyDaysBeforeReading(userID: user.id)
        let history = try await repositories.dailyMetrics.dailyMetrics(
            userID: user.id, from: first.adding(days: -ReadinessEngine.historyDays), through: last,
            version: try version(request))
        let dates = (first.dayNumber...last.dayNumber).map { LocalDate(dayNumber: $0).description }
        let scores = try ReadinessEngine(configuration: settings).scores(on: dates, history: history)
        return single == nil ? try json(scores) : try json(scores[0])
    }

    // MARK: helpers

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

    /// The `version` query parameter, `norm_v1` when absent, as the stored column's text.
    private func version(_ request: Request) throws -> NormalizationVersion {
        guard let text = request.uri.queryParameters["version"] else { return .v1 }
        guard let version = NormalizationVersion(rawValue: String(text)) else {
            throw Problem.badRequest("version must be \(NormalizationVersion.names)")
        }
        return version
    }

    private func decodeJSON<T: Decodable>(_ type: T.Type, _ request: Request, decoder: JSONDecoder) async throws -> T {
        try decoder.decode(type, from: try await collectJSON(request, limit: configuration.maxBodyBytes))
    }

    /// The body of a JSON request: 415 without `Content-Type: application/json`, 413 above `limit`.
    func collectJSON(_ request: Request, limit: Int) async throws -> Data {
        guard let contentType = request.headers[.contentType], contentType.lowercased().hasPrefix("application/json") else {
            throw Problem(.unsupportedMediaType, "Unsupported media type", detail: "send Content-Type: application/json")
        }
        let data: Data
        do {
            data = Data(try await request.body.collect(upTo: limit).readableBytesView)
        } catch is NIOTooManyBytesError {
            throw Problem(
                .contentTooLarge, "Body too large",
                detail: "the body is larger than the \(limit) bytes this server accepts; send smaller batches")
        }
        try await refuseDuplicateKeys(data)
        return data
    }

    /// ``refuseDuplicateKeys(_:)`` of a body, a large one off the cooperative pool, as
    /// bodies are decoded (``offload(_:)``): a scan of megabytes must not stall `/healthz`.
    func refuseDuplicateKeys(_ data: Data) async throws {
        if data.count > 64 << 10 {
            try await offload { try Self.refuseDuplicateKeys(data) }
        } else {
            try Self.refuseDuplicateKeys(data)
        }
    }

    /// A 400 for a JSON body with a key twice in one object: parsers disagree on which wins.
    static func refuseDuplicateKeys(_ data: Data) throws {
        if let pointer = JSONDuplicateKeys.first(in: data) {
            throw Problem.badRequest("a key appears twice in one object; send each key once", pointer: pointer)
        }
    }

    func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: try encoded(value))))
    }

    /// JSON with sorted keys and ISO 8601 instants.
    func encoded(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}

import Foundation
import HealthCore
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
    /// OAuth clients, codes and tokens of remote MCP clients (docs/oauth.md).
    public var oauth: any OAuthRepository
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
    /// The answers and the slots as one store that keeps an `Idempotency-Key`'s steps in one
    /// statement before the work and one after (PostgreSQL), or `nil` — also when a test
    /// stands in for either.
    public var onceInOneStatement: (any OnceInOneStatement)? {
        guard let store = inFlight as? any OnceInOneStatement, (idempotency as AnyObject) === (store as AnyObject) else {
            return nil
        }
        return store
    }
    /// Reads a live user's computed days in one statement where the store can
    /// (``ServerStore/currentDaysReader(with:)``); `nil`: reads go in steps.
    public var currentDays: (any CurrentDaysReading)?

    public init(
        users: any UserRepository, dailyMetrics: any DailyMetricsRepository, healthStores: any UserHealthStores,
        idempotency: any IdempotencyRepository, imports: any ImportJobRepository, devices: any DeviceRepository,
        web: any WebAccessRepository, oauth: any OAuthRepository, uploadFolder: String
    ) {
        self.users = users
        self.dailyMetrics = dailyMetrics
        self.healthStores = healthStores
        self.idempotency = idempotency
        self.imports = imports
        self.devices = devices
        self.web = web
        self.oauth = oauth
        self.uploadFolder = uploadFolder
    }

    /// Every repository from one store, users' samples in `healthStores` (both opened by
    /// `ServerStorage.open(_:)` in HealthServerStorage), uploads in `dataFolder/uploads`.
    /// A store with a ``ServerStore/sharedImportQueue`` (PostgreSQL) queues uploads for any
    /// server, and shares its in-flight slots with them.
    public init(store: any ServerStore, healthStores: any UserHealthStores, dataFolder: String) {
        self.init(
            users: store, dailyMetrics: store, healthStores: healthStores, idempotency: store, imports: store,
            devices: store, web: store, oauth: store, uploadFolder: (dataFolder as NSString).appendingPathComponent("uploads"))
        importQueue = store.sharedImportQueue
        if let shared = store.sharedInFlightSlots { inFlight = shared }
        currentDays = store.currentDaysReader(with: healthStores)
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
    // HEAD on every GET route (RFC 9110 §9.3.2): the GET's status and headers, no body —
    // a load balancer's `HEAD /readyz` was a 405.
    let router = Router(context: HealthRequestContext.self, options: .autoGenerateHeadEndpoints)
    // HSTS first (outermost, before any route): on every answer, the problems too.
    if configuration.servesHTTPS { router.add(middleware: StrictTransportSecurityMiddleware()) }
    let imports = ImportRunner(repositories: repositories, limits: .init(configuration), logger: logger)
    let routes = HealthRoutes(configuration: configuration, repositories: repositories, imports: imports)
    router.add(middleware: ProblemMiddleware(routes: routes.routeListWithMCP + WebRoutes.routes + OAuthRoutes.routes))
    let importService = ImportService(
        runner: imports,
        claims: repositories.importQueue.map { queue in
            ImportService.Claims(queue: queue) { userID in
                { database in try await routes.recomputer.computeDirtyDays(userID: userID, database: database, forImport: true) }
            }
        },
        shutdownGrace: .milliseconds(Int64(min(max(0, configuration.importShutdownGrace), 86_400) * 1000)))
    let dayService = DayRecomputeService(queue: routes.days, recomputer: routes.recomputer)
    router.add(middleware: BodyLimitMiddleware(bytes: configuration.maxBodyBytes))
    router.add(middleware: ConditionalGetMiddleware())
    router.get("/healthz") { _, _ in ["status": "ok"] }
    router.get("/readyz") { _, _ in try await routes.ready() }
    router.get("/openapi.json") { _, _ in
        Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.openapi_json)))
    }
    // One budget of wrong tokens per peer, at /login, /v1 and /mcp.
    let failures = RateLimiter(limit: configuration.failedSignInsPerMinute)
    let web = WebRoutes(
        configuration: configuration, repositories: repositories, failures: failures,
        beforeReadingDays: { try await routes.recomputer.computeDirtyDaysBeforeReading(userID: $0) })
    web.register(on: router)
    OAuthRoutes(
        configuration: configuration, repositories: repositories, web: web,
        registrations: RateLimiter(limit: configuration.oauth.registrationsPerMinute)
    ).register(on: router)
    // One budget per token across /v1 and /mcp.
    let limiter = RateLimiter(limit: configuration.requestsPerMinute)
    // The handlers see the user the bearer middleware found (``AuthenticatedContext``).
    func authenticated(_ path: RouterPath, oauth: Bool = false) -> RouterGroup<AuthenticatedContext> {
        var bearer = BearerAuthMiddleware(users: repositories.users, failures: failures, clock: configuration.clock)
        if oauth {
            bearer.oauth = (repositories.oauth, { OAuthEndpoints($0, configuration: configuration) })
        }
        return router.group(path)
            .add(middleware: bearer)
            .add(middleware: RateLimitMiddleware(limiter: limiter, clock: configuration.clock))
            .group(context: AuthenticatedContext.self)
    }
    let v1 = authenticated("v1")
    for collection in routes.collections { v1.addRoutes(collection) }
    // The coach's MCP endpoint: the same tokens and rate limit as /v1, and the access tokens
    // of apps connected by OAuth (docs/mcp.md, docs/oauth.md).
    authenticated("mcp", oauth: true).addRoutes(routes.mcpRoutes)
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
        router: router, server: server, configuration: address, services: [importService, dayService], logger: logger)
}

/// Every `/v1` route the server has, as `METHOD /v1/path` (`{name}` for a path
/// parameter), with `/healthz`, `/readyz` and `/openapi.json`: what `/openapi.json` must
/// document, no more and no less. Read from the route collections themselves.
public func serverRoutes(configuration: ServerConfiguration, repositories: ServerRepositories) -> [String] {
    HealthRoutes(
        configuration: configuration, repositories: repositories,
        imports: ImportRunner(repositories: repositories, logger: Logger(label: "healthpipe.routes"))
    ).routeList
}

extension HealthRoutes {
    /// ``serverRoutes(configuration:repositories:)`` of these handlers.
    var routeList: [String] {
        ["GET /healthz", "GET /readyz", "GET /openapi.json"] + Self.recorded(collections, at: "/v1")
    }

    /// ``routeList`` and `POST /mcp` (described by docs/mcp.md, not by the OpenAPI document).
    var routeListWithMCP: [String] { routeList + Self.recorded([mcpRoutes], at: "/mcp") }

    private static func recorded(_ collections: [RouteCollection<AuthenticatedContext>], at path: RouterPath) -> [String] {
        let recorder = RouteRecorder()
        for collection in collections { recorder.addRoutes(collection, atPath: path) }
        return recorder.routes.withLock { $0 }
    }
}

/// Writes down the routes added to it (a router that answers nothing), in the
/// `METHOD /path/{name}` form of the OpenAPI document.
private final class RouteRecorder: RouterMethods, Sendable {
    typealias Context = AuthenticatedContext
    let routes = Locked<[String]>([])

    @discardableResult func on<Responder: HTTPResponder>(
        _ path: RouterPath, method: HTTPRequest.Method, responder: Responder
    ) -> Self where Responder.Context == Context {
        routes.withLock { $0.append("\(method) /" + path.components.map(\.description).joined(separator: "/")) }
        return self
    }

    func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self { self }
}

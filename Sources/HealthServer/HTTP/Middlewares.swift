import Foundation
import HealthCore
import HealthServerRecords
import HealthWire
import Hummingbird
import Logging

/// Turns every error into problem+json; unexpected ones become a 500 that names no detail
/// (the log line gets the error's type, never its values).
struct ProblemMiddleware: RouterMiddleware {
    typealias Context = HealthRequestContext
    /// Every route, as `METHOD /path`, for the `Allow` header of a 405.
    let routes: [String]

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            return try problem.response(from: request, context: context)
        } catch let problem as OAuthProblem {
            return try problem.response(from: request, context: context)
        } catch let error as DecodingError {
            return try Problem.decoding(error).response(from: request, context: context)
        } catch let error as WireFieldError {
            return try Problem.unprocessable(error.reason, pointer: error.pointer).response(from: request, context: context)
        } catch let error as StoreBusyError {
            // A write that deadlocked or failed to serialize on every try: nothing was
            // written, and the same request shortly after will do (issue 32, P1).
            var problem = Problem(.serviceUnavailable, "Store busy", detail: error.description)
            problem.headers[.retryAfter] = String(error.retryAfter)
            return try problem.response(from: request, context: context)
        } catch let error as InvalidUserID {
            return try Problem(.badRequest, "Bad user", detail: error.description).response(from: request, context: context)
        } catch let error as HTTPError {
            let problem: Problem
            switch error.status {
            case .contentTooLarge:
                problem = Problem(.contentTooLarge, "Body too large", detail: "the body is larger than this server accepts")
            case .notFound:
                let allowed = allowedMethods(forPath: request.uri.path, among: routes)
                if allowed.isEmpty {
                    problem = Problem(.notFound, "Not found", detail: "no route \(request.method) \(request.uri.path)")
                } else {
                    var notAllowed = Problem(
                        .methodNotAllowed, "Method not allowed",
                        detail: "\(request.uri.path) answers \(allowed.joined(separator: ", ")), not \(request.method)")
                    notAllowed.headers[.allow] = allowed.joined(separator: ", ")
                    problem = notAllowed
                }
            default:
                problem = Problem(error.status, error.status.reasonPhrase, detail: error.body ?? error.status.reasonPhrase)
            }
            return try problem.response(from: request, context: context)
        } catch {
            context.logger.error("request failed", metadata: ["error.type": "\(type(of: error))"])
            return try Problem(.internalServerError, "Internal error", detail: "the server failed; the request changed nothing")
                .response(from: request, context: context)
        }
    }
}

/// `Strict-Transport-Security: max-age=31536000` (a year) on every answer, errors included,
/// of a server reached over HTTPS (``ServerConfiguration/servesHTTPS``): its own TLS, or a
/// TLS-terminating proxy at an `https` public URL. Browsers then refuse plain HTTP to the
/// host for a year, so a session cookie is never offered over it. Added first, outside
/// ``ProblemMiddleware``, so that its problem answers carry the header too.
struct StrictTransportSecurityMiddleware: RouterMiddleware {
    typealias Context = HealthRequestContext
    static let value = "max-age=31536000"

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        var response = try await next(request, context)
        response.headers[.strictTransportSecurity] = Self.value
        return response
    }
}

/// The methods `path` has a route for among `routes` (`{name}` matches one segment), for a
/// 405's `Allow` header.
func allowedMethods(forPath path: String, among routes: [String]) -> [String] {
    let segments = path.split(separator: "/", omittingEmptySubsequences: false)
    var methods: [String] = []
    for route in routes {
        let parts = route.split(separator: " ", maxSplits: 1)
        let pattern = parts[1].split(separator: "/", omittingEmptySubsequences: false)
        guard pattern.count == segments.count,
            zip(pattern, segments).allSatisfy({ $0.hasPrefix("{") ? !$1.isEmpty : $0 == $1 })
        else { continue }
        methods.append(String(parts[0]))
        // The router answers HEAD wherever it answers GET (autoGenerateHeadEndpoints).
        if parts[0] == "GET" { methods.append("HEAD") }
    }
    return methods
}

/// Bearer authentication for `/v1` and `/mcp`: a missing, malformed, unknown or revoked
/// token is a 401 with `WWW-Authenticate` (RFC 6750); the scheme is case-insensitive
/// (RFC 9110 §11.1). A peer that presented `failures.limit` wrong tokens this minute gets
/// 429 instead of 401 for the next wrong one until the minute ends — a right token always
/// passes, so guessing from one address (behind a proxy, everyone's) locks nobody out.
///
/// With ``oauth`` (the MCP endpoint) an OAuth access token (`hpa_…`) of the endpoint's
/// resource authenticates too, and every 401 names the resource's metadata
/// (`resource_metadata`, RFC 9728 §5.1) so that a remote client can find how to get one.
/// Elsewhere an access token is refused: it is bound to the MCP endpoint (RFC 8707).
struct BearerAuthMiddleware: RouterMiddleware {
    typealias Context = HealthRequestContext
    let users: any UserRepository
    let failures: RateLimiter
    let clock: @Sendable () -> Date
    /// The access tokens this route accepts, and the resource of a request (`nil`: none).
    var oauth: (repository: any OAuthRepository, endpoints: @Sendable (Request) -> OAuthEndpoints)?

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        let endpoints = oauth.map { $0.endpoints(request) }
        func challenge(_ error: String?) -> String {
            var challenge = #"Bearer realm="healthpipe""#
            if let endpoints { challenge += #", resource_metadata=""# + endpoints.resourceMetadata + #"""# }
            if let error { challenge += #", error=""# + error + #"""# }
            return challenge
        }
        guard let header = request.headers[.authorization] else {
            var problem = Problem.unauthorized("send Authorization: Bearer <token> (hp_…)")
            problem.headers[.wwwAuthenticate] = challenge(nil)
            throw problem
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        let token =
            parts.count == 2 && parts[0].lowercased() == "bearer"
            ? BearerToken(parts[1].trimmingCharacters(in: .whitespaces)) : nil
        var found: User?
        var consent = ReadConsent.notRead
        var detail = token == nil ? "send Authorization: Bearer <token> (hp_…)" : "the token is unknown or revoked"
        switch token?.kind {
        case .api:
            if let (user, read) = try await users.authenticateWithConsent(token!) { (found, consent) = (user, read) }
        case .access:
            if let oauth, let endpoints,
                let (user, resource) = try await oauth.repository.authenticateAccess(token!, now: clock())
            {
                if resource == endpoints.resource { found = user } else { detail = "the access token is for \(resource)" }
            } else if oauth == nil {
                detail = "an OAuth access token is for the MCP endpoint (/mcp) only"
            } else {
                detail = "the access token is unknown, expired or revoked"
            }
        case .refresh: detail = "a refresh token is for the token endpoint only (/oauth/token)"
        case nil: break
        }
        guard let user = found else {
            let peer = "bearer " + (context.remoteAddress ?? "unknown")
            if let wait = await failures.admit(peer, now: clock()) { throw Problem.tooManyFailures(retryAfter: wait) }
            var problem = Problem.unauthorized(detail)
            problem.headers[.wwwAuthenticate] = challenge("invalid_token")
            throw problem
        }
        var context = context
        context.user = user
        context.consent = consent
        context.logger[metadataKey: "user"] = "\(user.id)"
        return try await next(request, context)
    }
}

/// A fixed-window rate limit per user: `limit` requests a minute, then 429 with
/// `Retry-After`.
actor RateLimiter {
    let limit: Int
    private var windows: [String: (minute: Int, count: Int)] = [:]

    init(limit: Int) { self.limit = limit }

    /// Seconds to wait, or `nil` when the request may go ahead; `limit` overrides the
    /// limiter's own for this key.
    func admit(_ key: String, now: Date = Date(), limit: Int? = nil) -> Int? {
        let limit = limit ?? self.limit
        let minute = Int(now.timeIntervalSince1970 / 60)
        var window = windows[key] ?? (minute, 0)
        if window.minute != minute { window = (minute, 0) }
        guard window.count < limit else { return 60 - Int(now.timeIntervalSince1970) % 60 }
        window.count += 1
        windows[key] = window
        // Windows of past minutes are forgotten once there are many (one per peer or token).
        if windows.count > 10_000 { windows = windows.filter { $0.value.minute == minute } }
        return nil
    }
}

struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = HealthRequestContext
    let limiter: RateLimiter
    let clock: @Sendable () -> Date

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        if let user = context.user, let wait = await limiter.admit(user.token.id, now: clock()) {
            var problem = Problem(
                .tooManyRequests, "Too many requests",
                detail: "this token may make \(limiter.limit) requests a minute; retry after \(wait) s")
            problem.headers[.retryAfter] = String(wait)
            throw problem
        }
        return try await next(request, context)
    }
}

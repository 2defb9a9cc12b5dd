import HealthServerRecords
import Hummingbird

/// What the server's contexts share: its JSON coders (``HealthRequestDecoder``,
/// ``HealthResponseEncoder``) and a body limit, set by ``BodyLimitMiddleware``: the
/// server's ``ServerConfiguration/maxBodyBytes`` unless a route collection sets another.
public protocol HealthServerContext: RequestContext
where Decoder == HealthRequestDecoder, Encoder == HealthResponseEncoder {
    /// The largest JSON body, in bytes, the route decodes (larger: 413).
    var maxUploadSize: Int { get set }
}

/// The request context of every route: the authenticated user, once the bearer middleware
/// has found one. The `/v1` and `/mcp` handlers see an ``AuthenticatedContext`` instead.
public struct HealthRequestContext: HealthServerContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by ``BodyLimitMiddleware`` at the router's root.
    public var maxUploadSize = ServerConfiguration.defaultMaxBodyBytes
    /// JSON bodies as every route reads them.
    public var requestDecoder: HealthRequestDecoder { HealthRequestDecoder() }
    /// JSON answers as every route writes them.
    public var responseEncoder: HealthResponseEncoder { HealthResponseEncoder() }
    /// Set by the bearer middleware; read by the rate limit and by ``AuthenticatedContext``.
    public var user: User?
    /// The user's consent when the bearer middleware read it with the token.
    public var consent = ReadConsent.notRead
    /// The peer's IP address, for limits on failed sign-ins (`nil` in router tests).
    public let remoteAddress: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress
    }
}

/// The context of a request whose bearer token has been checked (`/v1`, `/mcp`): its user
/// is known, so no handler holds an optional or checks for one. Made from the parent context
/// by the router group; without a user (a route mounted without the bearer middleware) the
/// request is a 401.
public struct AuthenticatedContext: ChildRequestContext, HealthServerContext {
    public var coreContext: CoreRequestContextStorage
    public let user: User
    /// The user's consent when it was read with the token (``HealthRoutes/readAccess(_:)``).
    public let consent: ReadConsent
    /// The parent's, unless the route's collection sets another (``BodyLimitMiddleware``).
    public var maxUploadSize: Int
    /// JSON bodies as every route reads them.
    public var requestDecoder: HealthRequestDecoder { HealthRequestDecoder() }
    /// JSON answers as every route writes them.
    public var responseEncoder: HealthResponseEncoder { HealthResponseEncoder() }

    public init(context: HealthRequestContext) throws {
        guard let user = context.user else { throw Problem.unauthorized("send Authorization: Bearer <token>") }
        self.coreContext = context.coreContext
        self.user = user
        self.consent = context.consent
        self.maxUploadSize = context.maxUploadSize
    }

    /// The user, when the token has `scope`; else a 403 that names the scope.
    func require(_ scope: Scope) throws -> User {
        guard user.scopes.contains(scope) else {
            throw Problem(
                .forbidden, "Forbidden", detail: "this token lacks the '\(scope.rawValue)' scope; ask for a token with it")
        }
        return user
    }

    /// The user with `scope`, when the owner's own token authenticated: what only the person
    /// does (deleting the account, enrolling devices) is a 403 for a scoped token, saying so.
    func requireOwner(_ scope: Scope, to action: String) throws -> User {
        guard user.isOwner else {
            throw Problem(
                .forbidden, "Forbidden",
                detail: "only \(user.name)'s own token may \(action); this is the scoped token '\(user.token.name)'")
        }
        return try require(scope)
    }
}

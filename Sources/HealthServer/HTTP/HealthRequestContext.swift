import Hummingbird

/// The request context of every route: the authenticated user, once the bearer middleware
/// has found one.
public struct HealthRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var user: User?
    /// The peer's IP address, for limits on failed sign-ins (`nil` in router tests).
    public let remoteAddress: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress
    }

    /// The user, or a 401 (the middleware guarantees one on `/v1`).
    func requireUser(_ scope: Scope) throws -> User {
        guard let user else {
            throw Problem.unauthorized("send Authorization: Bearer <token>")
        }
        guard user.scopes.contains(scope) else {
            throw Problem(
                .forbidden, "Forbidden", detail: "this token lacks the '\(scope.rawValue)' scope; ask for a token with it")
        }
        return user
    }

    /// The user with `scope`, when the owner's own token authenticated: what only the person
    /// does (deleting the account, enrolling devices) is a 403 for a scoped token, saying so.
    func requireOwner(_ scope: Scope, to action: String) throws -> User {
        if let user, !user.isOwner {
            throw Problem(
                .forbidden, "Forbidden",
                detail: "only \(user.name)'s own token may \(action); this is the scoped token '\(user.token.name)'")
        }
        return try requireUser(scope)
    }
}

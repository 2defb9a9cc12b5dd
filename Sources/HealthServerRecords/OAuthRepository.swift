import Foundation
import HealthCore

/// The server's OAuth 2.1 authorization server for remote MCP clients (docs/oauth.md):
/// clients registered by RFC 7591, authorization codes with PKCE, and the access and
/// refresh tokens handed out for them. Only SHA-256 hashes of codes and tokens are stored.
///
/// What a client may read is a **grant**: a read-only token of the person's
/// (``APIToken``, role `connected`) made when a code is redeemed, listed and revoked with
/// their scoped tokens. Its own secret is never handed out; its access tokens
/// authenticate as it, so revoking it — from the dashboard's token page, by a replayed code
/// or a reused refresh token — ends every token of the grant at once, and what it reads
/// is limited by the person's consent as every scoped token's is.
public protocol OAuthRepository: Sendable {
    /// Registers `client`. Clients never used for a day, and clients without a token left
    /// that were last used 30 days ago, are forgotten first; with `limit` clients registered
    /// still, throws ``OAuthError/tooManyClients``.
    func registerClient(_ client: OAuthClient, limit: Int, now: Date) async throws
    /// The registered client `id`, or `nil`.
    func registeredClient(id: String) async throws -> OAuthClient?
    /// Stores an authorization code (its hash) the person approved; codes expired a day
    /// ago are forgotten.
    func saveCode(_ code: OAuthCode, now: Date) async throws
    /// The code with this hash, used or not, or `nil`.
    func code(hash: Data) async throws -> OAuthCode?
    /// Redeems the unused code `hash` in one transaction: marks it used, makes its grant
    /// (a read-only connected token named `grantName`, of the code's kinds) and stores `tokens`
    /// for it. `nil` when the code was used already — then the grant made from it, if any,
    /// is revoked (RFC 9700 §4.2.1: a replayed code ends what it gave) — or its user is gone.
    func redeemCode(hash: Data, grantName: String, tokens: OAuthTokenPair, now: Date) async throws -> APIToken?
    /// Rotates the refresh token `token` of `clientID` for `resource`: marks it used and
    /// stores `tokens` for the same grant. A refresh token used already revokes its grant
    /// (``OAuthRefresh/reused``); an unknown, expired, revoked or mismatched one is ``OAuthRefresh/invalid``.
    func refresh(
        _ token: BearerToken, clientID: String, resource: String, with tokens: OAuthTokenPair, now: Date
    ) async throws -> OAuthRefresh
    /// The live user an unexpired access token belongs to, carrying its grant, with the
    /// resource the token is for; `nil` when the token is unknown, expired, or its grant
    /// or user revoked.
    func authenticateAccess(_ token: BearerToken, now: Date) async throws -> (user: User, resource: String)?
    /// RFC 7009: a refresh token of `clientID` revokes its grant; an access token of
    /// `clientID` ends. Anything else changes nothing.
    func revokeOAuthToken(_ token: BearerToken, clientID: String) async throws
}

/// A client registered by RFC 7591: public (no secret; PKCE proves it), with the redirect
/// URIs it may be sent back to, compared exactly.
public struct OAuthClient: Sendable, Hashable, Codable {
    public var id: String
    /// `client_name`, shown on the consent page and in the grant's name.
    public var name: String
    public var redirectURIs: [String]
    public var createdAt: Date

    public init(id: String, name: String, redirectURIs: [String], createdAt: Date) {
        self.id = id
        self.name = name
        self.redirectURIs = redirectURIs
        self.createdAt = createdAt
    }
}

/// An authorization code as stored: its hash and what it was approved for.
public struct OAuthCode: Sendable, Hashable {
    /// SHA-256 of the code.
    public var hash: Data
    public var clientID: String
    public var userID: String
    public var redirectURI: String
    /// The PKCE `code_challenge` (S256).
    public var challenge: String
    /// The resource (RFC 8707) the tokens will be for.
    public var resource: String
    /// The kinds the person chose for the client.
    public var kinds: Set<HealthDataCategory>
    public var expiresAt: Date
    /// When it was redeemed; `nil` while unused.
    public var usedAt: Date?

    public init(
        hash: Data, clientID: String, userID: String, redirectURI: String, challenge: String, resource: String,
        kinds: Set<HealthDataCategory>, expiresAt: Date, usedAt: Date? = nil
    ) {
        self.hash = hash
        self.clientID = clientID
        self.userID = userID
        self.redirectURI = redirectURI
        self.challenge = challenge
        self.resource = resource
        self.kinds = kinds
        self.expiresAt = expiresAt
        self.usedAt = usedAt
    }
}

/// An access token and a refresh token to store (hashed) and hand out once.
public struct OAuthTokenPair: Sendable {
    public var access: BearerToken
    public var refresh: BearerToken
    public var clientID: String
    public var resource: String
    public var accessExpiresAt: Date
    public var refreshExpiresAt: Date

    /// New random tokens of `clientID` for `resource`, living `accessLifetime` and
    /// `refreshLifetime` from `now`.
    public static func generate(
        clientID: String, resource: String, now: Date, accessLifetime: TimeInterval, refreshLifetime: TimeInterval
    ) -> OAuthTokenPair {
        OAuthTokenPair(
            access: .generate(.access), refresh: .generate(.refresh), clientID: clientID, resource: resource,
            accessExpiresAt: now.addingTimeInterval(accessLifetime), refreshExpiresAt: now.addingTimeInterval(refreshLifetime))
    }
}

/// What a refresh did.
public enum OAuthRefresh: Sendable, Equatable {
    /// The token was rotated: the new pair is stored, for this grant.
    case rotated(grant: APIToken)
    /// Unknown, expired, revoked, or of another client or resource: nothing changed.
    case invalid
    /// Used before: its grant, and with it every token of it, is revoked.
    case reused
}

/// Why the authorization server refused to store something.
public enum OAuthError: Error, CustomStringConvertible, Equatable {
    case tooManyClients

    public var description: String {
        switch self {
        case .tooManyClients: "this server has as many registered OAuth clients as it keeps; try again tomorrow"
        }
    }
}

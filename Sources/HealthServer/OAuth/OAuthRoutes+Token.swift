import Foundation
import HealthCore
import HealthServerRecords
import Hummingbird

/// The token endpoint (OAuth 2.1 §3.2) and revocation (RFC 7009).
extension OAuthRoutes {
    /// `grant_type=authorization_code` (with `code_verifier`) or `refresh_token`: an access
    /// token for the MCP endpoint and a new refresh token, or an RFC 6749 §5.2 error.
    func token(_ request: Request) async throws -> Response {
        let form = try await oauthForm(request)
        switch form["grant_type"] {
        case "authorization_code": return try await redeem(form, request)
        case "refresh_token": return try await refresh(form, request)
        case nil: throw OAuthProblem.invalidRequest("grant_type is required: authorization_code or refresh_token")
        default:
            throw OAuthProblem("unsupported_grant_type", "grant_type must be authorization_code or refresh_token")
        }
    }

    private func redeem(_ form: [String: String], _ request: Request) async throws -> Response {
        let (clientID, code, redirectURI, verifier) = try (
            required("client_id", form), required("code", form), required("redirect_uri", form),
            required("code_verifier", form)
        )
        let client = try await knownClient(clientID)
        let hash = WebRoutes.hash(code)
        guard let stored = try await repositories.oauth.code(hash: hash), stored.clientID == clientID else {
            throw OAuthProblem.invalidGrant("the code is unknown, or was issued to another client")
        }
        let now = configuration.clock()
        guard stored.redirectURI == redirectURI else {
            throw OAuthProblem.invalidGrant("redirect_uri is not the one the code was issued for")
        }
        // The verifier before the replay check: a code seen in a browser's history or a log
        // cannot end the connection it made without the verifier that goes with it.
        guard PKCE.verify(verifier, challenge: stored.challenge) else {
            throw OAuthProblem.invalidGrant("code_verifier does not match the code_challenge (PKCE S256)")
        }
        if stored.usedAt != nil {
            // Redeeming it again revokes what the first redemption gave.
            _ = try await repositories.oauth.redeemCode(hash: hash, grantName: "", tokens: pair(stored, now), now: now)
            throw OAuthProblem.invalidGrant("the code was used already; the access it gave is revoked — authorize again")
        }
        // After the replay check: a used code replayed after its five minutes still ends what it gave.
        guard stored.expiresAt > now else { throw OAuthProblem.invalidGrant("the code expired; authorize again") }
        let endpoints = endpoints(request)
        if let resource = form["resource"], !endpoints.isResource(resource) || stored.resource != endpoints.resource {
            throw OAuthProblem("invalid_target", "resource must be the MCP endpoint the code was issued for, \(stored.resource)")
        }
        let tokens = pair(stored, now)
        guard
            let grant = try await repositories.oauth.redeemCode(
                hash: hash, grantName: Self.grantName(client.name), tokens: tokens, now: now)
        else { throw OAuthProblem.invalidGrant("the code was used already, or its person is gone; authorize again") }
        return issued(tokens, kinds: grant.readTypes, now: now)
    }

    private func refresh(_ form: [String: String], _ request: Request) async throws -> Response {
        let (clientID, text) = try (required("client_id", form), required("refresh_token", form))
        try await knownClient(clientID)
        let resource = endpoints(request).resource
        if let given = form["resource"], !endpoints(request).isResource(given) {
            throw OAuthProblem("invalid_target", "resource must be this server's MCP endpoint, \(resource)")
        }
        guard let token = BearerToken(text, kind: .refresh) else {
            throw OAuthProblem.invalidGrant("refresh_token is not one of this server's refresh tokens")
        }
        let now = configuration.clock()
        let tokens = OAuthTokenPair.generate(
            clientID: clientID, resource: resource, now: now, accessLifetime: configuration.oauth.accessTokenLifetime,
            refreshLifetime: configuration.oauth.refreshTokenLifetime)
        switch try await repositories.oauth.refresh(token, clientID: clientID, resource: resource, with: tokens, now: now) {
        case .rotated(let grant):
            return issued(tokens, kinds: grant.readTypes, now: now)
        case .invalid:
            throw OAuthProblem.invalidGrant("the refresh token is unknown, expired, revoked, or another client's")
        case .reused:
            throw OAuthProblem.invalidGrant(
                "the refresh token was used already; every token of this connection is revoked — authorize again")
        }
    }

    /// RFC 7009: revokes a refresh token (and the whole connection with it) or an access
    /// token of the client. Answers 200 whether or not the token was known.
    func revoke(_ request: Request) async throws -> Response {
        let form = try await oauthForm(request)
        let (clientID, text) = try (required("client_id", form), required("token", form))
        try await knownClient(clientID)
        if let token = BearerToken(text), token.kind != .api {
            try await repositories.oauth.revokeOAuthToken(token, clientID: clientID)
        }
        return Response(status: .ok, headers: Self.jsonHeaders)
    }

    // MARK: Pieces

    private func issued(_ tokens: OAuthTokenPair, kinds: Set<HealthDataCategory>?, now: Date) -> Response {
        json([
            "access_token": tokens.access.text, "token_type": "Bearer",
            "expires_in": Int(tokens.accessExpiresAt.timeIntervalSince(now).rounded()),
            "refresh_token": tokens.refresh.text, "scope": OAuthScope.granted(kinds),
        ])
    }

    private func pair(_ code: OAuthCode, _ now: Date) -> OAuthTokenPair {
        OAuthTokenPair.generate(
            clientID: code.clientID, resource: code.resource, now: now,
            accessLifetime: configuration.oauth.accessTokenLifetime, refreshLifetime: configuration.oauth.refreshTokenLifetime)
    }

    /// The registered client `id`, or `invalid_client`.
    @discardableResult
    private func knownClient(_ id: String) async throws -> OAuthClient {
        guard id.utf8.count <= 64, let client = try await repositories.oauth.registeredClient(id: id) else {
            throw OAuthProblem.invalidClient("client_id is not a registered client; register at /oauth/register")
        }
        return client
    }

    private func required(_ name: String, _ form: [String: String]) throws -> String {
        guard let value = form[name], !value.isEmpty else { throw OAuthProblem.invalidRequest("\(name) is required") }
        return value
    }

    /// The form of a token or revocation request; a body that is not one, or that gives a
    /// parameter twice (OAuth 2.1 §3.2), is `invalid_request`.
    private func oauthForm(_ request: Request) async throws -> [String: String] {
        let pairs: [(String, String)]
        do {
            pairs = try await WebRoutes.formPairs(request)
        } catch let problem as Problem {
            throw OAuthProblem("invalid_request", problem.detail, status: problem.status)
        }
        var form: [String: String] = [:]
        for (name, value) in pairs {
            guard form.updateValue(value, forKey: name) == nil else {
                throw OAuthProblem.invalidRequest("\(name) is given more than once")
            }
        }
        return form
    }

    /// The name of an app's grant on the token page: `mcp-<client name>-<8 hex>` (a person
    /// would need tens of thousands of live connections of one app for two to meet).
    static func grantName(_ clientName: String) -> String {
        let cleaned = String(
            clientName.unicodeScalars.map { scalar in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar))
                    ? Character(scalar) : "-"
            }
        ).prefix(40)
        return "mcp-\(cleaned)-" + String(format: "%08x", UInt32.random(in: 0...UInt32.max))
    }
}

import Foundation
import HealthCore
import HealthServerRecords
import Hummingbird
import NIOCore

/// An error of the token, registration or revocation endpoint, answered as RFC 6749 §5.2
/// and RFC 7591 §3.2.2 say: `{"error": …, "error_description": …}`, never cached.
struct OAuthProblem: Error, HTTPResponseError, Sendable {
    var status: HTTPResponse.Status
    /// The RFC's error code (`invalid_grant`, `invalid_redirect_uri`, …).
    var error: String
    var description: String

    init(_ error: String, _ description: String, status: HTTPResponse.Status = .badRequest) {
        self.status = status
        self.error = error
        self.description = description
    }

    static func invalidRequest(_ description: String) -> OAuthProblem { OAuthProblem("invalid_request", description) }
    static func invalidGrant(_ description: String) -> OAuthProblem { OAuthProblem("invalid_grant", description) }

    static func invalidClient(_ description: String) -> OAuthProblem {
        OAuthProblem("invalid_client", description, status: .unauthorized)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = try JSONSerialization.data(
            withJSONObject: ["error": error, "error_description": description], options: [.sortedKeys, .withoutEscapingSlashes])
        return Response(status: status, headers: OAuthRoutes.jsonHeaders, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// A request to the authorization endpoint, checked (OAuth 2.1 §4.1.1, RFC 7636, RFC 8707).
struct AuthorizationRequest: Sendable {
    let client: OAuthClient
    let redirectURI: String
    let state: String?
    let challenge: String
    let resource: String
    /// The kinds the client's scope named (`nil`: it named none).
    let requestedKinds: Set<HealthDataCategory>?
    /// The parameters as the client sent them, carried through the consent form.
    let parameters: [(name: String, value: String)]

    /// The parameters of the authorization request the consent form posts back.
    static let names = [
        "response_type", "client_id", "redirect_uri", "state", "code_challenge", "code_challenge_method", "resource", "scope",
    ]

    /// Why a request was refused.
    enum Refusal: Error {
        /// The client or redirect URI cannot be trusted: said on a page, never redirected to.
        case page(String)
        /// Sent back to the client's redirect URI as `error` and `error_description`: only the
        /// person's own refusal (`access_denied`).
        case redirect(to: String, error: String, description: String, state: String?)

        /// Where the browser goes, or the page it sees.
        var location: String? {
            guard case .redirect(let uri, let error, let description, let state) = self else { return nil }
            var items = [("error", error), ("error_description", description)]
            if let state { items.append(("state", state)) }
            return AuthorizationRequest.append(items, to: uri)
        }
    }

    /// Checks `parameters` (each at most once) against the registered clients: the client
    /// and redirect URI first, then the rest. Every refusal is a page of this server's, so
    /// that no one can send a person's browser elsewhere through it.
    static func parse(
        _ parameters: [(String, String)], endpoints: OAuthEndpoints, clients: any OAuthRepository
    ) async throws -> AuthorizationRequest {
        var values: [String: String] = [:]
        var repeated: String?
        for (name, value) in parameters {
            if values[name] != nil { repeated = name }
            values[name] = value
        }
        guard repeated == nil || !["client_id", "redirect_uri"].contains(repeated!) else {
            throw Refusal.page("\(repeated!) is given more than once")
        }
        guard let clientID = values["client_id"], !clientID.isEmpty else {
            throw Refusal.page("the request names no client_id")
        }
        guard clientID.utf8.count <= 64, let client = try await clients.registeredClient(id: clientID) else {
            throw Refusal.page("no client is registered as this client_id; the app must register again (/oauth/register)")
        }
        let redirectURI: String
        if let given = values["redirect_uri"] {
            guard client.redirectURIs.contains(given) else {
                throw Refusal.page("redirect_uri is not one the client registered (they are compared exactly)")
            }
            redirectURI = given
        } else {
            guard client.redirectURIs.count == 1 else {
                throw Refusal.page("the client registered several redirect URIs, and the request names none")
            }
            redirectURI = client.redirectURIs[0]
        }
        let state = values["state"]
        // Refused on this server's page, with the RFC's error code, never sent on to the
        // client: anyone may register a client, so a redirect with an error would make this
        // server an open redirector to any registered URI (RFC 9700 §4.11.2). Only the
        // person's own "Don't allow" goes back to the client.
        func refuse(_ error: String, _ description: String) -> Refusal {
            .page("\(description) (\(error))")
        }
        if let repeated { throw refuse("invalid_request", "\(repeated) is given more than once") }
        guard values["response_type"] == "code" else {
            throw refuse(
                "unsupported_response_type",
                "response_type must be code: the authorization code flow with PKCE is the only one (no implicit flow)")
        }
        guard let challenge = values["code_challenge"], PKCE.isWellFormed(challenge) else {
            throw refuse("invalid_request", "code_challenge is required: 43–128 characters of PKCE (S256)")
        }
        guard values["code_challenge_method"] == "S256" else {
            throw refuse("invalid_request", "code_challenge_method must be S256 (plain is not accepted)")
        }
        var resource = endpoints.resource
        if let given = values["resource"] {
            guard endpoints.isResource(given) else {
                throw refuse("invalid_target", "resource must be this server's MCP endpoint, \(endpoints.resource)")
            }
            resource = endpoints.resource
        }
        let kinds: Set<HealthDataCategory>?
        do {
            kinds = try OAuthScope.kinds(in: values["scope"])
        } catch let unknown as OAuthScope.UnknownKind {
            throw refuse(
                "invalid_scope",
                "read:\(unknown.name) names no kind of data; the kinds are \(HealthDataCategory.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        if let state, state.utf8.count > 1024 { throw refuse("invalid_request", "state is longer than 1,024 bytes") }
        return AuthorizationRequest(
            client: client, redirectURI: redirectURI, state: state, challenge: challenge, resource: resource,
            requestedKinds: kinds, parameters: names.compactMap { name in values[name].map { (name, $0) } })
    }

    /// `uri` with `items` added to its query.
    static func append(_ items: [(String, String)], to uri: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#")
        let query = items.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
        return uri + (uri.contains("?") ? "&" : "?") + query
    }
}

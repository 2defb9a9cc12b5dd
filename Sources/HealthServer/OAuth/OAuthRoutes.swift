import Foundation
import HealthCore
import HealthDashboard
import HealthServerRecords
import Hummingbird
import NIOCore

/// The OAuth 2.1 authorization server of remote MCP clients (docs/oauth.md), on the server
/// it protects: discovery (RFC 9728, RFC 8414), dynamic client registration (RFC 7591),
/// the authorization code flow with PKCE S256 only — the person signs in with their own
/// token and chooses on a consent page which kinds the app reads — and short-lived access
/// tokens bound to the MCP endpoint (RFC 8707), refresh tokens rotated at each use, and
/// revocation (RFC 7009, and from the dashboard's token page).
struct OAuthRoutes: Sendable {
    let configuration: ServerConfiguration
    let repositories: ServerRepositories
    /// The sign-in session, CSRF check and page helpers of the dashboard.
    let web: WebRoutes
    /// Registrations per address a minute.
    let registrations: RateLimiter

    /// Every route, as `METHOD /path`.
    static let routes = [
        "GET /.well-known/oauth-protected-resource", "GET /.well-known/oauth-protected-resource/mcp",
        "GET /.well-known/oauth-authorization-server", "POST /oauth/register", "GET /oauth/authorize",
        "POST /oauth/authorize", "POST /oauth/token", "POST /oauth/revoke",
    ]

    /// Headers of every JSON answer: never cached (tokens, RFC 6749 §5.1), readable from a
    /// browser-based client of any origin (no cookie is involved).
    static let jsonHeaders: HTTPFields = [
        .contentType: "application/json", .cacheControl: "no-store", .accessControlAllowOrigin: "*",
    ]

    func register(on router: Router<HealthRequestContext>) {
        for path in ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"] {
            router.get(RouterPath(path)) { request, _ in
                json(OAuthEndpoints(request, configuration: configuration).protectedResourceMetadata)
            }
        }
        router.get("/.well-known/oauth-authorization-server") { request, _ in
            json(OAuthEndpoints(request, configuration: configuration).authorizationServerMetadata)
        }
        // Browser-based clients ask first (CORS preflight) before they post JSON or forms.
        for path in Self.routes.map({ String($0.split(separator: " ")[1]) }) where path != "/oauth/authorize" {
            router.on(RouterPath(path), method: .options) { _, _ in
                Response(
                    status: .noContent,
                    headers: [
                        .accessControlAllowOrigin: "*", .accessControlAllowMethods: "GET, POST",
                        .accessControlAllowHeaders: "Content-Type, Authorization, MCP-Protocol-Version",
                        .accessControlMaxAge: "86400",
                    ])
            }
        }
        router.post("/oauth/register") { request, context in try await registerClient(request, peer: context.remoteAddress) }
        router.get("/oauth/authorize") { request, _ in try await authorizePage(request) }
        router.post("/oauth/authorize") { request, _ in try await decide(request) }
        router.post("/oauth/token") { request, _ in try await token(request) }
        router.post("/oauth/revoke") { request, _ in try await revoke(request) }
    }

    // MARK: Registration (RFC 7591)

    /// Registers a public client from its JSON metadata: `redirect_uris` (1–10, checked by
    /// ``RedirectURI``), an optional `client_name`, and grant and response types of the code
    /// flow only. Any `token_endpoint_auth_method` is registered as `none` (RFC 7591 §3.2.1
    /// lets the server choose): PKCE, not a secret, proves the client.
    func registerClient(_ request: Request, peer: String?) async throws -> Response {
        let now = configuration.clock()
        // Per address, and for the whole server: a flood from many addresses (or from the
        // browsers of a page's visitors) fills the kept clients no faster than unused ones are
        // forgotten (a day).
        var refused = await registrations.admit("register " + (peer ?? "unknown"), now: now)
        if refused == nil {
            refused = await registrations.admit("register", now: now, limit: configuration.oauth.registrationsPerMinuteInAll)
        }
        if let wait = refused {
            var problem = OAuthProblem("slow_down", "too many registrations from this address; retry after \(wait) s")
            problem.status = .tooManyRequests
            throw problem
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: 32 << 10)
        } catch is NIOTooManyBytesError {
            throw OAuthProblem("invalid_client_metadata", "the registration is at most 32 KB", status: .contentTooLarge)
        }
        guard let metadata = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any] else {
            throw OAuthProblem("invalid_client_metadata", "the body must be a JSON object of client metadata (RFC 7591)")
        }
        guard let uris = metadata["redirect_uris"] as? [String], (1...10).contains(uris.count) else {
            throw OAuthProblem("invalid_redirect_uri", "redirect_uris must be a list of 1 to 10 URIs")
        }
        for (index, uri) in uris.enumerated() {
            if let problem = RedirectURI.problem(uri) {
                throw OAuthProblem("invalid_redirect_uri", "redirect_uris[\(index)] \(problem)")
            }
        }
        let grants = metadata["grant_types"].map { $0 as? [String] } ?? ["authorization_code", "refresh_token"]
        guard let grants, !grants.isEmpty, Set(grants).isSubset(of: ["authorization_code", "refresh_token"]) else {
            throw OAuthProblem(
                "invalid_client_metadata", "grant_types may be authorization_code and refresh_token only (no implicit flow)")
        }
        let responses = metadata["response_types"].map { $0 as? [String] } ?? ["code"]
        guard let responses, responses == ["code"] else {
            throw OAuthProblem("invalid_client_metadata", "response_types must be [\"code\"] (no implicit flow)")
        }
        let name: String
        switch metadata["client_name"] {
        case nil: name = "MCP client"
        case let text as String
        where (1...100).contains(text.trimmingCharacters(in: .whitespacesAndNewlines).count)
            && !text.unicodeScalars.contains(where: Self.isHidden):
            name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        default:
            throw OAuthProblem(
                "invalid_client_metadata", "client_name must be 1 to 100 characters, without control or direction characters")
        }
        let client = OAuthClient(id: Secrets.randomBase64URL(bytes: 18), name: name, redirectURIs: uris, createdAt: now)
        do {
            try await repositories.oauth.registerClient(client, limit: configuration.oauth.maxClients, now: now)
        } catch let error as OAuthError {
            throw OAuthProblem("temporarily_unavailable", error.description, status: .serviceUnavailable)
        }
        var answer = json(
            [
                "client_id": client.id, "client_id_issued_at": Int(now.timeIntervalSince1970), "client_name": name,
                "redirect_uris": uris, "grant_types": grants, "response_types": ["code"],
                "token_endpoint_auth_method": "none",
            ] as [String: Any])
        answer.status = .created
        return answer
    }

    // MARK: Authorization (the person's consent)

    /// The consent page of a checked request; without a session, the sign-in page first,
    /// which comes back here. A request that cannot be trusted is refused on a page; any
    /// other refusal goes back to the client.
    func authorizePage(_ request: Request) async throws -> Response {
        let parsed: AuthorizationRequest
        do {
            parsed = try await authorizationRequest(request.uri.query ?? "", request)
        } catch let refusal as AuthorizationRequest.Refusal {
            return refused(refusal)
        }
        guard let session = try await web.session(request) else {
            let next = "/oauth/authorize?" + (request.uri.query ?? "")
            return web.redirect(AuthorizationRequest.append([("next", next)], to: "/login"))
        }
        return try await consentPage(parsed, session: session)
    }

    /// The answer of the consent page: "Don't allow" sends `access_denied` back; "Allow" with
    /// at least one kind stores a code for them and sends it back with the state and issuer.
    func decide(_ request: Request) async throws -> Response {
        let form = try await web.requireSessionForm(request)
        let carried = AuthorizationRequest.names.compactMap { name in form.form[name].map { (name, $0) } }
        let parsed: AuthorizationRequest
        do {
            parsed = try await AuthorizationRequest.parse(carried, endpoints: endpoints(request), clients: repositories.oauth)
        } catch let refusal as AuthorizationRequest.Refusal {
            return refused(refusal)
        }
        let session = WebRoutes.Session(id: form.id, user: form.user, csrf: form.csrf)
        switch form.form["decision"] {
        case "deny":
            return refused(
                .redirect(
                    to: parsed.redirectURI, error: "access_denied", description: "the person did not allow access",
                    state: parsed.state))
        case "allow":
            break
        default:
            throw Problem.badRequest("decision must be allow or deny")
        }
        let (offered, denied) = try await choices(for: form.user)
        let chosen = Set(offered.filter { form.form["read_" + $0.rawValue] == "on" })
        guard !chosen.isEmpty else {
            return try await consentPage(
                parsed, session: session, error: "Tick at least one kind the app may read, or choose Don't allow.",
                status: .unprocessableContent)
        }
        guard chosen.isDisjoint(with: denied) else {
            throw Problem.unprocessableQuery("a kind you do not allow on Your data cannot be given to an app")
        }
        let code = Secrets.randomBase64URL(bytes: 32)
        let now = configuration.clock()
        try await repositories.oauth.saveCode(
            OAuthCode(
                hash: WebRoutes.hash(code), clientID: parsed.client.id, userID: form.user.id,
                redirectURI: parsed.redirectURI, challenge: parsed.challenge, resource: parsed.resource, kinds: chosen,
                expiresAt: now.addingTimeInterval(configuration.oauth.codeLifetime)), now: now)
        var items = [("code", code)]
        if let state = parsed.state { items.append(("state", state)) }
        items.append(("iss", endpoints(request).issuer))
        return web.redirect(AuthorizationRequest.append(items, to: parsed.redirectURI))
    }

    private func consentPage(
        _ parsed: AuthorizationRequest, session: WebRoutes.Session, error: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let (offered, denied) = try await choices(for: session.user)
        // The whole URI: for an app's own scheme the host part means nothing, the scheme does.
        let host = parsed.redirectURI.count <= 200 ? parsed.redirectURI : String(parsed.redirectURI.prefix(200)) + "…"
        var response = web.page(
            AccessPages.authorize(
                clientName: parsed.client.name, redirectHost: host, offered: offered,
                ticked: (parsed.requestedKinds ?? offered).subtracting(denied), denied: denied,
                carried: parsed.parameters, csrf: session.csrf, error: error),
            status: status)
        // The form's answer sends the browser on to the client: its origin may be a form action.
        if let source = RedirectURI.formActionSource(parsed.redirectURI) {
            response.headers[.contentSecurityPolicy] =
                "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self' \(source); "
                + "frame-ancestors 'none'"
        }
        return response
    }

    /// The kinds the person may give an app (those their own token reads) and, among them,
    /// the ones they deny on the consent page.
    private func choices(for user: User) async throws -> (offered: Set<HealthDataCategory>, denied: Set<HealthDataCategory>) {
        let offered = user.dataTypes ?? Set(HealthDataCategory.allCases)
        let consent = try await repositories.web.consent(userID: user.id)
        return (offered, offered.intersection(consent?.denied ?? []))
    }

    private func authorizationRequest(_ query: String, _ request: Request) async throws -> AuthorizationRequest {
        guard let pairs = WebRoutes.urlEncodedPairs(query) else {
            throw AuthorizationRequest.Refusal.page("the request's query is not valid URL encoding")
        }
        return try await AuthorizationRequest.parse(pairs, endpoints: endpoints(request), clients: repositories.oauth)
    }

    /// A refusal: the page (400), or the client's redirect URI with the error.
    private func refused(_ refusal: AuthorizationRequest.Refusal) -> Response {
        if let location = refusal.location { return web.redirect(location) }
        guard case .page(let reason) = refusal else { return web.redirect("/dashboard") }
        return web.page(AccessPages.authorizeRefused(reason), status: .badRequest)
    }

    /// Control characters and the ones that turn text's direction (a name shown to the person).
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || (0x202A...0x202E).contains(scalar.value)
            || (0x2066...0x2069).contains(scalar.value) || scalar.value == 0x200E || scalar.value == 0x200F
    }

    func endpoints(_ request: Request) -> OAuthEndpoints { OAuthEndpoints(request, configuration: configuration) }

    /// `object` as a JSON answer with ``jsonHeaders``.
    func json(_ object: [String: Any]) -> Response {
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return Response(status: .ok, headers: Self.jsonHeaders, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

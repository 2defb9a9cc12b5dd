import Foundation
import HealthCore
import HealthServerRecords
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HealthServer

/// Issue 36 §1: a remote MCP client connects with OAuth 2.1 — discovery, registration,
/// the person's consent through their own session, PKCE, tokens bound to `/mcp`, rotation
/// and revocation — and is refused clearly at every step that is not right.
@Suite struct I36OAuthTests {
    /// A PKCE pair computed outside the code under test (Python's hashlib).
    static let verifier = "healthpipe-test-verifier-0123456789-abcdefghijklmnop"
    static let challenge = "7RiV-bq6Zcb5How634XzuYDNLosDNVy569IWk9jS3d4"
    static let redirect = "http://127.0.0.1:33418/callback"

    /// A JSON answer's status and object.
    static func json(
        _ client: some TestClientProtocol, _ uri: String, method: HTTPRequest.Method = .get, form: [(String, String)]? = nil,
        json body: String? = nil
    ) async throws -> (HTTPResponse.Status, [String: Any]) {
        var headers: HTTPFields = [:]
        var buffer: ByteBuffer?
        if let form {
            headers[.contentType] = "application/x-www-form-urlencoded"
            buffer = ByteBuffer(string: encode(form))
        } else if let body {
            headers[.contentType] = "application/json"
            buffer = ByteBuffer(string: body)
        }
        return try await client.execute(uri: uri, method: method, headers: headers, body: buffer) { response in
            let object = (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any]
            return (response.status, object ?? [:])
        }
    }

    static func encode(_ fields: [(String, String)]) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        return fields.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: allowed)!)" }.joined(separator: "&")
    }

    /// Registers a client with the test's redirect URI; its id.
    static func register(_ client: some TestClientProtocol, name: String = "Test Coach") async throws -> String {
        let (status, answer) = try await json(
            client, "/oauth/register", method: .post,
            json: #"{"client_name": "\#(name)", "redirect_uris": ["\#(redirect)"], "token_endpoint_auth_method": "none"}"#)
        #expect(status == .created)
        #expect(answer["token_endpoint_auth_method"] as? String == "none")
        return try #require(answer["client_id"] as? String)
    }

    /// The authorization request's query.
    static func authorize(
        _ clientID: String, state: String = "st-1", resource: String? = nil, scope: String? = nil,
        extra: [(String, String)] = []
    ) -> String {
        var fields = [
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirect), ("state", state),
            ("code_challenge", challenge), ("code_challenge_method", "S256"),
        ]
        if let resource { fields.append(("resource", resource)) }
        if let scope { fields.append(("scope", scope)) }
        return "/oauth/authorize?" + encode(fields + extra)
    }

    /// Alice, signed in, allows `kinds` for the client: the code from the redirect.
    static func approve(
        _ browser: Browser, clientID: String, kinds: [HealthDataCategory], resource: String? = nil
    ) async throws -> String {
        let page = try await browser.get(authorize(clientID, resource: resource))
        #expect(page.status == .ok)
        var form = [
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirect), ("state", "st-1"),
            ("code_challenge", challenge), ("code_challenge_method", "S256"), ("decision", "allow"),
        ]
        if let resource { form.append(("resource", resource)) }
        form += kinds.map { ("read_" + $0.rawValue, "on") }
        let answer = try await browser.post("/oauth/authorize", form)
        #expect(answer.status == .seeOther)
        let location = try #require(answer.location.flatMap(URLComponents.init(string:)))
        #expect(location.path == "/callback")
        let items = Dictionary(uniqueKeysWithValues: (location.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(items["state"] == "st-1")
        #expect(items["iss"] == "http://localhost")
        return try #require(items["code"])
    }

    /// Redeems `code`.
    static func redeem(
        _ client: some TestClientProtocol, _ clientID: String, _ code: String, verifier: String = verifier,
        resource: String? = nil
    ) async throws -> (HTTPResponse.Status, [String: Any]) {
        var form = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirect), ("client_id", clientID),
            ("code_verifier", verifier),
        ]
        if let resource { form.append(("resource", resource)) }
        return try await json(client, "/oauth/token", method: .post, form: form)
    }

    static func refresh(
        _ client: some TestClientProtocol, _ clientID: String, _ token: String
    ) async throws -> (HTTPResponse.Status, [String: Any]) {
        try await json(
            client, "/oauth/token", method: .post,
            form: [("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", clientID)])
    }

    /// A tool call at /mcp with `token`: the status and body.
    static func call(
        _ harness: ServerHarness, _ client: some TestClientProtocol, token: String, tool: String = "get_daily_metrics",
        arguments: String = #"{"from": "2024-05-25", "to": "2024-06-01"}"#
    ) async throws -> (HTTPResponse.Status, String, String?) {
        let call =
            #"{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "\#(tool)", "arguments": \#(arguments)}}"#
        return try await client.execute(
            uri: "/mcp", method: .post, headers: harness.mcpHeaders(token), body: ByteBuffer(string: call)
        ) { response in (response.status, String(buffer: response.body), response.headers[.wwwAuthenticate]) }
    }

    @Test(arguments: ServerBackend.enabled) func i36_aRemoteClientConnectsWithOAuthAndReadsOnlyWhatThePersonChose(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await DashboardWebTests.harness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await DashboardWebTests.seed(harness, client, user: "alice", base: 5_000)
            // Without a token, /mcp names where to learn how to get one (RFC 9728 §5.1).
            let (status, _, challenge) = try await Self.call(harness, client, token: "")
            #expect(status == .unauthorized)
            let metadataURL = "http://localhost/.well-known/oauth-protected-resource/mcp"
            #expect(challenge?.contains(#"resource_metadata="\#(metadataURL)""#) == true)
            let (_, resource) = try await Self.json(client, "/.well-known/oauth-protected-resource/mcp")
            #expect(resource["resource"] as? String == "http://localhost/mcp")
            #expect(resource["authorization_servers"] as? [String] == ["http://localhost"])
            let (_, server) = try await Self.json(client, "/.well-known/oauth-authorization-server")
            #expect(server["issuer"] as? String == "http://localhost")
            #expect(server["code_challenge_methods_supported"] as? [String] == ["S256"])
            #expect(server["response_types_supported"] as? [String] == ["code"])
            #expect(server["registration_endpoint"] as? String == "http://localhost/oauth/register")

            let clientID = try await Self.register(client)
            // Not signed in: the sign-in page first, which comes back to the request.
            let browser = Browser(client)
            let request = Self.authorize(clientID, resource: "http://localhost/mcp")
            let toLogin = try await browser.get(request)
            #expect(toLogin.status == .seeOther)
            let next = try #require(
                toLogin.location.flatMap(URLComponents.init(string:))?.queryItems?.first { $0.name == "next" }?.value)
            #expect(next == request)
            let login = try await browser.get(try #require(toLogin.location))
            #expect(login.body.contains(#"name="next""#))
            let signedIn = try await browser.post("/login", [("token", harness.tokens["alice"]!), ("next", next)])
            #expect(signedIn.status == .seeOther && signedIn.location == request)
            let page = try await browser.get(request)
            #expect(page.body.contains("Test Coach") && page.body.contains("127.0.0.1"))
            let code = try await Self.approve(browser, clientID: clientID, kinds: [.steps], resource: "http://localhost/mcp")

            let (redeemed, tokens) = try await Self.redeem(client, clientID, code, resource: "http://localhost/mcp")
            #expect(redeemed == .ok)
            #expect(tokens["token_type"] as? String == "Bearer" && tokens["expires_in"] as? Int == 3600)
            #expect(tokens["scope"] as? String == "read:steps")
            let access = try #require(tokens["access_token"] as? String)
            let refreshToken = try #require(tokens["refresh_token"] as? String)
            #expect(access.hasPrefix("hpa_") && refreshToken.hasPrefix("hpr_"))

            // It reads steps at /mcp, and nothing the person did not choose.
            let (read, body, _) = try await Self.call(harness, client, token: access)
            #expect(read == .ok && body.contains("\(5_000 + 37 * 62)"), "\(body)")
            let (sleep, _, _) = try await Self.call(
                harness, client, token: access, tool: "get_sleep", arguments: #"{"date": "2024-06-01"}"#)
            #expect(sleep == .forbidden)
            // Bound to /mcp: the API refuses it, and a refresh token is no access token.
            try await client.execute(uri: M2ScopedTokenTests.steps, method: .get, headers: harness.headers(access)) {
                #expect($0.status == .unauthorized)
                #expect(String(buffer: $0.body).contains("MCP endpoint (/mcp) only"))
            }
            #expect(try await Self.call(harness, client, token: refreshToken).0 == .unauthorized)

            // Rotation: the refresh token gives a new pair once; used again, it ends the connection.
            let (rotated, renewed) = try await Self.refresh(client, clientID, refreshToken)
            #expect(rotated == .ok && renewed["scope"] as? String == "read:steps")
            let newAccess = try #require(renewed["access_token"] as? String)
            #expect(newAccess != access && renewed["refresh_token"] as? String != refreshToken)
            #expect(try await Self.call(harness, client, token: newAccess).0 == .ok)
            let (reused, why) = try await Self.refresh(client, clientID, refreshToken)
            #expect(reused == .badRequest && why["error"] as? String == "invalid_grant")
            #expect((why["error_description"] as? String)?.contains("used already") == true)
            #expect(try await Self.call(harness, client, token: newAccess).0 == .unauthorized)
            #expect(try await Self.call(harness, client, token: access).0 == .unauthorized)
        }
    }

    @Test(arguments: ServerBackend.enabled) func i36_aReplayedCodeAWrongVerifierAndAnotherResourceAreRefused(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await DashboardWebTests.harness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let clientID = try await Self.register(client)
            let browser = Browser(client)
            try await browser.signIn(token: harness.tokens["alice"]!, allow: [.steps])
            let code = try await Self.approve(browser, clientID: clientID, kinds: [.steps])
            // A wrong verifier (well formed, and not the one) is refused; the code stays good.
            let (wrong, why) = try await Self.redeem(client, clientID, code, verifier: String(Self.verifier.reversed()))
            #expect(wrong == .badRequest && why["error"] as? String == "invalid_grant")
            #expect((why["error_description"] as? String)?.contains("code_verifier") == true)
            // A token for another resource is refused (RFC 8707).
            let (other, target) = try await Self.redeem(client, clientID, code, resource: "https://other.example/mcp")
            #expect(other == .badRequest && target["error"] as? String == "invalid_target")
            // Another client cannot redeem it.
            let intruder = try await Self.register(client, name: "Intruder")
            #expect(try await Self.redeem(client, intruder, code).1["error"] as? String == "invalid_grant")
            let (first, tokens) = try await Self.redeem(client, clientID, code)
            #expect(first == .ok)
            let access = try #require(tokens["access_token"] as? String)
            #expect(try await Self.call(harness, client, token: access).0 == .ok)
            // The code again without its verifier (from a browser's history, a log) is refused
            // and ends nothing.
            #expect(try await Self.redeem(client, clientID, code, verifier: String(Self.verifier.reversed())).0 == .badRequest)
            #expect(try await Self.call(harness, client, token: access).0 == .ok)
            // A parameter given twice is refused, whichever value is right.
            let twice = [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", Self.redirect), ("client_id", clientID),
                ("code_verifier", String(Self.verifier.reversed())), ("code_verifier", Self.verifier),
            ]
            let (repeated, why2) = try await Self.json(client, "/oauth/token", method: .post, form: twice)
            #expect(repeated == .badRequest && (why2["error_description"] as? String) == "code_verifier is given more than once")
            // Replayed: refused, and what the first redemption gave is revoked (RFC 9700 §4.2.1).
            let (replayed, again) = try await Self.redeem(client, clientID, code)
            #expect(replayed == .badRequest && again["error"] as? String == "invalid_grant")
            #expect(try await Self.call(harness, client, token: access).0 == .unauthorized)
            #expect(try await Self.refresh(client, clientID, tokens["refresh_token"] as! String).0 == .badRequest)

            // The authorization endpoint refuses another resource, the implicit flow and plain
            // PKCE on a page of its own: never a redirect, which would make any registered URI
            // a destination of this server's links (RFC 9700 §4.11.2).
            let target2 = try await browser.get(Self.authorize(clientID, resource: "https://other.example/mcp"))
            #expect(target2.status == .badRequest && target2.location == nil && target2.body.contains("(invalid_target)"))
            let implicit = try await browser.get(
                Self.authorize(clientID).replacingOccurrences(of: "response_type=code", with: "response_type=token"))
            #expect(implicit.status == .badRequest && implicit.body.contains("(unsupported_response_type)"))
            let plain = try await browser.get(
                Self.authorize(clientID).replacingOccurrences(
                    of: "code_challenge_method=S256", with: "code_challenge_method=plain"))
            #expect(plain.status == .badRequest && plain.location == nil && plain.body.contains("(invalid_request)"))
            // An unknown client or redirect URI too.
            let unknown = try await browser.get(Self.authorize("no-such-client"))
            #expect(unknown.status == .badRequest && unknown.location == nil)
            let elsewhere = try await browser.get(
                Self.authorize(clientID).replacingOccurrences(of: "33418%2Fcallback", with: "33418%2Fcallback2"))
            #expect(elsewhere.status == .badRequest && elsewhere.body.contains("compared exactly"))
        }
    }
}

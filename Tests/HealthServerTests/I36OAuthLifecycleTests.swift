import Foundation
import HealthCore
import HealthServerRecords
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HealthServer

/// Issue 36 §1, the life of a connection: the person revokes it from the dashboard, a
/// denied kind stays out, tokens and codes expire, registrations are checked, and deleting
/// the person deletes every code and token of theirs.
@Suite struct I36OAuthLifecycleTests {
    typealias Flow = I36OAuthTests

    @Test(arguments: ServerBackend.enabled) func i36_revokingTheAppOnTheTokensPageEndsItsTokens(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await DashboardWebTests.harness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let clientID = try await Flow.register(client, name: "Claude <web>")
            let browser = Browser(client)
            // Sleep denied on her consent page: offered, not tickable, never given.
            try await browser.signIn(token: harness.tokens["alice"]!, allow: [.steps], deny: [.sleep])
            let page = try await browser.get(Flow.authorize(clientID))
            #expect(page.body.contains("Claude &lt;web&gt;") && !page.body.contains("Claude <web>"))
            #expect(
                !page.body.contains(#"name="read_sleep""#)
                    && page.body.contains(#"name="read_heart" aria-label="Read Heart" checked"#))
            let code = try await Flow.approve(browser, clientID: clientID, kinds: [.steps, .heart])
            let (_, tokens) = try await Flow.redeem(client, clientID, code)
            #expect(tokens["scope"] as? String == "read:heart read:steps")
            let access = try #require(tokens["access_token"] as? String)
            let first = try await Flow.call(harness, client, token: access)
            #expect(first.0 == .ok, "\(first.1)")

            // The tokens page lists the connection by the app's name, and revokes it.
            let listed = try await browser.get("/tokens")
            let name = try #require(
                listed.body.range(of: #"mcp-Claude--web--[0-9a-f]{8}"#, options: .regularExpression).map {
                    String(listed.body[$0])
                })
            #expect(try await browser.post("/tokens/revoke", [("name", name)]).status == .seeOther)
            let (status, _, challenge) = try await Flow.call(harness, client, token: access)
            #expect(status == .unauthorized && challenge?.contains(#"error="invalid_token""#) == true)
            let (refused, why) = try await Flow.refresh(client, clientID, tokens["refresh_token"] as! String)
            #expect(refused == .badRequest && why["error"] as? String == "invalid_grant")

            // A denied kind cannot be forced in by a hand-made form.
            let forced = try await browser.post(
                "/oauth/authorize",
                [
                    ("response_type", "code"), ("client_id", clientID), ("redirect_uri", Flow.redirect),
                    ("code_challenge", Flow.challenge), ("code_challenge_method", "S256"), ("decision", "allow"),
                    ("read_sleep", "on"),
                ])
            #expect(forced.status == .unprocessableContent)
            // "Don't allow" goes back to the app as access_denied, with its state.
            let denied = try await browser.post(
                "/oauth/authorize",
                [
                    ("response_type", "code"), ("client_id", clientID), ("redirect_uri", Flow.redirect), ("state", "s9"),
                    ("code_challenge", Flow.challenge), ("code_challenge_method", "S256"), ("decision", "deny"),
                ])
            #expect(
                denied.location == Flow.redirect
                    + "?error=access_denied&error_description=the%20person%20did%20not%20allow%20access&state=s9")
            // Without the session's CSRF token, no decision is taken.
            let forged = try await browser.post(
                "/oauth/authorize", [("client_id", clientID), ("decision", "allow"), ("read_steps", "on")], csrf: false)
            #expect(forged.status == .forbidden)
        }
    }

    @Test(arguments: ServerBackend.enabled) func i36_accessTokensAndCodesExpire(_ backend: ServerBackend) async throws {
        let clock = MutableClock(DashboardWebTests.now)
        let harness = try await ServerHarness(backend) { $0.clock = { clock.now } }
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let clientID = try await Flow.register(client)
            let browser = Browser(client)
            try await browser.signIn(token: harness.tokens["alice"]!, allow: [.steps])
            let stale = try await Flow.approve(browser, clientID: clientID, kinds: [.steps])
            clock.advance(301)
            let (expired, why) = try await Flow.redeem(client, clientID, stale)
            #expect(expired == .badRequest && (why["error_description"] as? String)?.contains("expired") == true)
            let code = try await Flow.approve(browser, clientID: clientID, kinds: [.steps])
            let (_, tokens) = try await Flow.redeem(client, clientID, code)
            let access = try #require(tokens["access_token"] as? String)
            let first = try await Flow.call(harness, client, token: access)
            #expect(first.0 == .ok, "\(first.1)")
            // A code replayed after its five minutes still ends what it gave.
            let replayed = try await Flow.approve(browser, clientID: clientID, kinds: [.steps])
            let (_, doomed) = try await Flow.redeem(client, clientID, replayed)
            clock.advance(301)
            let (again, why2) = try await Flow.redeem(client, clientID, replayed)
            #expect(again == .badRequest && (why2["error_description"] as? String)?.contains("used already") == true)
            #expect(try await Flow.call(harness, client, token: doomed["access_token"] as? String ?? "").0 == .unauthorized)
            #expect(try await Flow.call(harness, client, token: access).0 == .ok)
            clock.advance(3601 - 301)
            #expect(try await Flow.call(harness, client, token: access).0 == .unauthorized)
            // The refresh token still gives a new one after the access token's hour.
            let (renewed, fresh) = try await Flow.refresh(client, clientID, tokens["refresh_token"] as! String)
            #expect(renewed == .ok)
            let freshAccess = try #require(fresh["access_token"] as? String)
            #expect(try await Flow.call(harness, client, token: freshAccess).0 == .ok)
            // RFC 7009: the app revokes its refresh token, and with it the connection.
            let revoke = [("token", fresh["refresh_token"] as? String ?? ""), ("client_id", clientID)]
            let (revoked, _) = try await Flow.json(client, "/oauth/revoke", method: .post, form: revoke)
            #expect(revoked == .ok)
            #expect(try await Flow.call(harness, client, token: freshAccess).0 == .unauthorized)
            // Unknown tokens are revoked without a word (200), an unknown client is not.
            #expect(try await Flow.json(client, "/oauth/revoke", method: .post, form: revoke).0 == .ok)
            let stranger = [("token", freshAccess), ("client_id", "nobody")]
            #expect(try await Flow.json(client, "/oauth/revoke", method: .post, form: stranger).0 == .unauthorized)
        }
    }

    @Test(arguments: ServerBackend.enabled) func i36_registrationIsCheckedAndTheTokenEndpointExplainsRefusals(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend) {
            $0.oauth.registrationsPerMinute = 100
            $0.oauth.registrationsPerMinuteInAll = 100
        }
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let cases: [(String, String)] = [
                (#"{"redirect_uris": ["http://evil.example/cb"]}"#, "invalid_redirect_uri"),
                // Parsers disagree on these: the host shown would not be the one the browser goes to.
                (#"{"redirect_uris": ["https://attacker.example\\@claude.ai/cb"]}"#, "invalid_redirect_uri"),
                (#"{"redirect_uris": ["http://evil.example\\@localhost/cb"]}"#, "invalid_redirect_uri"),
                (#"{"redirect_uris": ["https://user@claude.ai/cb"]}"#, "invalid_redirect_uri"),
                (#"{"redirect_uris": ["https://claude.ai/c b"]}"#, "invalid_redirect_uri"),
                (#"{"redirect_uris": ["https://claude.ai/cb\r\nX: y"]}"#, "invalid_redirect_uri"),
                (#"{"redirect_uris": ["https://claude.ai:70000/cb"]}"#, "invalid_redirect_uri"),
                (#"{"redirect_uris": ["https://app.example/cb"], "client_name": "Claude\u202e"}"#, "invalid_client_metadata"),
                (#"{"redirect_uris": ["https://app.example/cb"], "client_name": "\n"}"#, "invalid_client_metadata"),
                (#"{"redirect_uris": ["javascript:alert(1)"]}"#, "invalid_redirect_uri"),
                (#"{"redirect_uris": ["https://app.example/cb#frag"]}"#, "invalid_redirect_uri"),
                (#"{"redirect_uris": []}"#, "invalid_redirect_uri"),
                (#"{"redirect_uris": ["https://app.example/cb"], "response_types": ["token"]}"#, "invalid_client_metadata"),
                (#"{"redirect_uris": ["https://app.example/cb"], "grant_types": ["implicit"]}"#, "invalid_client_metadata"),
                (#"{"redirect_uris": ["https://app.example/cb"], "client_name": 7}"#, "invalid_client_metadata"),
                ("[1]", "invalid_client_metadata"),
            ]
            for (body, error) in cases {
                let (status, answer) = try await Flow.json(client, "/oauth/register", method: .post, json: body)
                #expect(status == .badRequest && answer["error"] as? String == error, "\(body)")
            }
            let native = try await Flow.json(
                client, "/oauth/register", method: .post, json: #"{"redirect_uris": ["cursor://anysphere/oauth/callback"]}"#)
            #expect(native.0 == .created)
            let token: [(String, [(String, String)], String)] = [
                ("no grant type", [("code", "x")], "invalid_request"),
                ("implicit", [("grant_type", "password")], "unsupported_grant_type"),
                (
                    "no verifier",
                    [("grant_type", "authorization_code"), ("code", "x"), ("client_id", "c"), ("redirect_uri", "r")],
                    "invalid_request"
                ),
                (
                    "unknown client",
                    [("grant_type", "refresh_token"), ("refresh_token", "hpr_x"), ("client_id", "nobody")], "invalid_client"
                ),
            ]
            for (label, form, error) in token {
                let (_, answer) = try await Flow.json(client, "/oauth/token", method: .post, form: form)
                #expect(answer["error"] as? String == error, "\(label)")
            }
            try await client.execute(
                uri: "/oauth/token", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: "{}")
            ) {
                #expect($0.status == .unsupportedMediaType && $0.headers[.cacheControl] == "no-store")
                #expect(String(buffer: $0.body).contains("invalid_request"))
            }
        }
    }

    /// Anyone may register, so registrations are limited per address and in all: a flood
    /// fills the kept clients no faster than unused ones are forgotten.
    @Test func i36_registrationsAreLimitedPerAddressAndInAll() async throws {
        // A fixed clock: the limits count per minute, and a slow run must not cross one.
        let harness = try await ServerHarness(.sqlite) {
            $0.oauth.registrationsPerMinute = 3
            $0.clock = { DashboardWebTests.now }
        }
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            for _ in 0..<3 { _ = try await Flow.register(client) }
            let (status, answer) = try await Flow.json(
                client, "/oauth/register", method: .post, json: #"{"redirect_uris": ["\#(Flow.redirect)"]}"#)
            #expect(status == .tooManyRequests && answer["error"] as? String == "slow_down")
        }
        let all = try await ServerHarness(.sqlite) {
            $0.oauth.registrationsPerMinuteInAll = 2
            $0.clock = { DashboardWebTests.now }
        }
        defer { all.cleanUp() }
        try await all.app.test(.router) { client in
            for _ in 0..<2 { _ = try await Flow.register(client) }
            let (status, _) = try await Flow.json(
                client, "/oauth/register", method: .post, json: #"{"redirect_uris": ["\#(Flow.redirect)"]}"#)
            #expect(status == .tooManyRequests)
        }
    }

    @Test(arguments: ServerBackend.enabled) func i36_deletingThePersonDeletesTheirCodesAndTokens(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await DashboardWebTests.harness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let clientID = try await Flow.register(client)
            let browser = Browser(client)
            try await browser.signIn(token: harness.tokens["alice"]!, allow: [.steps])
            let code = try await Flow.approve(browser, clientID: clientID, kinds: [.steps])
            let (_, tokens) = try await Flow.redeem(client, clientID, code)
            _ = try await Flow.approve(browser, clientID: clientID, kinds: [.steps])
            let removed = try await harness.store.deleteUser(id: harness.ids["alice"]!)
            #expect(removed["oauth_token"] == 2 && removed["oauth_code"] == 2)
            #expect(try await Flow.call(harness, client, token: tokens["access_token"] as! String).0 == .unauthorized)
            #expect(try await Flow.refresh(client, clientID, tokens["refresh_token"] as! String).0 == .badRequest)
        }
    }
}

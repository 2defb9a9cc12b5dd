import Foundation
import HealthCore
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import Testing

/// Finding L8 (issue 32): behind a TLS-terminating proxy the server hears plain HTTP, so its
/// cookies lost `Secure` and the `__Host-` prefix. Now `serve --public-url
/// https://health.example.com` says how browsers reach it: cookies are `Secure` and
/// `__Host-` as under TLS, a form's `Origin` must be the public URL's, and every answer of a
/// server reached over HTTPS (its own TLS or an https public URL) carries HSTS.
@Suite struct L8PublicURLTests {
    static let publicURL = URL(string: "https://health.example")!
    static let hsts = "max-age=31536000"

    /// A server on `backend` reached at `publicURL` (no TLS of its own), with the dashboard tests' clock.
    static func harness(_ backend: ServerBackend, publicURL: URL? = L8PublicURLTests.publicURL) async throws -> ServerHarness {
        try await ServerHarness(backend) { configuration in
            configuration.clock = { DashboardWebTests.now }
            configuration.publicURL = publicURL
        }
    }

    @Test(arguments: ServerBackend.enabled) func l8_anHTTPSPublicURLMakesTheCookiesSecureAndHostOnly(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await Self.harness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let browser = Browser(client)
            try await browser.get("/login")
            #expect(!browser.lastSetCookies.isEmpty)
            #expect(browser.lastSetCookies.allSatisfy { $0.hasPrefix("__Host-") && $0.contains("; Secure") })
            let signedIn = try await browser.post(
                "/login", [("token", harness.tokens["alice"]!)], origin: "https://health.example")
            #expect(signedIn.status == .seeOther && signedIn.location == "/consent")
            let line = try #require(browser.lastSetCookies.first { $0.hasPrefix("__Host-hp_session=") })
            #expect(line.contains("; Secure") && line.contains("HttpOnly") && line.contains("SameSite=Strict"))
            #expect(line.contains("Path=/") && !line.contains("Domain="))
            #expect(browser.cookies["hp_session"] == nil)
            // The session works: the cookie comes back under its __Host- name.
            #expect(try await browser.get("/consent").status == .ok)
        }
    }

    @Test func l8_theOriginMustBeThePublicURLs() async throws {
        let harness = try await Self.harness(.sqlite)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let browser = Browser(client)
            try await browser.get("/login")
            // Another site, or the address the proxy forwards to (the router's `localhost`): refused.
            for origin in ["https://evil.example", "http://localhost", "https://localhost", "http://health.example"] {
                let answer = try await browser.post("/login", [("token", harness.tokens["alice"]!)], origin: origin)
                #expect(answer.status == .forbidden, "\(origin)")
            }
            #expect(browser.cookies["__Host-hp_session"] == nil)
            // The public URL's origin is the same origin.
            let signedIn = try await browser.post(
                "/login", [("token", harness.tokens["alice"]!)], origin: "https://health.example")
            #expect(signedIn.status == .seeOther)
            #expect(browser.cookies["__Host-hp_session"] != nil)
            try await browser.get("/consent")
            let saved = try await browser.post(
                "/consent", HealthDataCategory.allCases.map { ($0.rawValue, "allow") }, origin: "https://health.example")
            #expect(saved.status == .seeOther && saved.location == "/dashboard")
            try await browser.get("/dashboard")
            #expect(try await browser.post("/logout", origin: "https://evil.example").status == .forbidden)
            #expect(try await browser.post("/logout", origin: "https://health.example").location == "/login")
        }
    }

    @Test(arguments: ServerBackend.enabled) func l8_overHTTPSEveryAnswerCarriesHSTS(_ backend: ServerBackend) async throws {
        let harness = try await Self.harness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await Self.expectHSTS(client, harness, Self.hsts)
        }
    }

    @Test func l8_underItsOwnTLSEveryAnswerCarriesHSTS() async throws {
        let harness = try await DashboardWebTests.harness(.sqlite, tls: true)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await Self.expectHSTS(client, harness, Self.hsts)
        }
    }

    @Test func l8_plainHTTPSendsNoHSTSAndPlainCookies() async throws {
        for publicURL in [nil, URL(string: "http://health.example:8080")!] {
            let harness = try await Self.harness(.sqlite, publicURL: publicURL)
            defer { harness.cleanUp() }
            try await harness.app.test(.router) { client in
                try await Self.expectHSTS(client, harness, nil)
                let browser = Browser(client)
                try await browser.get("/login")
                #expect(browser.lastSetCookies.allSatisfy { $0.hasPrefix("hp_signin=") && !$0.contains("Secure") })
                // An http public URL still names the origin forms must come from.
                let origin = publicURL == nil ? "http://localhost" : "http://health.example:8080"
                let signedIn = try await browser.post("/login", [("token", harness.tokens["alice"]!)], origin: origin)
                #expect(signedIn.status == .seeOther, "\(String(describing: publicURL))")
                #expect(browser.cookies["hp_session"] != nil)
            }
        }
    }

    /// `/healthz`, a `/v1` answer, a 401, a 404 and a page: each with `value` as HSTS (`nil`: none).
    static func expectHSTS(_ client: some TestClientProtocol, _ harness: ServerHarness, _ value: String?) async throws {
        let requests: [(String, HTTPFields, HTTPResponse.Status)] = [
            ("/healthz", [:], .ok),
            ("/v1/daily-metrics?from=2024-06-01&to=2024-06-01", harness.headers("alice"), .ok),
            ("/v1/daily-metrics?from=2024-06-01&to=2024-06-01", [:], .unauthorized),
            ("/v1/nothing-here", harness.headers("alice"), .notFound),
            ("/login", [:], .ok),
        ]
        for (uri, headers, status) in requests {
            try await client.execute(uri: uri, method: .get, headers: headers) { response in
                #expect(response.status == status, "\(uri)")
                #expect(response.headers[.strictTransportSecurity] == value, "\(uri)")
            }
        }
    }

    @Test func l8_thePublicURLIsAnOriginAndNothingMore() throws {
        for (text, origin) in [
            ("https://health.example.com", "https://health.example.com"),
            ("https://health.example.com/", "https://health.example.com"),
            ("HTTPS://Health.Example.com:443", "https://health.example.com"),
            ("https://health.example.com:8443", "https://health.example.com:8443"),
            ("http://health.example.com:80", "http://health.example.com"),
            ("http://10.0.0.2:8080", "http://10.0.0.2:8080"),
        ] {
            let url = try PublicURL.parse(text)
            #expect(PublicURL.origin(of: url) == origin, "\(text)")
        }
        for text in [
            "ftp://health.example.com", "health.example.com", "https://", "https://health.example.com/app",
            "https://health.example.com/?a=1", "https://health.example.com?x", "https://health.example.com/#top",
            "https://user:secret@health.example.com", "file:///etc/passwd", "",
        ] {
            #expect(throws: PublicURL.Invalid.self, "\(text)") { try PublicURL.parse(text) }
        }
        // The error says what is wanted.
        do {
            _ = try PublicURL.parse("ftp://health.example.com")
            Issue.record("ftp:// was accepted")
        } catch {
            #expect("\(error)".contains("https://"))
            #expect("\(error)".contains("--public-url"))
        }
        var configuration = ServerConfiguration()
        #expect(!configuration.servesHTTPS && configuration.publicOrigin == nil)
        configuration.publicURL = try PublicURL.parse("http://health.example.com")
        #expect(!configuration.servesHTTPS)
        configuration.publicURL = try PublicURL.parse("https://health.example.com")
        #expect(configuration.servesHTTPS && configuration.publicOrigin == "https://health.example.com")
    }
}

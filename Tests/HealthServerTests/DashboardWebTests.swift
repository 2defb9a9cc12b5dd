import Foundation
import HealthCore
import HealthMetrics
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HealthDashboard

/// A browser for the tests: keeps the cookies the server sets and sends them back, reads
/// the CSRF token off the last page.
final class Browser: @unchecked Sendable {
    let client: any TestClientProtocol
    var cookies: [String: String] = [:]
    /// The `Set-Cookie` lines of the last response.
    var lastSetCookies: [String] = []
    var csrf: String?

    init(_ client: any TestClientProtocol) { self.client = client }

    @discardableResult
    func get(_ uri: String) async throws -> (status: HTTPResponse.Status, location: String?, body: String) {
        try await send(uri, method: .get, form: nil)
    }

    /// Posts a form; `csrf: true` adds the token from the last page.
    @discardableResult
    func post(
        _ uri: String, _ form: [(String, String)] = [], csrf: Bool = true, origin: String? = nil
    ) async throws -> (
        status: HTTPResponse.Status, location: String?, body: String
    ) {
        var fields = form
        if csrf, let token = self.csrf { fields.append(("csrf", token)) }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let body = fields.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed)!)"
        }.joined(separator: "&")
        return try await send(uri, method: .post, form: body, origin: origin)
    }

    private func send(
        _ uri: String, method: HTTPRequest.Method, form: String?, origin: String? = nil
    ) async throws -> (
        status: HTTPResponse.Status, location: String?, body: String
    ) {
        var headers: HTTPFields = [:]
        if !cookies.isEmpty {
            headers[.cookie] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        }
        if form != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
        if let origin { headers[HTTPFields.Element.Name("Origin")!] = origin }
        let response = try await client.execute(
            uri: uri, method: method, headers: headers, body: form.map { ByteBuffer(string: $0) })
        lastSetCookies = response.headers[values: .setCookie]
        for line in lastSetCookies {
            let pair = line.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = pair.count > 1 ? String(pair[1]) : ""
            if line.contains("Max-Age=0") || value.isEmpty {
                cookies[String(pair[0])] = nil
            } else {
                cookies[String(pair[0])] = value
            }
        }
        let body = String(buffer: response.body)
        if let range = body.range(of: "name=\"csrf\" value=\"") {
            csrf = String(body[range.upperBound...].prefix { $0 != "\"" })
        }
        return (response.status, response.headers[.location], body)
    }

    /// Signs in with `token` and grants `allow`, denies `deny` on the consent page.
    func signIn(token: String, allow: Set<HealthDataCategory>, deny: Set<HealthDataCategory> = []) async throws {
        try await get("/login")
        let signedIn = try await post("/login", [("token", token)])
        #expect(signedIn.status == .seeOther)
        try await get("/consent")
        let choices = allow.map { ($0.rawValue, "allow") } + deny.map { ($0.rawValue, "deny") }
        let saved = try await post("/consent", choices)
        #expect(saved.status == .seeOther && saved.location == "/dashboard")
    }
}

/// Sign-in, sessions, CSRF, consent and per-type scopes of the server's dashboard and API.
@Suite struct DashboardWebTests {
    /// 2024-06-01, 20:00 UTC: "now" for every test here.
    static let now = Date(timeIntervalSince1970: 1_717_272_000)
    static let all = Set(HealthDataCategory.allCases)

    static func harness(_ backend: ServerBackend, tls: Bool = false) async throws -> ServerHarness {
        let certificates = TLSTests.folder
        return try await ServerHarness(backend) { configuration in
            configuration.clock = { Self.now }
            if tls {
                configuration.tls = try? ServerTLS.configuration(
                    certificate: certificates.appendingPathComponent("localhost.crt").path,
                    key: certificates.appendingPathComponent("localhost.key").path)
            }
        }
    }

    /// 70 days for `user` ending 2024-06-01 (UTC), steps `base + 37·i`, then the samples
    /// batch (which recomputes 2024-05-31…06-02 from samples).
    static func seed(_ harness: ServerHarness, _ client: some TestClientProtocol, user: String, base: Int) async throws {
        let days = (0..<70).map { index in
            ServerHarness.day(
                ServerHarness.date(index - 69), zone: "UTC", steps: base + 37 * index, sleep: 6.5 + Double(index % 5) * 0.4,
                restingHR: 52 + Double(index % 7), hrv: 40 + Double(index % 9) * 3, energy: 400 + Double(index % 11) * 20)
        }
        try await client.execute(
            uri: "/v1/daily-metrics", method: .post, headers: harness.headers(user), body: try ServerHarness.body(days)
        ) { #expect($0.status == .ok) }
        try await harness.postSampleBatch(client, user: user)
    }

    @Test(arguments: ServerBackend.enabled) func withoutASessionEveryPageRedirectsToSignIn(
        _ backend: ServerBackend
    )
        async throws
    {
        let harness = try await Self.harness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let browser = Browser(client)
            for page in ["/dashboard", "/dashboard?range=7", "/consent"] {
                let answer = try await browser.get(page)
                #expect(answer.status == .seeOther && answer.location == "/login")
            }
            // A made-up or stale session cookie is no session.
            browser.cookies["hp_session"] = "not-a-session"
            #expect(try await browser.get("/dashboard").location == "/login")
            // A bearer token is not a session either: the pages take no Authorization header.
            try await client.execute(uri: "/dashboard", method: .get, headers: harness.headers("alice")) { response in
                #expect(response.status == .seeOther)
                #expect(response.headers[.location] == "/login")
            }
            let form = try await browser.get("/login")
            #expect(form.status == .ok && form.body.contains("name=\"token\" type=\"password\""))
            // Signing out needs a session.
            #expect(try await browser.post("/logout").status == .unauthorized)
        }
    }

    @Test(arguments: ServerBackend.enabled) func signingInSetsAStrictHttpOnlySessionAndSigningOutEndsIt(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await Self.harness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let browser = Browser(client)
            try await browser.get("/login")
            // A wrong token: the form again with a message, no session.
            let wrong = try await browser.post("/login", [("token", "hp_000000000000_" + String(repeating: "A", count: 43))])
            #expect(wrong.status == .unauthorized && wrong.body.contains("That token is not valid"))
            #expect(browser.cookies["hp_session"] == nil)

            let signedIn = try await browser.post("/login", [("token", harness.tokens["alice"]!)])
            #expect(signedIn.status == .seeOther && signedIn.location == "/consent")  // first visit: consent first
            let line = try #require(browser.lastSetCookies.first { $0.hasPrefix("hp_session=") })
            let flags = Set(line.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(flags.contains("HttpOnly") && flags.contains("SameSite=Strict") && flags.contains("Path=/"))
            #expect(!flags.contains("Secure"))  // plain HTTP: a Secure cookie would never come back
            #expect(flags.contains("Max-Age=43200"))
            let session = try #require(browser.cookies["hp_session"])
            #expect(session.count == 43)

            // Until consent is given the dashboard sends to the consent page, which explains each kind.
            #expect(try await browser.get("/dashboard").location == "/consent")
            let consent = try await browser.get("/consent")
            for category in HealthDataCategory.allCases {
                #expect(consent.body.contains("<legend>\(HTML.escape(category.title))</legend>"))
                #expect(consent.body.contains(HTML.escape(category.purpose)))
            }
            try await browser.post("/consent", HealthDataCategory.allCases.map { ($0.rawValue, "allow") })
            let page = try await browser.get("/dashboard")
            #expect(page.status == .ok && page.body.contains("id=\"panel-today\""))
            #expect(page.body.contains("action=\"/logout\""))

            let out = try await browser.post("/logout")
            #expect(out.status == .seeOther && out.location == "/login")
            #expect(browser.cookies["hp_session"] == nil)
            // The old cookie, sent again, is dead on the server too.
            browser.cookies["hp_session"] = session
            #expect(try await browser.get("/dashboard").location == "/login")
        }
    }

    @Test func underTLSTheCookiesAreSecureAndHostOnly() async throws {
        let harness = try await Self.harness(.sqlite, tls: true)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let browser = Browser(client)
            try await browser.get("/login")
            #expect(browser.lastSetCookies.allSatisfy { $0.hasPrefix("__Host-") && $0.contains("Secure") })
            try await browser.post("/login", [("token", harness.tokens["bob"]!)])
            let line = try #require(browser.lastSetCookies.first { $0.hasPrefix("__Host-hp_session=") })
            #expect(line.contains("; Secure") && line.contains("HttpOnly") && line.contains("SameSite=Strict"))
            #expect(!line.contains("Domain="))
        }
    }

    @Test(arguments: ServerBackend.enabled) func everyFormNeedsItsCSRFToken(_ backend: ServerBackend) async throws {
        let harness = try await Self.harness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let browser = Browser(client)
            try await browser.get("/login")
            // Sign-in: without the form's token, with a wrong one, or without the cookie that matches it.
            #expect(try await browser.post("/login", [("token", harness.tokens["alice"]!)], csrf: false).status == .forbidden)
            #expect(
                try await browser.post("/login", [("token", harness.tokens["alice"]!), ("csrf", "forged")], csrf: false).status
                    == .forbidden)
            let signInCookie = browser.cookies.removeValue(forKey: "hp_signin")
            #expect(try await browser.post("/login", [("token", harness.tokens["alice"]!)]).status == .forbidden)
            browser.cookies["hp_signin"] = signInCookie
            #expect(browser.cookies["hp_session"] == nil)
            // From another site, even with the token: refused.
            #expect(
                try await browser.post("/login", [("token", harness.tokens["alice"]!)], origin: "https://evil.example").status
                    == .forbidden)

            try await browser.signIn(token: harness.tokens["alice"]!, allow: Self.all)
            try await browser.get("/dashboard")
            for form in ["/consent", "/consent/later", "/logout"] {
                #expect(try await browser.post(form, [("sleep", "deny")], csrf: false).status == .forbidden)
                #expect(try await browser.post(form, [("sleep", "deny"), ("csrf", "x")], csrf: false).status == .forbidden)
            }
            // Nothing changed: sleep still granted, the session alive.
            let page = try await browser.get("/dashboard")
            #expect(page.status == .ok && page.body.contains("No sleep recorded in these days."))
            #expect(!page.body.contains("You have not allowed this page"))
        }
    }

    @Test(arguments: ServerBackend.enabled) func bobNeverSeesAlicesData(_ backend: ServerBackend) async throws {
        let harness = try await Self.harness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await Self.seed(harness, client, user: "alice", base: 11_000)
            try await Self.seed(harness, client, user: "bob", base: 3_000)
            let alice = Browser(client)
            try await alice.signIn(token: harness.tokens["alice"]!, allow: Self.all)
            let bob = Browser(client)
            try await bob.signIn(token: harness.tokens["bob"]!, allow: Self.all)
            #expect(alice.cookies["hp_session"] != bob.cookies["hp_session"])
            let alicePage = try await alice.get("/dashboard?range=30").body
            let bobPage = try await bob.get("/dashboard?range=30").body
            // 2024-05-20 is day 57 of the 70: Alice 11 000 + 37·57, Bob 3 000 + 37·57.
            let aliceSteps = HTML.number(11_000 + 37 * 57)
            let bobSteps = HTML.number(3_000 + 37 * 57)
            #expect(alicePage.contains("<th scope=\"row\">2024-05-20</th><td>\(aliceSteps)</td>"))
            #expect(bobPage.contains("<th scope=\"row\">2024-05-20</th><td>\(bobSteps)</td>"))
            #expect(!bobPage.contains(aliceSteps) && !alicePage.contains(bobSteps))
            #expect(bobPage.contains("<span class=\"meta\">bob</span>") && !bobPage.contains(">alice<"))
            // Bob's consent is Bob's: denying sleep hides his sleep, not Alice's.
            try await bob.get("/consent")
            try await bob.post("/consent", [("sleep", "deny")])
            #expect(!(try await bob.get("/dashboard").body.contains("chart-sleep-stages")))
            #expect(try await alice.get("/dashboard").body.contains("chart-sleep-stages"))
        }
    }

    /// The page's numbers are the API's: the stored days, `/v1/sleep` and `/v1/readiness`.
    @Test(arguments: ServerBackend.enabled) func thePageShowsTheNumbersOfTheAPI(_ backend: ServerBackend) async throws {
        let harness = try await Self.harness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await Self.seed(harness, client, user: "alice", base: 9_000)
            let browser = Browser(client)
            try await browser.signIn(token: harness.tokens["alice"]!, allow: Self.all)
            let page = try await browser.get("/dashboard?range=30").body
            let decoder = NormalizedDailyMetrics.backendDecoder()
            let days = try await client.execute(
                uri: "/v1/daily-metrics?from=2024-05-03&to=2024-06-01", method: .get, headers: harness.headers("alice")
            ) { try decoder.decode([NormalizedDailyMetrics].self, from: Data($0.body.readableBytesView)) }
            #expect(days.count == 30)
            for day in days {
                #expect(page.contains("<th scope=\"row\">\(day.localDate)</th><td>\(HTML.number(day.stepsNormalized))</td>"))
                #expect(page.contains("<th scope=\"row\">\(day.localDate)</th><td>\(HTML.number(day.restingHRBpm))</td>"))
            }
            let readiness = try await client.execute(
                uri: "/v1/readiness?date=2024-06-01", method: .get, headers: harness.headers("alice")
            ) { ServerHarness.json($0.body) }
            let score = try #require(readiness["score"] as? Int)
            #expect(page.contains("<span class=\"big\">\(score)</span>"))
            let nights = try await client.execute(
                uri: "/v1/sleep?from=2024-05-03&to=2024-06-01", method: .get, headers: harness.headers("alice")
            ) { response in
                try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]])
            }
            // The night of the samples batch: 7.5 h of core sleep ending on 2024-06-01.
            let night = try #require(nights.first { ($0["main"] as? [String: Any]) != nil })
            let stages = try #require((night["main"] as? [String: Any])?["stage_seconds"] as? [String: Double])
            let row = ["deep", "core", "rem", "unspecified", "awake"].map { "<td>\(HTML.number((stages[$0] ?? 0) / 60))</td>" }
            #expect(page.contains("<th scope=\"row\">\(night["local_date"] as! String)</th>" + row.joined()))
            #expect(stages["core"] == 27_000)

            // Another day: ?date=, kept by the range links.
            let earlier = try await browser.get("/dashboard?date=2024-05-20&range=7").body
            #expect(earlier.contains("Health, Monday 20 May 2024"))
            #expect(earlier.contains("href=\"/dashboard?date=2024-05-20&amp;range=30\""))
            let steps = try #require(days.first { $0.localDate == "2024-05-20" }?.stepsNormalized)
            #expect(earlier.contains("<th scope=\"row\">2024-05-20</th><td>\(HTML.number(steps))</td>"))
            #expect(try await browser.get("/dashboard?date=yesterday").status == .badRequest)
        }
    }

    /// The consent page's "don't allow" shows the denied view; the re-prompt is held back
    /// for the configured interval after a decline.
    @Test(arguments: ServerBackend.enabled) func deniedKindsShowTheDeniedViewAndThePromptIsThrottled(
        _ backend: ServerBackend
    )
        async throws
    {
        let clock = MutableClock(Self.now)
        let harness = try await ServerHarness(backend) { configuration in
            configuration.clock = { clock.now }
            configuration.consentRepromptInterval = 3600
        }
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await Self.seed(harness, client, user: "alice", base: 9_000)
            let browser = Browser(client)
            try await browser.signIn(token: harness.tokens["alice"]!, allow: Self.all.subtracting([.sleep]), deny: [.sleep])
            var page = try await browser.get("/dashboard").body
            #expect(page.contains("use your <strong>sleep</strong> data") && !page.contains("chart-sleep-stages"))
            #expect(page.contains("href=\"/consent\">Review access</a>"))
            #expect(!page.contains("class=\"banner\""))  // just declined: no prompt
            clock.advance(3601)
            page = try await browser.get("/dashboard").body
            #expect(page.contains("class=\"banner\"") && page.contains("may not use: sleep"))
            // "Not now" holds it back for another interval.
            #expect(try await browser.post("/consent/later").location == "/dashboard")
            #expect(!(try await browser.get("/dashboard").body.contains("class=\"banner\"")))
            clock.advance(3601)
            #expect(try await browser.get("/dashboard").body.contains("class=\"banner\""))
            // Allowing it again ends the prompt and brings the panel back.
            try await browser.get("/consent")
            try await browser.post("/consent", [("sleep", "allow")])
            page = try await browser.get("/dashboard").body
            #expect(!page.contains("class=\"banner\"") && page.contains("chart-sleep-stages"))
        }
    }
}

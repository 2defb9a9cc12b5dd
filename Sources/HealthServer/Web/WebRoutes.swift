import Crypto
import Foundation
import HealthCore
import HealthDaily
import HealthDashboard
import HealthMetrics
import HealthServerRecords
import Hummingbird
import NIOCore

/// The browser side of the server: sign-in with the owner's API token, the consent page and
/// the dashboard (docs/dashboard.md). A scoped token (a coach's) never signs in, so consent
/// is only ever the owner's decision.
///
/// A session is a random 256-bit id in an HttpOnly, SameSite=Strict cookie (`Secure` and
/// the `__Host-` prefix over HTTPS: under TLS, or behind a proxy at an `https` public URL);
/// the store keeps only its SHA-256, with the session's CSRF token, which every form carries
/// and every POST must return. Sign-in's own form is guarded by a double-submit cookie. A
/// POST whose `Origin` is another site (not the public URL's origin, when there is one) is
/// refused.
struct WebRoutes: Sendable {
    let configuration: ServerConfiguration
    let repositories: ServerRepositories
    /// Failed tokens per peer, shared with the bearer check: guessing at `/login` and on
    /// `/v1` draws on one budget.
    let failures: RateLimiter
    /// Computes a person's dirty days before the page reads their stored days.
    let beforeReadingDays: @Sendable (String) async throws -> Void

    /// Every page route, as `METHOD /path`.
    static let routes = [
        "GET /login", "POST /login", "POST /logout", "GET /consent", "POST /consent", "POST /consent/later",
        "GET /dashboard", "GET /dashboard/workouts/{id}", "GET /tokens", "POST /tokens", "POST /tokens/revoke",
    ]

    func register(on router: Router<HealthRequestContext>) {
        router.get("/login") { request, _ in try await signInPage(request) }
        router.post("/login") { request, context in try await signIn(request, peer: context.remoteAddress) }
        router.post("/logout") { request, _ in try await signOut(request) }
        router.get("/consent") { request, _ in try await consentPage(request) }
        router.post("/consent") { request, _ in try await saveConsent(request) }
        router.post("/consent/later") { request, _ in try await later(request) }
        router.get("/dashboard") { request, _ in try await dashboard(request) }
        router.get("/dashboard/workouts/:id") { request, context in try await workoutPage(request, context) }
        router.get("/tokens") { request, _ in try await tokensPage(request) }
        router.post("/tokens") { request, _ in try await createToken(request) }
        router.post("/tokens/revoke") { request, _ in try await revokeToken(request) }
    }

    // MARK: Sign-in

    /// HTTPS as the browser sees it: the server's own TLS, or an `https` public URL (a
    /// TLS-terminating proxy in front: this server itself hears plain HTTP).
    private var secure: Bool { configuration.servesHTTPS }
    private var sessionCookie: String { secure ? "__Host-hp_session" : "hp_session" }
    private var signInCookie: String { secure ? "__Host-hp_signin" : "hp_signin" }

    func signInPage(
        _ request: Request, error: String? = nil, status: HTTPResponse.Status = .ok, next: String? = nil
    ) async throws -> Response {
        let next = Self.signInNext(next ?? request.uri.queryParameters["next"].map(String.init))
        if error == nil, try await session(request) != nil { return redirect(next ?? "/dashboard") }
        // The form's token is also set as a cookie: a forged form from elsewhere has neither.
        let token = request.cookies[signInCookie]?.value ?? Secrets.randomBase64URL()
        var response = page(AccessPages.signIn(csrf: token, error: error, next: next), status: status)
        response.setCookie(cookie(signInCookie, token, maxAge: 3600))
        return response
    }

    func signIn(_ request: Request, peer: String?) async throws -> Response {
        let form = try await Self.form(request)
        guard sameOrigin(request), let expected = request.cookies[signInCookie]?.value,
            Self.equal(form["csrf"] ?? "", expected)
        else { throw Self.csrfProblem }
        let peer = "bearer " + (peer ?? "unknown")
        guard let text = form["token"], let token = BearerToken(text.trimmingCharacters(in: .whitespaces)),
            let user = try await repositories.users.authenticate(token), user.scopes.contains(.read)
        else {
            // Past the budget of wrong tokens a minute, a wrong one is a 429; a right one passes.
            if let wait = await failures.admit(peer, now: configuration.clock()) {
                throw Problem.tooManyFailures(retryAfter: wait)
            }
            return try await signInPage(
                request, error: "That token is not valid, or it may not read. Check it and try again.",
                status: .unauthorized, next: form["next"])
        }
        // Only the person signs in, and so only they decide consent: a token they made for
        // someone else (a coach) reads through the API and never gets a session.
        guard user.isOwner else {
            return try await signInPage(
                request,
                error: "This is '\(user.token.name)', a scoped token \(user.name) made for reading their data "
                    + "through the API: it cannot sign in here. Only \(user.name)'s own token signs in and "
                    + "decides what the scoped tokens may read.",
                status: .forbidden, next: form["next"])
        }
        let id = Secrets.randomBase64URL()
        let now = configuration.clock()
        try await repositories.web.createSession(
            idHash: Self.hash(id), userID: user.id, csrfToken: Secrets.randomBase64URL(), now: now,
            expiresAt: now.addingTimeInterval(configuration.sessionLifetime))
        let consent = try await repositories.web.consent(userID: user.id)
        // Back to an app's consent page when the sign-in was on the way to it (docs/oauth.md).
        var response = redirect(Self.signInNext(form["next"]) ?? (consent == nil ? "/consent" : "/dashboard"))
        response.setCookie(cookie(sessionCookie, id, maxAge: Int(configuration.sessionLifetime)))
        response.setCookie(cookie(signInCookie, "", maxAge: 0))
        return response
    }

    func signOut(_ request: Request) async throws -> Response {
        let session = try await requireSessionForm(request)
        try await repositories.web.deleteSession(idHash: Self.hash(session.id))
        var response = redirect("/login")
        response.setCookie(cookie(sessionCookie, "", maxAge: 0))
        return response
    }

    // MARK: Consent

    func consentPage(_ request: Request) async throws -> Response {
        guard let session = try await session(request) else { return redirect("/login") }
        let consent = try await repositories.web.consent(userID: session.user.id)
        return page(
            // Every kind: the owner decides for their scoped tokens too, whatever their own token reads.
            AccessPages.consent(
                offered: Set(HealthDataCategory.allCases), granted: consent?.granted ?? [],
                denied: consent?.denied ?? [], csrf: session.csrf, firstTime: consent == nil, tokensPath: "/tokens"))
    }

    func saveConsent(_ request: Request) async throws -> Response {
        let session = try await requireSessionForm(request)
        let offered = Set(HealthDataCategory.allCases)
        let previous = try await repositories.web.consent(userID: session.user.id)
        var granted = previous?.granted ?? []
        var denied = previous?.denied ?? []
        for category in offered {
            switch session.form[category.rawValue] {
            case "allow":
                granted.insert(category)
                denied.remove(category)
            case "deny":
                denied.insert(category)
                granted.remove(category)
            case nil: continue
            default: throw Problem.badRequest("\(category.rawValue) must be allow or deny")
            }
        }
        let now = configuration.clock()
        let declined = denied.isEmpty ? previous?.declinedAt : now
        try await repositories.web.saveConsent(
            Consent(granted: granted, denied: denied, decidedAt: now, declinedAt: declined), userID: session.user.id)
        return redirect("/dashboard")
    }

    /// "Not now" on the re-prompt: not asked again for `consentRepromptInterval`.
    func later(_ request: Request) async throws -> Response {
        let session = try await requireSessionForm(request)
        let now = configuration.clock()
        var consent =
            try await repositories.web.consent(userID: session.user.id)
            ?? Consent(granted: [], denied: [], decidedAt: now)
        consent.declinedAt = now
        try await repositories.web.saveConsent(consent, userID: session.user.id)
        return redirect("/dashboard")
    }

    // MARK: Scoped tokens

    /// The owner's scoped tokens, and the form that makes one.
    func tokensPage(_ request: Request) async throws -> Response {
        guard let session = try await session(request) else { return redirect("/login") }
        return try await tokensPage(session.user, csrf: session.csrf)
    }

    /// Makes a scoped token from the form (`name`, `read_<kind>=on`, `write_<kind>=on`) and
    /// shows it once; a refused one shows the page again with why (422).
    func createToken(_ request: Request) async throws -> Response {
        let session = try await requireSessionForm(request)
        var reads = Set<HealthDataCategory>()
        var writes = Set<HealthDataCategory>()
        for category in HealthDataCategory.allCases {
            if session.form["read_" + category.rawValue] == "on" { reads.insert(category) }
            if session.form["write_" + category.rawValue] == "on" { writes.insert(category) }
        }
        let name = (session.form["name"] ?? "").trimmingCharacters(in: .whitespaces)
        // A token made here does no more than the owner's own: an owner token made read-only
        // (`users add --scope read`) gives no write.
        let mayRead = session.user.dataTypes ?? Set(HealthDataCategory.allCases)
        let mayWrite = session.user.writableCategories
        guard reads.isSubset(of: mayRead), writes.isSubset(of: mayWrite) else {
            return try await tokensPage(
                session.user, csrf: session.csrf,
                error: "your own token reads \(APIToken.describe(session.user.dataTypes)) and writes "
                    + "\(mayWrite.isEmpty ? "nothing" : APIToken.describe(mayWrite)); a token you make cannot do more",
                status: .unprocessableContent)
        }
        do {
            let (scoped, token) = try await repositories.users.addToken(
                userID: session.user.id, name: name, readTypes: reads, writeTypes: writes)
            return try await tokensPage(session.user, csrf: session.csrf, created: (scoped.name, token.text))
        } catch let error as TokenError {
            return try await tokensPage(
                session.user, csrf: session.csrf, error: error.description, status: .unprocessableContent)
        }
    }

    /// Revokes the live scoped token the form names, at once.
    func revokeToken(_ request: Request) async throws -> Response {
        let session = try await requireSessionForm(request)
        _ = try await repositories.users.revokeToken(userID: session.user.id, name: session.form["name"] ?? "")
        return redirect("/tokens")
    }

    private func tokensPage(
        _ user: User, csrf: String, created: (name: String, token: String)? = nil, error: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let formatter = ISO8601DateFormatter()
        let rows = try await repositories.users.tokens(userID: user.id).filter(\.role.isDelegated).map { token in
            AccessPages.TokenRow(
                name: token.name, reads: APIToken.describe(token.readTypes),
                writes: token.scopes.contains(.write) ? APIToken.describe(token.writeTypes) : "—",
                created: formatter.string(from: token.createdAt), revoked: token.revokedAt.map(formatter.string(from:)))
        }
        return page(AccessPages.tokens(rows, created: created, csrf: csrf, error: error), status: status)
    }

    // MARK: Dashboard

    func dashboard(_ request: Request) async throws -> Response {
        guard let session = try await session(request) else { return redirect("/login") }
        let user = session.user
        guard let consent = try await repositories.web.consent(userID: user.id) else { return redirect("/consent") }
        let range =
            try request.uri.queryParameters["range"].map { text -> Int in
                guard let days = Int(String(text)), DashboardAssembler.Settings.ranges.contains(days) else {
                    throw Problem.badRequest("range must be one of 7, 30, 90, 365")
                }
                return days
            } ?? 30
        let now = configuration.clock()
        var day: LocalDate?
        if let text = request.uri.queryParameters["date"] {
            day = try HealthRoutes.queryDate(String(text), name: "date")
        }
        var settings = DashboardAssembler.Settings()
        settings.rangeDays = range
        let shown = user.dashboardCategories(consent: consent)
        settings.withheld = Set(HealthDataCategory.allCases).subtracting(shown)
        try await beforeReadingDays(user.id)
        let database = try await repositories.readableStore(user.id)
        let clock = configuration.clock
        // Without ?date= the page is about today, or the last day with data when nothing is
        // newer (as `healthpipe dashboard`): the zone is the one of the stored days around it.
        let home = try await repositories.homeZone(of: user.id)
        settings.normalization.homeZone = home
        var around = day ?? LocalDate(now, in: home)
        if day == nil {
            let stored = StoredDailyMetrics(
                repository: repositories.dailyMetrics, userID: user.id, version: settings.normalization.version,
                zone: settings.normalization.homeZone)
            around = try await DailyNormalizer(store: database.queries, configuration: settings.normalization, now: clock)
                .anchor(excluding: settings.withheld, daily: stored).day
        }
        let zone = try await userZone(user.id, around: around)
        settings.normalization.homeZone = zone
        let daily = StoredDailyMetrics(
            repository: repositories.dailyMetrics, userID: user.id, version: settings.normalization.version, zone: zone)
        let data = try await DashboardAssembler(store: database.queries, settings: settings, now: clock, daily: daily)
            .assemble(today: day)
        // The kinds a panel uses that are off; asked about again once the interval after a decline is over.
        let off = (user.dataTypes ?? Set(HealthDataCategory.allCases)).subtracting(shown).subtracting([.other])
        let quiet = consent.declinedAt.map { now.timeIntervalSince($0) < configuration.consentRepromptInterval } ?? false
        let banner =
            off.isEmpty || quiet
            ? "" : AccessPages.reprompt(off: off, consentPath: "/consent", laterAction: "/consent/later", csrf: session.csrf)
        let html = DashboardPage(
            data: data, path: day.map { "/dashboard?date=\($0)" } ?? "/dashboard", consentPath: "/consent",
            headerExtra: AccessPages.signOut(name: user.name, csrf: session.csrf), banner: banner,
            workoutPath: "/dashboard/workouts/"
        ).html()
        return page(html)
    }

    /// The zone of the user's latest stored day in the two weeks up to `date` (a trip's, with
    /// `HKTimeZone`); their home zone without one.
    func userZone(_ userID: String, around date: LocalDate) async throws -> TimeZone {
        let recent = try await repositories.dailyMetrics.dailyMetrics(
            userID: userID, from: date.adding(days: -14), through: date.adding(days: 1),
            version: .v1)
        if let zone = recent.last.flatMap({ TimeZone(identifier: $0.timezoneIdentifier) }) { return zone }
        return try await repositories.homeZone(of: userID)
    }

    // MARK: Sessions

    struct Session {
        let id: String
        let user: User
        let csrf: String
    }

    /// The request's live session, or `nil`.
    func session(_ request: Request) async throws -> Session? {
        guard let id = request.cookies[sessionCookie]?.value, !id.isEmpty, id.count <= 64 else { return nil }
        guard let found = try await repositories.web.session(idHash: Self.hash(id), now: configuration.clock()),
            found.user.isOwner
        else { return nil }
        return Session(id: id, user: found.user, csrf: found.csrfToken)
    }

    /// A POSTed form of a live session whose CSRF token matches: 401 without a session,
    /// 403 when the token is missing or wrong, or the form comes from another site.
    func requireSessionForm(
        _ request: Request
    ) async throws -> (id: String, user: User, csrf: String, form: [String: String]) {
        let form = try await Self.form(request)
        guard let session = try await session(request) else {
            throw Problem(.unauthorized, "Unauthorized", detail: "sign in first, at /login")
        }
        guard sameOrigin(request), Self.equal(form["csrf"] ?? "", session.csrf) else { throw Self.csrfProblem }
        return (session.id, session.user, session.csrf, form)
    }

    static let csrfProblem = Problem(
        .forbidden, "Forbidden", detail: "the form's CSRF token is missing or wrong; reload the page and send it again")

    // MARK: Pieces

    private func cookie(_ name: String, _ value: String, maxAge: Int) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }

    func page(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: .dashboardPage(contentType: "text/html; charset=utf-8"),
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    /// False when the browser says the request comes from another origin (`Origin`, or
    /// `Sec-Fetch-Site: cross-site`); requests without either header (not from a browser) pass.
    /// With a public URL (`publicOrigin`, a proxy in front) the `Origin` must be its origin:
    /// the `Host` the proxy forwards may be this server's own address.
    static func sameOrigin(_ request: Request, publicOrigin: String?) -> Bool {
        if request.headers[HTTPFields.Element.Name("Sec-Fetch-Site")!] == "cross-site" { return false }
        guard let origin = request.headers[HTTPFields.Element.Name("Origin")!] else { return true }
        if let publicOrigin { return origin.lowercased() == publicOrigin }
        guard let host = request.head.authority ?? request.headers[HTTPFields.Element.Name("Host")!] else { return false }
        return origin == "http://\(host)" || origin == "https://\(host)"
    }

    /// ``sameOrigin(_:publicOrigin:)`` against this server's public URL, when it has one.
    private func sameOrigin(_ request: Request) -> Bool {
        Self.sameOrigin(request, publicOrigin: configuration.publicOrigin)
    }

    static func hash(_ text: String) -> Data { Data(SHA256.hash(data: Data(text.utf8))) }

    /// Constant-time comparison of two tokens.
    static func equal(_ left: String, _ right: String) -> Bool { Secrets.constantTimeEqual(Array(left.utf8), Array(right.utf8)) }
}

extension HTTPFields {
    /// `DashboardPage.responseHeaders` with `contentType`: the headers of every dashboard
    /// page, the server's and `healthpipe dashboard`'s.
    public static func dashboardPage(contentType: String) -> HTTPFields {
        var fields: HTTPFields = [.contentType: contentType]
        for (name, value) in DashboardPage.responseHeaders { fields[HTTPFields.Element.Name(name)!] = value }
        return fields
    }
}

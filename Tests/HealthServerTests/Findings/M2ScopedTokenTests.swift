import Foundation
import GRDB
import HealthCore
import HealthPostgres
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HealthServer
@testable import HealthServerRecords
@testable import HealthServerStorage

/// Finding M2 (issue 32): consent was self-service for the coach — a `--kinds` token signed in
/// at /login with its own token and granted itself its kinds on /consent. Now a person has an
/// owner token and scoped tokens they make (`healthpipe users token add alice --name coach
/// --kinds steps,sleep`): only the owner's session signs in and decides consent; a scoped
/// token reads the owner's data of its kinds that the owner granted, and never signs in.
@Suite struct M2ScopedTokenTests {
    static let now = DashboardWebTests.now

    /// A status and the problem's detail (or the page) of a GET with `token`.
    static func get(
        _ client: some TestClientProtocol, _ uri: String, token: String
    ) async throws -> (
        HTTPResponse.Status, String
    ) {
        try await client.execute(uri: uri, method: .get, headers: [.authorization: "Bearer \(token)"]) { response in
            (response.status, String(buffer: response.body))
        }
    }

    static let steps = "/v1/daily-metrics?from=2024-05-25&to=2024-06-01&types=steps"
    static let sleep = "/v1/sleep?from=2024-05-25&to=2024-06-01"
    static let heart = "/v1/daily-metrics?from=2024-05-25&to=2024-06-01&types=heart"

    @Test(arguments: ServerBackend.enabled) func m2_aScopedTokenCannotSignInNorGrantConsent(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await DashboardWebTests.harness(backend)
        defer { harness.cleanUp() }
        let (_, coach) = try await harness.store.addToken(
            owner: "alice", name: "coach", readTypes: [.steps, .sleep], writeTypes: [])
        try await harness.app.test(.router) { client in
            let browser = Browser(client)
            try await browser.get("/login")
            // Old code: a --kinds token signed in (303 to /consent) and saved its own consent.
            let refused = try await browser.post("/login", [("token", coach.text)])
            #expect(refused.status == .forbidden)
            #expect(refused.body.contains("scoped token") && refused.body.contains("cannot sign in"))
            #expect(browser.cookies["hp_session"] == nil)
            #expect(!browser.lastSetCookies.contains { $0.hasPrefix("hp_session=") })
            // Without a session the consent page sends to sign-in, and a POST to it is refused.
            #expect(try await browser.get("/consent").location == "/login")
            let grant = try await browser.post("/consent", [("steps", "allow"), ("sleep", "allow")])
            #expect(grant.status == .unauthorized)
            #expect(try await harness.store.consent(userID: harness.ids["alice"]!) == nil)
            // So the coach reads nothing: the owner granted nothing.
            #expect(try await Self.get(client, Self.steps, token: coach.text).0 == .forbidden)
            // The owner's own token still signs in and decides.
            try await browser.get("/login")
            let owner = try await browser.post("/login", [("token", harness.tokens["alice"]!)])
            #expect(owner.status == .seeOther && owner.location == "/consent")
            #expect(browser.cookies["hp_session"] != nil)
        }
    }

    @Test(arguments: ServerBackend.enabled) func m2_aScopedTokenReadsOnlyItsKindsThatTheOwnerGranted(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await DashboardWebTests.harness(backend)
        defer { harness.cleanUp() }
        let (_, coach) = try await harness.store.addToken(
            owner: "alice", name: "coach", readTypes: [.steps, .sleep], writeTypes: [])
        try await harness.app.test(.router) { client in
            try await DashboardWebTests.seed(harness, client, user: "alice", base: 5_000)
            // The coach reads Alice's data (not an empty account of its own), once she allows it.
            for uri in [Self.steps, Self.sleep, Self.heart] {
                #expect(try await Self.get(client, uri, token: coach.text).0 == .forbidden, "\(uri)")
            }
            // Alice, signed in with her own token, allows steps and heart and denies sleep.
            let alice = Browser(client)
            try await alice.signIn(token: harness.tokens["alice"]!, allow: [.steps, .heart], deny: [.sleep])
            let (stepsStatus, stepsBody) = try await Self.get(client, Self.steps, token: coach.text)
            #expect(stepsStatus == .ok)
            #expect(stepsBody.contains("\"steps_normalized\":\(5_000 + 37 * 62)"))  // 2024-05-25: day 62 of 70
            let (sleepStatus, sleepWhy) = try await Self.get(client, Self.sleep, token: coach.text)
            #expect(sleepStatus == .forbidden && sleepWhy.contains("sleep (denied on the consent page)"))
            let (heartStatus, heartWhy) = try await Self.get(client, Self.heart, token: coach.text)
            #expect(heartStatus == .forbidden && heartWhy.contains("heart (not in this token's types)"))
            try await client.execute(
                uri: "/v1/daily-metrics?from=2024-05-25&to=2024-06-01", method: .get,
                headers: [.authorization: "Bearer \(coach.text)"]
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.init("HealthPipe-Withheld")!] == "energy,heart,sleep")
            }
            // Her own token reads heart (and everything else she has not denied).
            #expect(try await Self.get(client, Self.heart, token: harness.tokens["alice"]!).0 == .ok)
            // She withdraws steps: the coach loses them at once.
            try await alice.get("/consent")
            #expect(try await alice.post("/consent", [("steps", "deny")]).location == "/dashboard")
            let (withdrawn, why) = try await Self.get(client, Self.steps, token: coach.text)
            #expect(withdrawn == .forbidden && why.contains("steps (denied on the consent page)"))
            // Bob's token reads none of Alice's data, whatever she granted.
            let bobs = try await Self.get(client, Self.steps, token: harness.tokens["bob"]!).1
            #expect(!bobs.contains("\(5_000 + 37 * 62)"))
        }
    }

    /// The repository calls `healthpipe users token add|list|revoke` makes (by the owner's name).
    @Test(arguments: ServerBackend.enabled) func m2_theOwnerAddsListsAndRevokesScopedTokens(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await DashboardWebTests.harness(backend)
        defer { harness.cleanUp() }
        let store = harness.store
        let alice = try #require(harness.ids["alice"])
        let (coach, token) = try await store.addToken(
            owner: "alice", name: "coach", readTypes: [.steps, .sleep], writeTypes: [.steps])
        #expect(coach.role == .scoped && coach.name == "coach" && coach.scopes == [.read, .write])
        #expect(coach.readTypes == [.steps, .sleep] && coach.writeTypes == [.steps])
        let (dashboard, _) = try await store.addToken(
            owner: "alice", name: "dashboard", readTypes: Set(HealthDataCategory.allCases), writeTypes: [])
        #expect(dashboard.scopes == [.read])

        // The token is Alice's: it authenticates as her, carrying which token it is.
        let user = try #require(try await store.authenticate(token))
        #expect(user.id == alice && user.name == "alice" && !user.isOwner && user.token.name == "coach")
        #expect(user.dataTypes == [.steps, .sleep] && user.writableCategories == [.steps])
        let owner = try #require(try await store.authenticate(BearerToken(harness.tokens["alice"]!)!))
        #expect(owner.isOwner && owner.token.name == "owner")
        #expect(owner.writableCategories == Set(HealthDataCategory.allCases))

        // Listed owner first, then the scoped ones; never a secret.
        let listed = try await store.tokens(owner: "alice")
        #expect(listed.map(\.name) == ["owner", "coach", "dashboard"])
        #expect(listed.map(\.role) == [.owner, .scoped, .scoped])
        #expect(listed[0].readTypes == nil && listed[0].id == owner.token.id)
        #expect(try await store.tokens(owner: "bob").map(\.name) == ["owner"])
        #expect(try await store.users().first { $0.name == "alice" }?.isOwner == true)

        // Refusals: a live name twice, the owner's name, writing what it cannot read, nobody.
        await #expect(throws: TokenError.exists("coach")) {
            try await store.addToken(owner: "alice", name: "coach", readTypes: [.steps], writeTypes: [])
        }
        await #expect(throws: TokenError.invalidName) {
            try await store.addToken(owner: "alice", name: "owner", readTypes: [.steps], writeTypes: [])
        }
        await #expect(throws: TokenError.writeNotRead) {
            try await store.addToken(owner: "alice", name: "w", readTypes: [.steps], writeTypes: [.sleep])
        }
        await #expect(throws: TokenError.noSuchUser("carol")) {
            try await store.addToken(owner: "carol", name: "coach", readTypes: [.steps], writeTypes: [])
        }

        try await harness.app.test(.router) { client in
            try await harness.store.saveConsent(
                Consent(granted: [.steps], denied: [], decidedAt: Self.now), userID: alice)
            #expect(try await Self.get(client, Self.steps, token: token.text).0 == .ok)
            // Revoked: a 401 at once, listed with its date; revoking again, or the owner's token, does nothing.
            #expect(try await store.revokeToken(owner: "alice", name: "coach"))
            let (status, detail) = try await Self.get(client, Self.steps, token: token.text)
            #expect(status == .unauthorized && detail.contains("unknown or revoked"))
            #expect(try await store.revokeToken(owner: "alice", name: "coach") == false)
            #expect(try await store.revokeToken(owner: "alice", name: "owner") == false)
            #expect(try await store.tokens(owner: "alice").first { $0.name == "coach" }?.revokedAt != nil)
            #expect(try await Self.get(client, Self.steps, token: harness.tokens["alice"]!).0 == .ok)
            // The name is free again; the new token works, the revoked one stays dead.
            let (_, again) = try await store.addToken(
                owner: "alice", name: "coach", readTypes: [.steps], writeTypes: [])
            #expect(try await Self.get(client, Self.steps, token: again.text).0 == .ok)
            #expect(try await Self.get(client, Self.steps, token: token.text).0 == .unauthorized)
            #expect(try await store.tokens(owner: "alice").filter { $0.name == "coach" }.count == 2)
            // Revoking the user ends every token of theirs.
            #expect(try await store.revoke(name: "alice"))
            #expect(try await Self.get(client, Self.steps, token: again.text).0 == .unauthorized)
            #expect(try await Self.get(client, Self.steps, token: harness.tokens["alice"]!).0 == .unauthorized)
            await #expect(throws: TokenError.noSuchUser("alice")) {
                try await store.addToken(owner: "alice", name: "late", readTypes: [.steps], writeTypes: [])
            }
        }
    }

    /// The same from the dashboard: the owner's session makes, lists and revokes scoped tokens
    /// at /tokens; a scoped token never reaches the page.
    @Test(arguments: ServerBackend.enabled) func m2_theOwnerManagesScopedTokensFromTheDashboard(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await DashboardWebTests.harness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await DashboardWebTests.seed(harness, client, user: "alice", base: 5_000)
            let alice = Browser(client)
            #expect(try await alice.get("/tokens").location == "/login")
            try await alice.signIn(token: harness.tokens["alice"]!, allow: [.steps])
            #expect(try await alice.get("/consent").body.contains("href=\"/tokens\""))
            let empty = try await alice.get("/tokens")
            #expect(empty.status == .ok && empty.body.contains("no scoped token yet"))
            // Refused: the owner's name, or writing a kind it does not read; nothing is made.
            let badName = try await alice.post("/tokens", [("name", "owner"), ("read_steps", "on")])
            #expect(badName.status == .unprocessableContent && badName.body.contains("role=\"alert\""))
            let badWrite = try await alice.post("/tokens", [("name", "w"), ("read_steps", "on"), ("write_sleep", "on")])
            #expect(badWrite.status == .unprocessableContent)
            #expect(try await harness.store.tokens(owner: "alice").map(\.name) == ["owner"])
            // Made: shown once, and it reads Alice's steps (allowed), not her sleep (not allowed).
            let made = try await alice.post("/tokens", [("name", "coach"), ("read_steps", "on"), ("read_sleep", "on")])
            #expect(made.status == .ok)
            let start = try #require(made.body.range(of: "<code>hp_"))
            let token = "hp_" + String(made.body[start.upperBound...].prefix { $0 != "<" })
            #expect(BearerToken(token) != nil)
            #expect(try await Self.get(client, Self.steps, token: token).0 == .ok)
            #expect(try await Self.get(client, Self.sleep, token: token).0 == .forbidden)
            let listed = try await alice.get("/tokens").body
            #expect(listed.contains("<th scope=\"row\">coach</th><td>steps,sleep</td><td>—</td>"))
            #expect(!listed.contains(token))
            // Without the form's CSRF token nothing is made or revoked.
            let forged = try await alice.post("/tokens", [("name", "x"), ("read_steps", "on")], csrf: false)
            #expect(forged.status == .forbidden)
            #expect(try await alice.post("/tokens/revoke", [("name", "coach")], csrf: false).status == .forbidden)
            #expect(try await Self.get(client, Self.steps, token: token).0 == .ok)
            // Revoked: 303 back to the list, the token dead at once.
            try await alice.get("/tokens")
            let revoked = try await alice.post("/tokens/revoke", [("name", "coach")])
            #expect(revoked.status == .seeOther && revoked.location == "/tokens")
            #expect(try await Self.get(client, Self.steps, token: token).0 == .unauthorized)
            #expect(try await alice.get("/tokens").body.contains("revoked "))
            // A read-only owner token cannot give write through a token it makes.
            let reader = Browser(client)
            try await reader.signIn(token: harness.tokens["reader"]!, allow: [.steps])
            try await reader.get("/tokens")
            let escalated = try await reader.post(
                "/tokens", [("name", "w"), ("read_steps", "on"), ("write_steps", "on")])
            #expect(escalated.status == .unprocessableContent && escalated.body.contains("cannot do more"))
            #expect(try await harness.store.tokens(owner: "reader").map(\.name) == ["owner"])
        }
    }

    /// `server-v7` moves each user's token into the token table as their owner token: tokens
    /// made before it keep working, with what they could do, and the user row keeps no hash.
    @Test(arguments: ServerBackend.enabled) func m2_tokensFromBeforeTheMigrationBecomeOwnerTokens(
        _ backend: ServerBackend
    ) async throws {
        let full = BearerToken.generate()
        let typed = BearerToken.generate()
        let created = 1_700_000_000.0
        let store: any ServerStore
        let cleanUp: () async -> Void
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("healthpipe-m2-\(UUID().uuidString)")
        switch backend {
        case .sqlite:
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let path = folder.appendingPathComponent("server.sqlite").path
            let queue = try DatabaseQueue(path: path)
            try ServerSchema.sqliteMigrator.migrate(queue, upTo: "server-v6")
            try await queue.write { db in
                for (id, name, scopes, types, token) in [
                    ("u-full", "jane", "read,write", nil, full), ("u-typed", "kim", "read", "steps,sleep", typed),
                ] as [(String, String, String, String?, BearerToken)] {
                    try db.execute(
                        sql: """
                            INSERT INTO user (id, name, scopes, data_types, token_id, token_hash, created_at)
                            VALUES (?,?,?,?,?,?,?)
                            """, arguments: [id, name, scopes, types, token.id, token.secretHash, created])
                }
            }
            try queue.close()
            let sqlite = try SQLiteServerStore(path: path)
            store = sqlite
            cleanUp = {
                await sqlite.close()
                try? FileManager.default.removeItem(at: folder)
            }
            let hashes = try await sqlite.pool.read { db in try Data.fetchAll(db, sql: "SELECT token_hash FROM user") }
            #expect(hashes.count == 2 && hashes.allSatisfy(\.isEmpty))
        case .postgres:
            let schema = try await TestSchemas.shared.make()
            let pool = try await PostgresPool(url: ServerBackend.postgresURL!, schema: schema)
            try await pool.migrate(
                ServerSchema.migrations.prefix(while: { $0.id != "server-v7" }).map {
                    PostgresPool.Migration(id: $0.id, statements: $0.postgres)
                })
            for (id, name, scopes, types, token) in [
                ("u-full", "jane", "read,write", nil, full), ("u-typed", "kim", "read", "steps,sleep", typed),
            ] as [(String, String, String, String?, BearerToken)] {
                try await pool.client.query(
                    """
                    INSERT INTO users (id, name, scopes, data_types, token_id, token_hash, created_at)
                    VALUES (\(id), \(name), \(scopes), \(types), \(token.id), \(token.secretHash), \(created))
                    """, logger: pool.logger)
            }
            store = try await PostgresServerStore(pool: pool)
            cleanUp = {
                await pool.close()
                await TestSchemas.shared.drop(schema)
            }
            let hashes = try await pool.client.query("SELECT token_hash FROM users", logger: pool.logger).collect()
                .map { try $0.decode(Data.self) }
            #expect(hashes.count == 2 && hashes.allSatisfy(\.isEmpty))
        }
        do {
            let jane = try #require(try await store.authenticate(full))
            #expect(jane.name == "jane" && jane.isOwner && jane.scopes == [.read, .write] && jane.dataTypes == nil)
            #expect(jane.createdAt == Date(timeIntervalSince1970: created))
            let kim = try #require(try await store.authenticate(typed))
            // Kim's token keeps its kinds (it reads no more than before) and becomes her owner token.
            #expect(kim.name == "kim" && kim.isOwner && kim.scopes == [.read] && kim.dataTypes == [.steps, .sleep])
            #expect(kim.writableCategories.isEmpty)
            #expect(try await store.tokens(userID: "u-typed").map(\.id) == [typed.id])
            #expect(Set(try await store.users().map(\.name)) == ["jane", "kim"])
            // A wrong secret under a known id is still refused.
            let forged = try #require(BearerToken("hp_\(full.id)_" + String(repeating: "A", count: 43)))
            #expect(try await store.authenticate(forged) == nil)
            // And the owner can now make scoped tokens of their data.
            let (_, coach) = try await store.addToken(owner: "jane", name: "coach", readTypes: [.steps], writeTypes: [])
            #expect(try await store.authenticate(coach)?.isOwner == false)
        } catch {
            await store.close()
            await cleanUp()
            throw error
        }
        await store.close()
        await cleanUp()
    }
}

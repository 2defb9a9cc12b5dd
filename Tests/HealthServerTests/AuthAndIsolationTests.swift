import Foundation
import HealthMetrics
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import Testing

/// Who may do what: no token, a bad one, a revoked one, a read-only one; and no user can
/// read or overwrite another's days.
@Suite struct AuthAndIsolationTests {
    @Test(arguments: ServerBackend.enabled) func healthAndReadinessProbesNeedNoToken(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == #"{"status":"ok"}"#)
            }
            try await client.execute(uri: "/readyz", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == #"{"status":"ready"}"#)
            }
        }
    }

    /// Over a real socket (`.live`): a write, then the read of what was written.
    @Test(arguments: ServerBackend.enabled) func aLiveServerWritesAndReads(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend) { $0.port = 0 }
        defer { harness.cleanUp() }
        let days = (0..<3).map { ServerHarness.day(ServerHarness.date($0)) }
        try await harness.app.test(.live) { client in
            try await client.execute(
                uri: "/v1/daily-metrics", method: .post, headers: harness.headers("alice"), body: try ServerHarness.body(days)
            ) { response in
                #expect(String(buffer: response.body) == #"{"inserted":3,"unchanged":0,"updated":0}"#)
            }
            try await client.execute(
                uri: "/v1/daily-metrics?from=2024-06-01&to=2024-06-03", method: .get, headers: harness.headers("alice")
            ) { response in
                let stored = try NormalizedDailyMetrics.backendDecoder().decode(
                    [NormalizedDailyMetrics].self, from: Data(response.body.readableBytesView))
                #expect(stored.map(\.localDate) == ["2024-06-01", "2024-06-02", "2024-06-03"])
                #expect(stored.map(\.userID) == Array(repeating: harness.ids["alice"], count: 3))
            }
        }
    }

    @Test(arguments: ServerBackend.enabled) func tokensAreChecked(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        _ = try await harness.store.revoke(name: "bob")
        try await harness.app.test(.router) { client in
            let uri = "/v1/daily-metrics?from=2024-06-01&to=2024-06-30"
            for (user, detail) in [
                (nil, "send Authorization: Bearer <token> (hp_…)"),
                ("hp_nothex00zzzz_" + String(repeating: "a", count: 43), "send Authorization: Bearer <token> (hp_…)"),
                ("hp_0123456789ab_" + String(repeating: "a", count: 43), "the token is unknown or revoked"),
                ("bob", "the token is unknown or revoked"),
            ] as [(String?, String)] {
                try await client.execute(uri: uri, method: .get, headers: harness.headers(user)) { response in
                    #expect(response.status == .unauthorized)
                    #expect(response.headers[.contentType] == "application/problem+json")
                    #expect(ServerHarness.json(response.body)["detail"] as? String == detail)
                }
            }
            // A right id with a wrong secret is refused too.
            let alice = harness.tokens["alice"]!
            let forged = String(alice.dropLast()) + (alice.last == "A" ? "B" : "A")
            try await client.execute(uri: uri, method: .get, headers: harness.headers(forged)) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: uri, method: .get, headers: harness.headers("alice")) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "[]")
            }
        }
    }

    @Test(arguments: ServerBackend.enabled) func aReadOnlyTokenCannotWrite(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/daily-metrics", method: .post, headers: harness.headers("reader"),
                body: try ServerHarness.body([ServerHarness.day("2024-06-01")])
            ) { response in
                #expect(response.status == .forbidden)
                #expect(
                    ServerHarness.json(response.body)["detail"] as? String
                        == "this token lacks the 'write' scope; ask for a token with it")
            }
        }
        #expect(try await harness.store.dailyRowCounts().isEmpty)
    }

    @Test(arguments: ServerBackend.enabled) func usersCannotReadOrOverwriteEachOther(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/daily-metrics", method: .post, headers: harness.headers("alice"),
                body: try ServerHarness.body([ServerHarness.day("2024-06-01", steps: 1111)])
            ) { response in
                #expect(String(buffer: response.body) == #"{"inserted":1,"unchanged":0,"updated":0}"#)
            }
            // Bob sees nothing of Alice's, and his own day of the same date is his own row.
            try await client.execute(
                uri: "/v1/daily-metrics?from=2024-06-01&to=2024-06-01", method: .get, headers: harness.headers("bob")
            ) { response in
                #expect(String(buffer: response.body) == "[]")
            }
            try await client.execute(
                uri: "/v1/daily-metrics", method: .post, headers: harness.headers("bob"),
                body: try ServerHarness.body([ServerHarness.day("2024-06-01", steps: 2222)])
            ) { response in
                #expect(String(buffer: response.body) == #"{"inserted":1,"unchanged":0,"updated":0}"#)
            }
            // Naming Alice in a payload is refused.
            var forged = ServerHarness.day("2024-06-01", steps: 3333)
            forged.userID = harness.ids["alice"]
            try await client.execute(
                uri: "/v1/daily-metrics", method: .post, headers: harness.headers("bob"), body: try ServerHarness.body([forged])
            ) { response in
                #expect(response.status == .forbidden)
            }
            try await client.execute(
                uri: "/v1/daily-metrics?from=2024-06-01&to=2024-06-01", method: .get, headers: harness.headers("alice")
            ) { response in
                let days = try NormalizedDailyMetrics.backendDecoder().decode(
                    [NormalizedDailyMetrics].self, from: Data(response.body.readableBytesView))
                #expect(days.map(\.stepsNormalized) == [1111])
                #expect(days.map(\.userID) == [harness.ids["alice"]])
            }
        }
        #expect(try await harness.store.dailyRowCounts() == [harness.ids["alice"]!: 1, harness.ids["bob"]!: 1])
    }
}

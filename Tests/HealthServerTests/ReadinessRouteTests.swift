import Foundation
import HealthMetrics
import HealthReadiness
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import Testing

/// `GET /v1/readiness` scores the stored days with the same engine as the CLI.
@Suite struct ReadinessRouteTests {
    @Test(arguments: ServerBackend.enabled) func aSteadyPersonScores97(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        // 61 identical days ending 2024-07-31: the hand-computed 97 of HandComputedTests.
        let days = (0...60).map { ServerHarness.day(ServerHarness.date($0)) }
        try await harness.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/daily-metrics", method: .post, headers: harness.headers("alice"), body: try ServerHarness.body(days)
            ) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(
                uri: "/v1/readiness?date=\(ServerHarness.date(60))", method: .get, headers: harness.headers("alice")
            ) { response in
                let score = try JSONDecoder().decode(ReadinessScore.self, from: Data(response.body.readableBytesView))
                #expect(score.score == 97)
                #expect(score.band == .optimal)
                #expect(score.validDays == 60)
                #expect(score.date == "2024-07-31")
            }
            try await client.execute(
                uri: "/v1/readiness?from=\(ServerHarness.date(58))&to=\(ServerHarness.date(60))", method: .get,
                headers: harness.headers("alice")
            ) { response in
                let scores = try JSONDecoder().decode([ReadinessScore].self, from: Data(response.body.readableBytesView))
                #expect(scores.map(\.date) == ["2024-07-29", "2024-07-30", "2024-07-31"])
                #expect(scores.map(\.score) == [97, 97, 97])
            }
            // Bob has no days: a score without data, not Alice's.
            try await client.execute(
                uri: "/v1/readiness?date=\(ServerHarness.date(60))", method: .get, headers: harness.headers("bob")
            ) { response in
                let score = try JSONDecoder().decode(ReadinessScore.self, from: Data(response.body.readableBytesView))
                #expect(score.score == nil)
                #expect(score.validDays == 0)
            }
        }
    }
}

import Foundation
import HealthMetrics
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import Testing

/// `POST /v1/health-auto-export`: every public fixture ingests, a re-sent body changes
/// nothing, and the daily metrics of the touched days are recomputed.
@Suite struct AutoExportRouteTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/health-auto-export")

    static func body(_ name: String) throws -> ByteBuffer {
        ByteBuffer(bytes: try Data(contentsOf: folder.appendingPathComponent("irvinlim__\(name).json")))
    }

    @Test(arguments: ServerBackend.enabled) func everyFixtureIngestsAndASecondPostAddsNothing(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        // records / added on the first post.
        let expected: [(String, Int, Int)] = [
            ("empty_data", 0, 0), ("unmarshal_metrics", 2, 2), ("unmarshal_aggregated_sleep_analysis", 2, 2),
            ("unmarshal_aggregated_sleep_analysis_2", 2, 2), ("unmarshal_non_aggregated_sleep_analysis", 1, 1),
            ("unmarshal_workouts", 1, 1),
        ]
        try await harness.app.test(.router) { client in
            for (name, records, added) in expected {
                for round in 0..<2 {
                    try await client.execute(
                        uri: "/v1/health-auto-export?tz=Asia/Singapore", method: .post, headers: harness.headers("alice"),
                        body: try Self.body(name)
                    ) { response in
                        let report = ServerHarness.json(response.body)
                        #expect(response.status == .ok, "\(name)")
                        #expect(report["records"] as? Int == records, "\(name)")
                        #expect(report["added"] as? Int == (round == 0 ? added : 0), "\(name) round \(round)")
                        #expect(report["duplicates"] as? Int == (round == 0 ? 0 : records), "\(name) round \(round)")
                    }
                }
            }
        }
    }

    /// The aggregated night of 2021-12-18 (Singapore): 6.108 h asleep in the daily metrics.
    @Test(arguments: ServerBackend.enabled) func theDailyMetricsOfTheNightAreRecomputed(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/health-auto-export?tz=Asia/Singapore", method: .post, headers: harness.headers("alice"),
                body: try Self.body("unmarshal_aggregated_sleep_analysis")
            ) { response in
                let report = ServerHarness.json(response.body)
                // Answered once committed; the days follow (the 18th and the day after, below).
                #expect(report["days_pending"] as? Bool == true && report["days_recomputed"] as? Int == 0)
            }
            try await client.execute(
                uri: "/v1/daily-metrics?from=2021-12-18&to=2021-12-19", method: .get, headers: harness.headers("alice")
            ) { response in
                let days = try NormalizedDailyMetrics.backendDecoder().decode(
                    [NormalizedDailyMetrics].self, from: Data(response.body.readableBytesView))
                #expect(days.map(\.localDate) == ["2021-12-18", "2021-12-19"])
                #expect(days[0].timezoneIdentifier == "Asia/Singapore")
                #expect(abs((days[0].sleepHours ?? 0) - 6.108333333333333) < 1e-9)
                #expect(days[1].sleepHours == nil)
            }
            // Bob's store is untouched.
            try await client.execute(
                uri: "/v1/daily-metrics?from=2021-12-18&to=2021-12-19", method: .get, headers: harness.headers("bob")
            ) { response in
                #expect(String(buffer: response.body) == "[]")
            }
        }
    }

    @Test(arguments: ServerBackend.enabled) func aBadBodyIsNamedAndNothingIsStored(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let bad =
            #"{"data": {"metrics": [{"name": "step_count", "units": "count", "data": [{"date": "2024-01-05 08:00:00 -0800", "qty": 1}, {"date": "soon", "qty": 2}]}]}}"#
        try await harness.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/health-auto-export", method: .post, headers: harness.headers("alice"), body: ByteBuffer(string: bad)
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(ServerHarness.json(response.body)["pointer"] as? String == "/data/metrics/0/data/1/date")
            }
            try await client.execute(
                uri: "/v1/health-auto-export?tz=Mars/Base", method: .post, headers: harness.headers("alice"),
                body: try Self.body("unmarshal_metrics")
            ) { response in
                #expect(response.status == .badRequest)
            }
        }
        #expect(try await harness.store.dailyRowCounts().isEmpty)
    }
}

import Foundation
import HealthMetrics
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import Testing

/// `POST /v1/samples`: the same Idempotency-Key twice writes once; another body under the
/// same key is a 422, and a key whose first request is running a 409; the day's metrics
/// follow the samples.
@Suite struct SamplesRouteTests {
    static let batch = """
        {"samples": [
          {"type": "HKQuantityTypeIdentifierStepCount", "start": "2024-06-01T08:00:00Z", "end": "2024-06-01T08:10:00Z",
           "value": 800, "unit": "count", "source": "Jane’s Apple Watch"},
          {"type": "HKQuantityTypeIdentifierStepCount", "start": "2024-06-01T12:00:00Z", "end": "2024-06-01T12:10:00Z",
           "value": 700, "unit": "count", "source": "Jane’s Apple Watch"},
          {"type": "HKQuantityTypeIdentifierRestingHeartRate", "start": "2024-06-01T06:00:00Z", "end": "2024-06-01T06:00:00Z",
           "value": 54, "unit": "count/min", "source": "Jane’s Apple Watch", "metadata": {"HKTimeZone": "UTC"}},
          {"type": "HKCategoryTypeIdentifierSleepAnalysis", "start": "2024-05-31T23:00:00Z", "end": "2024-06-01T06:30:00Z",
           "value_text": "HKCategoryValueSleepAnalysisAsleepCore", "source": "Jane’s Apple Watch"}
        ]}
        """

    @Test(arguments: ServerBackend.enabled) func theSameKeyTwiceWritesOnce(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let expected =
            #"{"added":4,"daily":{"inserted":0,"unchanged":0,"updated":0},"days_pending":true,"days_recomputed":0,"duplicates":0,"ignored_keys":[],"records":4,"unknown_metrics":[]}"#
        try await harness.app.test(.router) { client in
            for replay in [false, true] {
                try await client.execute(
                    uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "batch-0001"),
                    body: ByteBuffer(string: Self.batch)
                ) { response in
                    #expect(response.status == .ok)
                    #expect(String(buffer: response.body) == expected)
                    #expect(response.headers[.init("Idempotent-Replayed")!] == (replay ? "true" : nil))
                }
            }
            // A new key with the same samples: stored once already, nothing added, and the
            // days are what they were, byte for byte.
            let days = "/v1/daily-metrics?from=2024-05-01&to=2024-07-01"
            let before = try await client.execute(uri: days, method: .get, headers: harness.headers("alice")) {
                String(buffer: $0.body)
            }
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "batch-0002"),
                body: ByteBuffer(string: Self.batch)
            ) {
                response in
                let report = ServerHarness.json(response.body)
                #expect(report["added"] as? Int == 0 && report["duplicates"] as? Int == 4)
                // Nothing added: no day is pending.
                #expect(report["days_pending"] == nil)
            }
            // The days the first write touched: three, unchanged by the second.
            try await client.execute(uri: days, method: .get, headers: harness.headers("alice")) { response in
                let stored = try NormalizedDailyMetrics.backendDecoder().decode(
                    [NormalizedDailyMetrics].self, from: Data(response.body.readableBytesView))
                #expect(stored.count == 3)
                #expect(String(buffer: response.body) == before)
            }
            // The first key with another body: 422, naming the header.
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "batch-0001"),
                body: ByteBuffer(string: #"{"samples": []}"#)
            ) {
                response in
                #expect(response.status == .unprocessableContent)
                #expect(ServerHarness.json(response.body)["pointer"] as? String == "header/Idempotency-Key")
                #expect(response.headers[.contentType] == "application/problem+json")
            }
            try await client.execute(
                uri: "/v1/daily-metrics?from=2024-06-01&to=2024-06-01", method: .get, headers: harness.headers("alice")
            ) { response in
                let days = try NormalizedDailyMetrics.backendDecoder().decode(
                    [NormalizedDailyMetrics].self, from: Data(response.body.readableBytesView))
                #expect(days.map(\.stepsNormalized) == [1500])
                #expect(days.map(\.restingHRBpm) == [54])
                #expect(days.map(\.sleepHours) == [7.5])
            }
        }
    }

    /// Samples two months apart recompute the days around each — the day and the day after —
    /// not the two months between; both days have their figures.
    @Test(arguments: ServerBackend.enabled) func onlyTheDaysTouchedAreRecomputed(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let batch = """
            {"samples": [
              {"type": "HKQuantityTypeIdentifierStepCount", "start": "2024-01-10T08:00:00Z", "end": "2024-01-10T08:10:00Z",
               "value": 800, "unit": "count", "source": "Jane’s Apple Watch"},
              {"type": "HKQuantityTypeIdentifierStepCount", "start": "2024-03-10T12:00:00Z", "end": "2024-03-10T12:10:00Z",
               "value": 700, "unit": "count", "source": "Jane’s Apple Watch"}
            ]}
            """
        try await harness.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "far-apart"),
                body: ByteBuffer(string: batch)
            ) { response in
                #expect(response.status == .ok)
                #expect(ServerHarness.json(response.body)["days_pending"] as? Bool == true)
            }
            try await client.execute(
                uri: "/v1/daily-metrics?from=2024-01-01&to=2024-03-31", method: .get, headers: harness.headers("alice")
            ) { response in
                let days = try NormalizedDailyMetrics.backendDecoder().decode(
                    [NormalizedDailyMetrics].self, from: Data(response.body.readableBytesView))
                #expect(days.map(\.localDate) == ["2024-01-10", "2024-01-11", "2024-03-10", "2024-03-11"])
                #expect(days.map(\.stepsNormalized) == [800, nil, 700, nil])
            }
        }
    }

    /// Two identical requests under one key at the same time: one runs, the other is
    /// answered 409 while it runs (or replayed after it): the batch is never applied twice.
    @Test(arguments: ServerBackend.enabled) func aKeyInFlightIsRunOnce(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let t0 = Date(timeIntervalSince1970: 1_717_200_000)
        let formatter = ISO8601DateFormatter()
        let samples = (0..<20_000).map { index in
            let start = formatter.string(from: t0.addingTimeInterval(Double(index) * 60))
            let fields = #""end": "\#(start)", "value": \#(60 + index % 40), "unit": "count/min", "source": "Watch""#
            return #"{"type": "HKQuantityTypeIdentifierHeartRate", "start": "\#(start)", "# + fields + "}"
        }
        let body = #"{"samples": ["# + samples.joined(separator: ",") + "]}"
        try await harness.app.test(.router) { client in
            let answers = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        try await client.execute(
                            uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "same"),
                            body: ByteBuffer(string: body)
                        ) { ($0.status.code, $0.headers[.init("Idempotent-Replayed")!] == "true") }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // Exactly one request ran the batch; the other waited for nothing.
            #expect(answers.filter { $0 == (200, false) }.count == 1, "\(answers)")
            #expect(answers.allSatisfy { $0 == (200, false) || $0 == (200, true) || $0.0 == 409 }, "\(answers)")
            try await client.execute(
                uri: "/v1/changes?type=HKQuantityTypeIdentifierHeartRate&limit=10000", method: .get,
                headers: harness.headers("alice")
            ) { response in
                #expect((ServerHarness.json(response.body)["changes"] as? [Any])?.count == 10_000)
            }
        }
    }

    @Test(arguments: ServerBackend.enabled) func aKeyIsRequiredAndBadSamplesAreNamed(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice"), body: ByteBuffer(string: Self.batch)
            ) {
                response in
                #expect(response.status == .badRequest)
            }
            let backwards = """
                {"samples": [{"type": "HKQuantityTypeIdentifierStepCount", "start": "2024-06-01T08:10:00Z",
                  "end": "2024-06-01T08:00:00Z", "value": 1, "unit": "count", "source": "x"}]}
                """
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "k"),
                body: ByteBuffer(string: backwards)
            ) {
                response in
                #expect(response.status == .unprocessableContent)
                #expect(ServerHarness.json(response.body)["pointer"] as? String == "/samples/0/end")
            }
            let untyped = #"{"samples": [{"start": "2024-06-01T08:00:00Z"}]}"#
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "k2"),
                body: ByteBuffer(string: untyped)
            ) {
                response in
                #expect(response.status == .badRequest)
                #expect(ServerHarness.json(response.body)["pointer"] as? String == "/samples/0/type")
            }
        }
        #expect(try await harness.store.dailyRowCounts().isEmpty)
    }
}

import Foundation
import HealthCore
import HealthMetrics
import HealthSQLite
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import Testing

/// Finding C1 (issue 32): one step count of `1.7976931348623157e308` trapped the server in
/// `DailyNormalizer` (`Int(x.rounded())`), and again after every restart since the sample
/// was committed first. Now every way in refuses a value outside its type's plausible range
/// (422 naming the field), and a store that already holds absurd values (written before the
/// ranges existed) still answers on every output path.
@Suite struct C1ExtremeValueTests {
    static func samples(_ items: [String]) -> ByteBuffer {
        ByteBuffer(string: #"{"samples": ["# + items.joined(separator: ",") + "]}")
    }

    static func steps(_ value: String, at hour: Int = 9) -> String {
        #"{"type": "HKQuantityTypeIdentifierStepCount", "start": "2024-06-01T\#(String(format: "%02d", hour)):00:00Z", "#
            + #""end": "2024-06-01T\#(String(format: "%02d", hour)):10:00Z", "value": \#(value), "unit": "count", "source": "Jane’s Apple Watch"}"#
    }

    @Test(arguments: ServerBackend.enabled) func c1_anAbsurdValueIsRefusedWith422NamingTheField(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            for (value, pointer) in [
                ("1.7976931348623157e308", "/samples/1/value"), ("-5", "/samples/1/value"), ("1e300", "/samples/1/value"),
            ] {
                try await client.execute(
                    uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "c1-\(value)"),
                    body: Self.samples([Self.steps("800", at: 8), Self.steps(value)])
                ) { response in
                    #expect(response.status == .unprocessableContent)
                    let problem = ServerHarness.json(response.body)
                    #expect(problem["pointer"] as? String == pointer)
                    #expect((problem["detail"] as? String)?.contains("between 0 and 200000 count") == true)
                }
            }
            // A Health Auto Export body and a span of centuries: refused the same way.
            let hae =
                #"{"data": {"metrics": [{"name": "step_count", "units": "count", "data": [{"date": "2024-06-01 08:00:00 +0000", "qty": 1e300}]}]}}"#
            try await client.execute(
                uri: "/v1/health-auto-export", method: .post, headers: harness.headers("alice"), body: ByteBuffer(string: hae)
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(ServerHarness.json(response.body)["pointer"] as? String == "/data/metrics/0/data/0")
            }
            let longSleep =
                #"{"data": {"metrics": [{"name": "sleep_analysis", "units": "hr", "data": [{"startDate": "1990-01-01 00:00:00 +0000", "endDate": "2090-01-01 00:00:00 +0000", "value": "Core"}]}]}}"#
            try await client.execute(
                uri: "/v1/health-auto-export", method: .post, headers: harness.headers("alice"),
                body: ByteBuffer(string: longSleep)
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect((ServerHarness.json(response.body)["detail"] as? String)?.contains("at most 31 days") == true)
            }
            // Nothing of the refused bodies was stored: the day has no steps.
            try await client.execute(
                uri: "/v1/daily-metrics?from=2024-06-01&to=2024-06-01", method: .get, headers: harness.headers("alice")
            ) { response in
                #expect(String(buffer: response.body) == "[]")
            }
        }
    }

    /// The extreme values a store may already hold, per type: what the normaliser, sleep,
    /// readiness, the snapshot, the dashboard, CSV and MCP must survive.
    static let extremes: [Double] = [
        1.7976931348623157e308, -1.7976931348623157e308, 1e300, -1e300, 9.3e18, -9.3e18, 1e-308, -1e-308, 5e-324, 0, -0.0,
    ]

    static func storedExtremes() -> [Sample] {
        let day = Date(timeIntervalSince1970: 1_717_200_000)  // 2024-06-01T00:00:00Z
        var samples: [Sample] = []
        let types: [(SampleType, String)] = [
            (.stepCount, "count"), (.activeEnergyBurned, "kcal"), (.heartRate, "count/min"), (.restingHeartRate, "count/min"),
            (.heartRateVariabilitySDNN, "ms"), (.bodyMass, "kg"), (.distanceWalkingRunning, "m"),
            (.appleExerciseTime, "min"),
        ]
        for (typeIndex, (type, unit)) in types.enumerated() {
            for (index, value) in extremes.enumerated() {
                let start = day.addingTimeInterval(Double(typeIndex * 1000 + index * 60 + 3600))
                samples.append(
                    Sample(
                        type: type, start: start, end: start.addingTimeInterval(30), value: .quantity(value, unit: unit),
                        source: Source(name: "Jane’s Apple Watch"), device: nil))
            }
            // Many huge values in one day: a sum far past 2^63.
            for index in 0..<200 {
                let start = day.addingTimeInterval(Double(40_000 + typeIndex * 300 + index))
                samples.append(
                    Sample(
                        type: type, start: start, end: start, value: .quantity(9e17, unit: unit),
                        source: Source(name: "Jane’s iPhone")))
            }
        }
        // A night of centuries and a night of no time.
        samples.append(
            Sample(
                type: .sleepAnalysis, start: Date(timeIntervalSince1970: -60_000_000_000),
                end: Date(timeIntervalSince1970: 60_000_000_000), value: .category("HKCategoryValueSleepAnalysisAsleepCore"),
                source: Source(name: "Jane’s Apple Watch")))
        samples.append(
            Sample(
                type: .sleepAnalysis, start: day.addingTimeInterval(-3600), end: day.addingTimeInterval(-3600),
                value: .category("HKCategoryValueSleepAnalysisAsleepDeep"), source: Source(name: "Jane’s Apple Watch")))
        return samples
    }

    @Test(arguments: ServerBackend.enabled) func c1_aStoreHoldingAbsurdValuesStillAnswersEveryPath(
        _ backend: ServerBackend
    )
        async throws
    {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        // Written around the API, as a store from before the ranges would hold them.
        try await harness.mutableHealthStore("alice").add(Self.storedExtremes())
        try await harness.app.test(.router) { client in
            // The next write on that day recomputes it: this trapped before.
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "c1-next-write"),
                body: Self.samples([Self.steps("800", at: 8)])
            ) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(
                uri: "/v1/daily-metrics?from=2024-06-01&to=2024-06-01", method: .get, headers: harness.headers("alice")
            ) { response in
                #expect(response.status == .ok)
                let days = try NormalizedDailyMetrics.backendDecoder().decode(
                    [NormalizedDailyMetrics].self, from: Data(response.body.readableBytesView))
                // The absurd values are skipped; the plausible ones count (0 steps, the 800).
                #expect(days.map(\.stepsNormalized) == [800])
                // The mean of the plausible resting rates (1e-308, 5e-324, 0 and -0) is 2.5e-309,
                // outside the 20–250 bpm a day may hold (L10): left out, as a posted one is refused.
                #expect(days.map(\.restingHRBpm) == [nil])
            }
            for uri in [
                "/v1/readiness?from=2024-05-25&to=2024-06-02", "/v1/sleep?from=2024-05-25&to=2024-06-02",
                "/v1/snapshot?at=2024-06-01T20:00:00Z", "/v1/export.csv?metrics=all&from=2024-05-31&to=2024-06-02",
                "/v1/export.csv?metrics=all&daily=true&from=2024-05-31&to=2024-06-02",
                "/v1/changes?type=HKQuantityTypeIdentifierStepCount&since=0",
            ] {
                try await client.execute(uri: uri, method: .get, headers: harness.headers("alice")) { response in
                    #expect(response.status == .ok, "\(uri)")
                }
            }
            for (tool, arguments) in Self.mcpCalls {
                let body =
                    #"{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "\#(tool)", "arguments": \#(arguments)}}"#
                let headers = harness.mcpHeaders("alice")
                try await client.execute(uri: "/mcp", method: .post, headers: headers, body: ByteBuffer(string: body)) {
                    response in
                    #expect(response.status == .ok, "\(tool)")
                    #expect(
                        String(buffer: response.body).contains(#""result""#),
                        "\(tool): \(String(buffer: response.body).prefix(300))")
                }
            }
            let browser = Browser(client)
            try await browser.signIn(token: harness.tokens["alice"]!, allow: Set(HealthDataCategory.allCases))
            for range in ["7", "30", "365"] {
                let page = try await browser.get("/dashboard?range=\(range)&date=2024-06-01")
                #expect(page.status == .ok)
                #expect(!page.body.contains("NaN") && !page.body.contains("inf"))
            }
        }
    }

    static let mcpCalls: [(String, String)] = [
        ("get_daily_metrics", #"{"from": "2024-05-25", "to": "2024-06-02"}"#),
        ("get_sleep", #"{"from": "2024-05-25", "to": "2024-06-02"}"#),
        ("get_readiness", #"{"from": "2024-05-25", "to": "2024-06-02"}"#),
        ("get_workouts", #"{"from": "2024-05-25", "to": "2024-06-02"}"#),
        ("get_trends", #"{"metric": "steps", "period": 30, "date": "2024-06-02"}"#),
        (
            "compare_periods",
            #"{"a_from": "2024-05-01", "a_to": "2024-05-15", "b_from": "2024-05-16", "b_to": "2024-06-02"}"#
        ),
        ("list_data_types", "{}"),
        (
            "query_samples",
            #"{"type": "HKQuantityTypeIdentifierStepCount", "from": "2024-06-01", "to": "2024-06-01", "bucket": "hour"}"#
        ),
        ("query_samples", #"{"type": "HKQuantityTypeIdentifierHeartRate", "from": "2024-06-01", "to": "2024-06-01"}"#),
        ("get_coach_context", #"{"at": "2024-06-01T20:00:00Z"}"#),
    ]
}

extension ServerHarness {
    /// Headers of a JSON-RPC request to `POST /mcp` for `user`.
    func mcpHeaders(_ user: String) -> HTTPFields {
        var fields = headers(user)
        fields[.accept] = "application/json, text/event-stream"
        fields[.init("MCP-Protocol-Version")!] = "2025-06-18"
        return fields
    }

    /// The user's samples, writable around the API (their SQLite file, or their rows).
    func mutableHealthStore(_ user: String) async throws -> any MutableHealthStore {
        if let samples { return samples.store(for: ids[user]!) }
        let path = folder.appendingPathComponent("users/\(ids[user]!).sqlite")
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        return try HealthDatabase(path: path.path).store
    }
}

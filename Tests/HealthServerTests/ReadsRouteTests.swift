import Foundation
import HealthDaily
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import Testing

/// Sleep and the streamed CSV export, from the samples a user sent.
@Suite struct ReadsRouteTests {
    @Test(arguments: ServerBackend.enabled) func sleepAndCSVFromTheUsersOwnSamples(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await harness.postSampleBatch(client)
            try await client.execute(
                uri: "/v1/export.csv?metrics=steps,resting_heart_rate&from=2024-06-01&to=2024-06-01&tz=UTC", method: .get,
                headers: harness.headers("alice")
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/csv; charset=utf-8")
                #expect(
                    String(buffer: response.body) == """
                        Date,Metric,Value,Unit
                        2024-06-01T08:00:00+00:00,Steps,800,steps
                        2024-06-01T12:00:00+00:00,Steps,700,steps
                        2024-06-01T06:00:00+00:00,Resting Heart Rate,54,bpm

                        """)
            }
            try await client.execute(
                uri: "/v1/export.csv?metrics=pulse&from=2024-06-01&to=2024-06-01", method: .get, headers: harness.headers("alice")
            ) { response in
                #expect(response.status == .unprocessableContent)
            }
            // Bob's export is a header only.
            try await client.execute(
                uri: "/v1/export.csv?from=2024-06-01&to=2024-06-01", method: .get, headers: harness.headers("bob")
            ) { response in
                #expect(String(buffer: response.body) == "Date,Metric,Value,Unit\n")
            }
            try await client.execute(
                uri: "/v1/sleep?from=2024-06-01&to=2024-06-01&tz=UTC", method: .get, headers: harness.headers("alice")
            ) { response in
                let decoder = JSONDecoder()
                decoder.dateDecodingStrategy = .iso8601
                let nights = try decoder.decode([SleepNight].self, from: Data(response.body.readableBytesView))
                #expect(nights.map(\.localDate) == ["2024-06-01"])
                #expect(nights.first?.main?.asleepSeconds == 27_000)
            }
        }
    }

    /// The export's query parameters are the request `healthpipe export csv` builds from its
    /// flags (issue 34 §5, `CSVExportRequest`): they shape the rows, and a value outside its
    /// set is a 400 that names the parameter and what it takes.
    @Test(arguments: ServerBackend.enabled) func theExportsParametersShapeTheRows(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await harness.postSampleBatch(client)
            try await client.execute(
                uri: "/v1/export.csv?metrics=steps&from=2024-06-01&to=2024-06-01&tz=UTC&date_format=healthexporter&source=true",
                method: .get, headers: harness.headers("alice")
            ) { response in
                #expect(response.status == .ok)
                let lines = String(buffer: response.body).split(separator: "\n").map(String.init)
                #expect(lines.first == "Date,Metric,Value,Unit,Source")
                #expect(lines.count == 3)
                #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("\"6/1/24, ") && $0.contains(",Steps,") })
            }
            for (query, detail) in [
                ("weight_unit=stone", "weight_unit must be kg or lb"), ("temperature_unit=K", "temperature_unit must be C or F"),
                ("source=yes", "source must be true or false"), ("date_format=rfc", "date_format must be iso or healthexporter"),
            ] {
                try await client.execute(
                    uri: "/v1/export.csv?from=2024-06-01&to=2024-06-01&\(query)", method: .get, headers: harness.headers("alice")
                ) { response in
                    #expect(response.status == .badRequest)
                    #expect(ServerHarness.json(response.body)["detail"] as? String == detail)
                }
            }
        }
    }

    /// A larger export streams through many chunks: 20,000 rows arrive complete and in order.
    @Test(arguments: ServerBackend.enabled) func aLargeExportStreamsComplete(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let samples = (0..<20_000).map { index in
            """
            {"type": "HKQuantityTypeIdentifierHeartRate", "start": "\(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: 1_717_200_000 + Double(index) * 5)))",
             "end": "\(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: 1_717_200_000 + Double(index) * 5)))",
             "value": \(60 + index % 40), "unit": "count/min", "source": "Watch"}
            """
        }
        let body = ByteBuffer(string: #"{"samples": ["# + samples.joined(separator: ",") + "]}")
        try await harness.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "big"), body: body
            ) { response in
                #expect(ServerHarness.json(response.body)["added"] as? Int == 20_000)
            }
            try await client.execute(
                uri: "/v1/export.csv?metrics=heart_rate&from=2024-05-31&to=2024-06-07&tz=UTC", method: .get,
                headers: harness.headers("alice")
            ) { response in
                let lines = String(buffer: response.body).split(separator: "\n")
                #expect(lines.count == 20_001)
                #expect(lines[1] == "2024-06-01T00:00:00+00:00,Heart Rate,60,bpm")
                #expect(lines[20_000] == "2024-06-02T03:46:35+00:00,Heart Rate,99,bpm")
            }
        }
    }
}

/// The coach context from the user's own samples.
@Suite struct SnapshotRouteTests {
    @Test(arguments: ServerBackend.enabled) func theSnapshotIsTheUsersOwn(_ backend: ServerBackend) async throws {
        // A generous deadline: a loaded suite must not turn a slow read into a missing field.
        let harness = try await ServerHarness(backend) { $0.snapshotProviderTimeout = 300 }
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await harness.postSampleBatch(client)
            let uri = "/v1/snapshot?at=2024-06-01T20:00:00Z&tz=UTC"
            try await client.execute(uri: uri, method: .get, headers: harness.headers("alice")) { response in
                #expect(response.status == .ok)
                let snapshot = ServerHarness.json(response.body)
                #expect(snapshot["timestamp"] as? String == "2024-06-01T20:00:00+00:00")
                #expect(snapshot["date"] as? String == "2024-06-01")
                #expect(snapshot["step_count_today"] as? Int == 1500)
                #expect(snapshot["resting_heart_rate_bpm"] as? Int == 54)
                #expect(snapshot["last_night_sleep_duration_hours"] as? Double == 7.5)
                // No lat/lon: the weather is missing, with the reason, and nothing fails.
                let missing = snapshot["missing"] as? [[String: Any]] ?? []
                #expect(missing.contains { $0["field"] as? String == "current_weather_condition" })
            }
            // Bob has nothing: his snapshot is empty, not Alice's.
            try await client.execute(uri: uri, method: .get, headers: harness.headers("bob")) { response in
                #expect(response.status == .ok)
                #expect(ServerHarness.json(response.body)["step_count_today"] is NSNull)
            }
            for (bad, status) in [
                ("at=yesterday", HTTPResponse.Status.badRequest), ("lat=91&lon=0", .badRequest), ("lat=x&lon=0", .badRequest),
                ("lat=10", .unprocessableContent),
            ] {
                try await client.execute(uri: "/v1/snapshot?\(bad)", method: .get, headers: harness.headers("alice")) {
                    #expect($0.status == status, "\(bad)")
                }
            }
        }
    }
}

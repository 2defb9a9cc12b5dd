import Foundation
import HealthCore
import HealthServer
import Hummingbird
import HummingbirdTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Findings of the attack on the release build (2026-11-25, issues 32 and 33): one sample
/// dated 2199 (or 2040, in an export) kept an import from computing the person's real days
/// and emptied every "last day with data" view; a day posted as 9999-12-31 was accepted; a
/// stalled client held its connection (and an import slot) for good; a metric asked 5,000
/// times in one export was written 5,000 times; a resting heart rate in kg was stored and
/// hid the real ones.
@Suite struct ReleaseAttackTests {
    static func sample(_ type: String, _ start: String, _ end: String, _ value: String, _ unit: String) -> String {
        #"{"type": "\#(type)", "start": "\#(start)", "end": "\#(end)", "value": \#(value), "unit": "\#(unit)", "source": "clock-wrong phone"}"#
    }

    /// H1: after a sample dated 2199, an import of an export of 2024 still computes the
    /// export's days (before: the last 3,660 days of the store's span, 2189–2199, all empty).
    @Test(arguments: ServerBackend.enabled) func h1_aSampleDated2199DoesNotKeepAnImportFromItsDays(
        _ backend: ServerBackend
    ) async throws {
        let export = try await ImportsRouteTests.expected()
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let future = Self.sample(
                "HKQuantityTypeIdentifierStepCount", "2199-06-01T12:00:00Z", "2199-06-01T12:01:00Z", "1", "count")
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "h1-future"),
                body: ByteBuffer(string: #"{"samples": [\#(future)]}"#)
            ) { #expect($0.status == .ok) }
            let id = try await client.execute(
                uri: "/v1/imports?tz=America/Los_Angeles", method: .post, headers: harness.upload("alice"),
                body: ByteBuffer(data: export.zip)
            ) { ServerHarness.json($0.body)["id"] as? String ?? "" }
            let job = try await ImportsRouteTests.finished(id, client, harness.headers("alice"))
            #expect(job["state"] as? String == "succeeded")
            try await client.execute(
                uri: "/v1/daily-metrics?from=\(export.first)&to=\(export.last)", method: .get,
                headers: harness.headers("alice")
            ) { response in
                #expect(response.status == .ok)
                let days = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [[String: Any]] ?? []
                #expect(days.count == export.days.count)
                #expect(days.map { $0["steps_normalized"] as? Int } == export.days.map(\.stepsNormalized))
            }
        }
    }

    /// M1: a day posted as 9999-12-31 (it would be "the last day with data") is refused.
    @Test func m1_aDayPostedOutsideTheServedYearsIsRefused() async throws {
        let harness = try await ServerHarness(.sqlite)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            for date in ["9999-12-30", "2250-07-10", "1899-12-31"] {
                try await client.execute(
                    uri: "/v1/daily-metrics", method: .post, headers: harness.headers("alice"),
                    body: try ServerHarness.body([ServerHarness.day(date, zone: "UTC")])
                ) { response in
                    #expect(response.status == .unprocessableContent)
                    let problem = ServerHarness.json(response.body)
                    #expect(problem["pointer"] as? String == "/0/local_date")
                    #expect((problem["detail"] as? String)?.contains("1900-01-01 and 2199-12-31") == true)
                }
            }
        }
    }

    /// M5: a resting heart rate in kg is no reading of a heart rate: 422 naming the unit.
    @Test func m5_aUnitOfAnotherDimensionIsRefused() async throws {
        let harness = try await ServerHarness(.sqlite)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let wrong = Self.sample(
                "HKQuantityTypeIdentifierRestingHeartRate", "2024-06-26T18:00:00Z", "2024-06-26T18:00:00Z", "99999999999",
                "kg")
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "m5-kg"),
                body: ByteBuffer(string: #"{"samples": [\#(wrong)]}"#)
            ) { response in
                #expect(response.status == .unprocessableContent)
                let problem = ServerHarness.json(response.body)
                #expect(problem["pointer"] as? String == "/samples/0/value")
                #expect((problem["detail"] as? String)?.contains("unit kg is not a unit of") == true)
                #expect((problem["detail"] as? String)?.contains("99999999999") == false)
            }
        }
    }

    /// M3: a client that sends half a request and stalls is disconnected after the idle
    /// timeout (before: held open for good — 19,900 of them took every file descriptor).
    @Test func m3_aStalledRequestIsClosedAfterTheIdleTimeout() async throws {
        let harness = try await ServerHarness(.sqlite) {
            $0.port = 0
            $0.idleTimeout = 1
        }
        defer { harness.cleanUp() }
        try await harness.app.test(.live) { client in
            let port = try #require(client.port)
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #expect(socket >= 0)
            defer { close(socket) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            #expect(connected == 0)
            // Half a request: the headers never end.
            let partial = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
            _ = partial.withCString { send(socket, $0, strlen($0), 0) }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let started = Date()
            var byte: UInt8 = 0
            let read = recv(socket, &byte, 1, 0)
            // Closed by the server (0: end of stream), well before the 10 s this test waits.
            #expect(read == 0)
            #expect(Date().timeIntervalSince(started) < 5)
        }
    }
}

import Foundation
import HealthCore
import HealthServer
import HealthServerRecords
import HealthServerStorage
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
        try await Self.live({ $0.idleTimeout = 1 }) { harness, port in
            let socket = try #require(Self.connect(port: port))
            defer { close(socket) }
            // Half a request: the headers never end.
            Self.send(socket, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            let started = Date()
            // Closed by the server (end of stream), well before the 10 s this test waits.
            #expect(Self.readUntilClosed(socket) != nil)
            #expect(Date().timeIntervalSince(started) < 5)
        }
    }

    /// M3, the rest (re-attack of 2026-11-26): a body trickled a few bytes at a time — which
    /// the idle timeout does not catch — is cut once it falls behind 1 KiB/s after the
    /// grace; without a token, on `/login`, whose handler leaves the body unread.
    @Test func m3_aTrickledBodyIsCutOnceItFallsBehindTheMinimumRate() async throws {
        try await Self.live({ $0.idleTimeout = 1 }) { harness, port in
            for path in ["/login", "/v1/samples"] {
                let socket = try #require(Self.connect(port: port))
                defer { close(socket) }
                Self.send(
                    socket,
                    "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + "Authorization: Bearer \(harness.tokens["alice"] ?? "")\r\nContent-Length: 4294967296\r\n\r\n")
                let started = Date()
                // Ten bytes every 200 ms: far below 1 KiB/s, never idle for a second.
                let trickle = Task {
                    for _ in 0..<100 where !Task.isCancelled {
                        Self.send(socket, "{\"aaaaaaa\"")
                        try? await Task.sleep(for: .milliseconds(200))
                    }
                }
                defer { trickle.cancel() }
                #expect(Self.readUntilClosed(socket) != nil, "\(path)")
                // Cut after the 1 s grace and a check or two, long before the 20 s the trickle lasts.
                #expect(Date().timeIntervalSince(started) < 6, "\(path)")
            }
        }
    }

    /// High (re-attack of 2026-11-26): the server ran out of file descriptors under a flood
    /// of connections and crashed. Connections past the limit are closed at once; those
    /// within it, and new ones once others close, are served.
    @Test func aConnectionPastTheLimitIsClosedAtOnce() async throws {
        try await Self.live({ $0.maxConnections = 4 }) { harness, port in
            var held: [Int32] = []
            for _ in 0..<4 { held.append(try #require(Self.connect(port: port))) }
            try await Task.sleep(for: .milliseconds(200))
            // The fifth: closed without an answer.
            let fifth = try #require(Self.connect(port: port))
            Self.send(fifth, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(Self.readUntilClosed(fifth) == "")
            close(fifth)
            // One of the four answers; once two close, a new one is served.
            Self.send(held[0], "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(Self.readUntilClosed(held[0])?.hasPrefix("HTTP/1.1 200") == true)
            for socket in held { close(socket) }
            try await Task.sleep(for: .milliseconds(300))
            let later = try #require(Self.connect(port: port))
            defer { close(later) }
            Self.send(later, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(Self.readUntilClosed(later)?.hasPrefix("HTTP/1.1 200") == true)
        }
    }

    // MARK: raw sockets

    /// A live server on SQLite on a free port, configured by `configure`, for `body`.
    static func live(
        _ configure: (inout ServerConfiguration) -> Void, _ body: @escaping @Sendable (ServerHarness, Int) async throws -> Void
    ) async throws {
        let harness = try await ServerHarness(.sqlite) {
            $0.port = 0
            configure(&$0)
        }
        defer { harness.cleanUp() }
        try await harness.app.test(.live) { client in try await body(harness, try #require(client.port)) }
    }

    /// A TCP connection to 127.0.0.1:`port`, reads timing out after 10 s.
    static func connect(port: Int) -> Int32? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            return nil
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return socket
    }

    static func send(_ socket: Int32, _ text: String) {
        _ = text.withCString { Glibc.send(socket, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    /// What the server sent until it closed the connection; `nil` when it was still open
    /// after the 10 s read timeout.
    static func readUntilClosed(_ socket: Int32) -> String? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            if count < 0 { return errno == ECONNRESET ? String(decoding: bytes, as: UTF8.self) : nil }
            bytes += buffer[0..<count]
        }
    }
}

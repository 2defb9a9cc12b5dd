import Foundation
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// Large ingests must not stall the server (issue 14, defect 5): while two users each post
/// 40,000 samples over real sockets, `/healthz` keeps answering. Decoding runs on NIO's
/// blocking pool, the SQLite transaction on the store's writer queue, uploads through
/// non-blocking file I/O: neither the event loops nor the cooperative pool wait.
///
/// A latency test only means something on a machine that is otherwise idle: inside the
/// whole suite, other tests' CPU-bound cases share the two cores and the cooperative pool
/// with the server under test. So it runs when `HEALTHPIPE_TIMING_TESTS=1`, which `.ci/run`
/// sets for a second, filtered `swift test` run of this suite alone.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["HEALTHPIPE_TIMING_TESTS"] == "1", "timing: run alone"))
struct ResponsivenessTests {
    /// `count` step samples a minute apart from `first`, as a `POST /v1/samples` body.
    static func body(count: Int, first: Date, source: String) -> ByteBuffer {
        let formatter = ISO8601DateFormatter()
        var text = #"{"samples": ["#
        for index in 0..<count {
            let start = first.addingTimeInterval(Double(index) * 60)
            if index > 0 { text += "," }
            text += """
                {"type": "HKQuantityTypeIdentifierStepCount", "start": "\(formatter.string(from: start))", \
                "end": "\(formatter.string(from: start.addingTimeInterval(50)))", "value": \(index % 90 + 1), \
                "unit": "count", "source": "\(source)"}
                """
        }
        return ByteBuffer(string: text + "]}")
    }

    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
    }

    @Test func healthzAnswersQuicklyDuringLargeIngests() async throws {
        let harness = try await ServerHarness(.sqlite) { $0.port = 0 }
        defer { harness.cleanUp() }
        let first = Date(timeIntervalSince1970: 1_717_200_000)  // 2024-06-01T00:00:00Z
        let bodies = [
            ("alice", Self.body(count: 40_000, first: first, source: "Alice’s Watch")),
            ("bob", Self.body(count: 40_000, first: first, source: "Bob’s Watch")),
        ]
        try await harness.app.test(.live) { client in
            let port = try #require(client.port)
            let ingesting = IngestState()
            let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
                for (user, body) in bodies {
                    group.addTask {
                        let status = try await TestClient.withClient(host: "127.0.0.1", port: port) { ingest in
                            try await ingest.post(
                                "/v1/samples", headers: harness.headers(user, idempotencyKey: "load-\(user)"), body: body
                            ).status
                        }
                        #expect(status == .ok)
                        await ingesting.finish()
                        return []
                    }
                }
                group.addTask {
                    // A probe every 10 ms on a fixed schedule, each latency counted from
                    // when its probe was due (not when it was sent): a stall delays every
                    // probe due during it, as it delays every real client (no coordinated
                    // omission).
                    try await TestClient.withClient(host: "127.0.0.1", port: port) { probe in
                        var seconds: [Double] = []
                        let clock = ContinuousClock()
                        let start = clock.now
                        var due = start
                        while await !ingesting.allFinished(of: 2) {
                            if due > clock.now { try await Task.sleep(until: due, clock: clock) }
                            let response = try await probe.get("/healthz")
                            #expect(response.status == .ok)
                            let now = clock.now
                            while due <= now {
                                seconds.append((now - due) / .seconds(1))
                                due += .milliseconds(10)
                            }
                        }
                        return seconds
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            let sorted = latencies.sorted()
            try #require(sorted.count >= 20, "the ingests ended before /healthz was probed enough")
            let p50 = Self.percentile(sorted, 0.5)
            let p99 = Self.percentile(sorted, 0.99)
            print(
                String(
                    format: "healthz during two 40,000-sample ingests: %d probes, p50 %.1f ms, p99 %.1f ms, max %.1f ms",
                    sorted.count, p50 * 1000, p99 * 1000, sorted.last! * 1000))
            #expect(p99 < 0.25, "p99 \(p99) s")
        }
    }
}

/// How many ingests have finished.
actor IngestState {
    private var finished = 0

    func finish() { finished += 1 }

    func allFinished(of count: Int) -> Bool { finished >= count }
}

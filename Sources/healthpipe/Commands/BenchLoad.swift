import ArgumentParser
import AsyncHTTPClient
import Foundation
import HealthCore
import HealthPostgres
import HealthServer
import HealthServerRecords
import HealthServerStorage
import HealthWire
import NIOCore
import NIOHTTP1

/// `healthpipe bench load`: several servers on one PostgreSQL database under mixed load,
/// every read checked against the writes acknowledged before it (scripts/load-test).
struct BenchLoad: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Mixed writes and reads across servers sharing one database, with every read checked.",
        discussion: """
            Each connection is a user of its own (load-…-0, load-…-1, … added to --postgres or --server-db). \
            It writes 20 one-minute step samples (POST /v1/samples, given UUIDs) to one server, then \
            reads on the next (the same one when there is one): the change feed since its last anchor must hold exactly those 20 UUIDs, and \
            every 5th round the day's steps (GET /v1/daily-metrics) must equal the sum acknowledged. \
            Connections alternate servers, so each takes half. At the end every user's feed is read \
            from the start: a sample lost or stored twice is counted. Prints requests, req/s, p50 and \
            p99 per route and server.
            """)

    @Option(name: .customLong("server"), help: "A server's base URL (one, or several sharing --postgres).")
    var servers: [String] = []

    @Option(help: "The servers' PostgreSQL database, where the load's users are added.")
    var postgres: String?

    @Option(
        name: .customLong("server-db"),
        help: "Or: the one server's SQLite file (serve --server-db), where the load's users are added.")
    var db: String?

    @Option(name: .customLong("db"), help: .hidden)
    var healthStore: String?

    @Option(help: "Concurrent connections (one user each).")
    var connections = 64

    @Option(help: "Seconds of load.")
    var seconds = 30.0

    func validate() throws {
        guard !servers.isEmpty else { throw ValidationError("give --server URL (several sharing --postgres)") }
        try ServerDatabaseOptions.refuseHealthStoreFlag(healthStore)
        guard (postgres == nil) != (db == nil) else {
            throw ValidationError("give --postgres or --server-db: where to add users")
        }
        guard servers.count == 1 || postgres != nil else { throw ValidationError("several servers share --postgres") }
        guard connections >= 2, seconds > 0 else { throw ValidationError("--connections ≥ 2 and --seconds > 0") }
    }

    /// Latencies and failures, per route and server.
    final class Tally: Sendable {
        private let recorded = Locked((latencies: [String: [Double]](), failures: [String: Int]()))

        var latencies: [String: [Double]] { recorded.withLock { $0.latencies } }
        var failures: [String: Int] { recorded.withLock { $0.failures } }

        func record(_ route: String, _ seconds: Double) {
            recorded.withLock { $0.latencies[route, default: []].append(seconds) }
        }

        func fail(_ what: String) { recorded.withLock { $0.failures[what, default: 0] += 1 } }
    }

    func run() async throws {
        let store: any ServerStore =
            if let postgres { try await PostgresServerStore(url: postgres) } else { try SQLiteServerStore(path: db!) }
        let prefix = "load-\(UUID().uuidString.prefix(6).lowercased())-"
        var tokens: [String] = []
        for index in 0..<connections {
            let (_, token) = try await store.addUser(name: "\(prefix)\(index)", scopes: [.read, .write])
            tokens.append(token.text)
        }
        await store.close()
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let tally = Tally()
        let deadline = Date().addingTimeInterval(seconds)
        let started = Date()
        let acknowledged = try await withThrowingTaskGroup(of: Int.self) { group in
            for (index, token) in tokens.enumerated() {
                let writer = servers[index % servers.count]
                let reader = servers[(index + 1) % servers.count]
                group.addTask {
                    try await Self.worker(
                        index: index, token: token, writer: writer, reader: reader, until: deadline, client: client,
                        tally: tally)
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        let elapsed = Date().timeIntervalSince(started)
        // Every user's feed from the start: each acknowledged sample once, nothing else.
        var lost = 0
        var doubled = 0
        for (index, token) in tokens.enumerated() {
            let uuids = try await Self.feed(servers[index % servers.count], token: token, client: client)
            doubled += uuids.count - Set(uuids).count
            lost += acknowledged[index] * 20 - Set(uuids).count
        }
        try await client.shutdown()
        print(Self.report(tally, elapsed: elapsed, servers: servers))
        let failures = tally.failures.values.reduce(0, +)
        print(
            "errors: \(failures) \(tally.failures.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })"
                + "; samples acknowledged \(acknowledged.reduce(0, +) * 20), lost \(lost), stored twice \(doubled)")
        if failures > 0 || lost != 0 || doubled != 0 { throw ExitCode(1) }
    }

    /// One connection's rounds; returns how many writes were acknowledged.
    static func worker(
        index: Int, token: String, writer: String, reader: String, until deadline: Date, client: HTTPClient, tally: Tally
    ) async throws -> Int {
        var anchor: Int64 = 0
        var round = 0
        var acknowledged = 0
        var dayTotal = 0.0
        var day = -1
        let base = Date(timeIntervalSince1970: 1_704_067_200)  // 2024-01-01T00:00:00Z
        while Date() < deadline {
            // 20 one-minute samples after the last round's (72 rounds a day).
            let samples = (0..<20).map { k in
                let start = base.addingTimeInterval(Double(round * 20 + k) * 60)
                let steps = Double((index + k + round) % 90 + 10)
                return Sample(
                    type: .stepCount, start: start, end: start + 60, value: .quantity(steps, unit: "count"),
                    source: Source(name: "Phone"), uuid: UUID())
            }
            let body = try SampleWire.encoder().encode(SampleBatch(samples: samples.map(SampleWire.init)))
            let written = try await call(
                client, "POST /v1/samples", writer, "/v1/samples", method: .POST, token: token, body: body, tally: tally,
                idempotencyKey: UUID().uuidString)
            guard let written, (written as? [String: Any])?["added"] as? Int == 20 else {
                tally.fail("write not acknowledged")
                return acknowledged  // the feed checks below assume every round was stored
            }
            acknowledged += 1
            let thisDay = round * 20 / 1440
            if thisDay != day { (day, dayTotal) = (thisDay, 0) }
            dayTotal += samples.compactMap(\.value.number).reduce(0, +)
            // Read on the other server: exactly the 20 acknowledged, in order.
            let page =
                try await call(
                    client, "GET /v1/changes", reader, "/v1/changes?type=HKQuantityTypeIdentifierStepCount&since=\(anchor)",
                    token: token, tally: tally) as? [String: Any]
            let uuids = Self.uuids(of: page)
            if uuids != samples.map(\.uuid) { tally.fail("feed read inconsistent") }
            anchor = (page?["next_anchor"] as? NSNumber)?.int64Value ?? anchor
            if round % 5 == 4 {
                let date = LocalDate(base.addingTimeInterval(Double(thisDay) * 86400), in: TimeZone(identifier: "UTC")!)
                let days =
                    try await call(
                        client, "GET /v1/daily-metrics", reader, "/v1/daily-metrics?from=\(date)&to=\(date)", token: token,
                        tally: tally) as? [[String: Any]]
                if (days?.first?["steps_normalized"] as? NSNumber)?.doubleValue != dayTotal {
                    tally.fail("daily metrics inconsistent")
                }
            }
            round += 1
        }
        return acknowledged
    }

    /// One request; its latency recorded under `route @ server`; `nil` (a failure counted) when not 200.
    static func call(
        _ client: HTTPClient, _ route: String, _ server: String, _ path: String, method: HTTPMethod = .GET, token: String,
        body: Data? = nil, tally: Tally, idempotencyKey: String? = nil
    ) async throws -> Any? {
        var request = HTTPClientRequest(url: server + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let idempotencyKey { request.headers.add(name: "Idempotency-Key", value: idempotencyKey) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(data: body))
        }
        let started = Date()
        do {
            let response = try await client.execute(request, timeout: .seconds(60))
            let bytes = try await response.body.collect(upTo: 64 << 20)
            tally.record("\(route) @ \(server)", Date().timeIntervalSince(started))
            guard response.status == .ok else {
                tally.fail("\(route) \(response.status.code)")
                return nil
            }
            return try JSONSerialization.jsonObject(with: Data(buffer: bytes))
        } catch {
            tally.fail("\(route) \(type(of: error))")
            return nil
        }
    }

    /// A user's whole step feed, by UUID, in order.
    static func feed(_ server: String, token: String, client: HTTPClient) async throws -> [UUID] {
        var uuids: [UUID] = []
        var anchor: Int64 = 0
        let tally = Tally()
        while true {
            let page =
                try await call(
                    client, "feed", server, "/v1/changes?type=HKQuantityTypeIdentifierStepCount&since=\(anchor)&limit=10000",
                    token: token, tally: tally) as? [String: Any]
            guard let page else { throw ExitCode(1) }
            uuids += Self.uuids(of: page)
            anchor = (page["next_anchor"] as? NSNumber)?.int64Value ?? anchor
            if page["has_more"] as? Bool != true { return uuids }
        }
    }

    /// The UUIDs of a `GET /v1/changes` page, in order.
    static func uuids(of page: [String: Any]?) -> [UUID] {
        (page?["changes"] as? [[String: Any]] ?? []).compactMap { ($0["uuid"] as? String).flatMap { UUID(uuidString: $0) } }
    }

    static func report(_ tally: Tally, elapsed: Double, servers: [String]) -> String {
        var rows = [["route @ server", "requests", "req/s", "p50 ms", "p99 ms"]]
        var total = 0
        for (route, values) in tally.latencies.sorted(by: { $0.key < $1.key }) {
            let sorted = values.sorted()
            func percentile(_ p: Double) -> String {
                String(format: "%.1f", sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000)
            }
            total += sorted.count
            rows.append([
                route, String(sorted.count), String(format: "%.0f", Double(sorted.count) / elapsed), percentile(0.5),
                percentile(0.99),
            ])
        }
        rows.append(["all", String(total), String(format: "%.0f", Double(total) / elapsed), "", ""])
        return TextTable.render(rows, leftAligned: [0])
    }
}

import ArgumentParser
import Foundation
import HealthCore
import HealthImport
import HealthSQLite
import HealthServer
import HealthServerHost
import HealthServerRecords
import HealthServerStorage
import HealthSync
import HealthSynth
import HealthWire
import Logging

struct BenchSync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync a store to a loopback server; the same items posted as plain JSON to POST /v1/samples.",
        discussion: """
            Without --db it generates a year (synthetic export, 365 days) and imports it first \
            (not timed). A server runs in this process on loopback with a fresh data folder; \
            the sync (sealed, compressed batches, backfill of everything) and the plain post \
            (the change feed's samples as JSON, the same batch size, one Idempotency-Key each) \
            go to two users of it. Printed: items, seconds, items/s, bytes on the wire per item.

            With --scattered N, after the sync it changes N samples (in a copy of the store) scattered over the synced \
            year (new step counts and heart rates at random instants, a fifth of them deletions \
            of synced step counts) and times their drain: the sync of the changes and the days \
            they leave to compute, until a read of the year's days answers. The plain post is \
            skipped then.
            """)

    @Option(help: "The store to sync (default: a generated year).")
    var db: String?

    @Option(help: "Items per batch, for both.")
    var batchSize = 500

    @Option(help: "Changes scattered over the year to drain after the sync (0: none; skips the plain post).")
    var scattered = 0

    @Option(help: "Folder for the generated year, the server and the sync state.")
    var dir: String = NSTemporaryDirectory() + "healthpipe-bench-sync"

    func run() async throws {
        let folder = URL(fileURLWithPath: dir)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let serverFolder = folder.appendingPathComponent("server-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: serverFolder) }
        var store = try await source(in: folder)
        if scattered > 0 {
            // The changes go to a copy: the store given (or the generated year, reused by the
            // next run) stays as it was.
            let copy = serverFolder.path + "-changed.sqlite"
            try await store.copy(to: copy)
            store = try HealthDatabase(path: copy)
        }
        defer {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: serverFolder.path + "-changed.sqlite" + suffix)
            }
        }
        let types = try store.sampleCountsByType().keys.sorted().map(SampleType.init)
        let server = try await LoopbackServer.start(folder: serverFolder)
        defer { server.stop() }

        // The sync: enrol, then everything in sealed batches.
        let state = try SyncState(folder: serverFolder.appendingPathComponent("sync").path)
        let syncToken = try await server.token("sync")
        let syncTransport = HTTPSyncTransport(baseURL: server.url, token: syncToken, timeout: 120)
        _ = try await DeviceEnrolment.enrol(
            server: server.url, token: syncToken, name: "bench", state: state, transport: syncTransport)
        var configuration = SyncConfiguration()
        configuration.batchSize = batchSize
        configuration.backfill = .all
        configuration.dayZone = TimeZone(identifier: "UTC")!
        let engine = SyncEngine(
            source: store.store, state: state, transport: syncTransport, configuration: configuration, types: { types })
        let syncStart = Date()
        let report = try await engine.runOnce()
        let syncSeconds = Date().timeIntervalSince(syncStart)
        if scattered > 0 {
            print(String(format: "Sync of the store: %d items in %.1f s", report.itemsSent, syncSeconds))
            try await drainScattered(store: store, engine: engine, transport: syncTransport, before: report)
            return
        }

        // The plain post: the same samples, from the same feed, as JSON.
        let plainToken = try await server.token("plain")
        let plainTransport = HTTPSyncTransport(baseURL: server.url, token: plainToken, timeout: 120)
        let plainStart = Date()
        var (plainItems, plainBytes) = (0, 0)
        let encoder = SampleWire.encoder()
        for type in types {
            var anchor = QueryAnchor.initial
            while true {
                let page = try await store.store.changes(of: type, since: anchor, limit: batchSize)
                if !page.samples.isEmpty {
                    let body = try encoder.encode(SampleBatch(samples: page.samples.map(SampleWire.init)))
                    let response = try await plainTransport.send(
                        SyncRequest(
                            method: "POST", path: "/v1/samples?tz=UTC",
                            headers: ["Content-Type": "application/json", "Idempotency-Key": UUID().uuidString], body: body))
                    guard response.status == 200 else {
                        throw ValidationError("the plain post got HTTP \(response.status): \(response.problemDetail ?? "")")
                    }
                    plainItems += page.samples.count
                    plainBytes += body.count
                }
                anchor = page.nextAnchor
                if !page.hasMore { break }
            }
        }
        let plainSeconds = Date().timeIntervalSince(plainStart)

        print("Store: \(store.path), \(types.count) types; batches of \(batchSize)")
        for (name, items, bytes, seconds) in [
            ("sync (sealed)", report.itemsSent, report.bytesSent, syncSeconds),
            ("plain POST /v1/samples", plainItems, plainBytes, plainSeconds),
        ] {
            print(
                "  " + name.padding(toLength: 24, withPad: " ", startingAt: 0)
                    + String(
                        format: "%8d items  %7.1f s  %8.0f items/s  %6.1f bytes/item  (%@ on the wire)", items, seconds,
                        Double(items) / seconds, Double(bytes) / Double(max(items, 1)), ImportReport.bytes(Int64(bytes))))
        }
        print(
            String(
                format: "Sync/plain: %.2f× the items/s, %.2f× the bytes per item; %d retries, %d dead letters",
                (Double(report.itemsSent) / syncSeconds) / (Double(plainItems) / plainSeconds),
                (Double(report.bytesSent) / Double(max(report.itemsSent, 1))) / (Double(plainBytes) / Double(max(plainItems, 1))),
                report.retries, report.deadLetters))
    }

    /// Changes ``scattered`` samples over the synced span, then times the sync of the changes
    /// and the read of the span's days that follows (it computes what is still dirty first).
    /// `before` is the engine's report after the first sync (its counts add up).
    private func drainScattered(
        store: HealthDatabase, engine: SyncEngine, transport: HTTPSyncTransport, before: SyncReport
    ) async throws {
        let steps = try await store.store.changes(of: .stepCount, since: .initial, limit: 10_000_000).samples
        guard let first = steps.map(\.start).min(), let last = steps.map(\.end).max(), first < last else {
            throw ValidationError("the store has no step counts to scatter changes among")
        }
        var random = SplitMix(seed: 37)
        let deletions = min(scattered / 5, steps.count)
        let added = (0..<(scattered - deletions)).map { index -> Sample in
            let start = first + Double.random(in: 0..<last.timeIntervalSince(first), using: &random)
            return index.isMultiple(of: 2)
                ? Sample(
                    type: .heartRate, start: start, end: start,
                    value: .quantity(Double(Int.random(in: 55...150, using: &random)), unit: "count/min"),
                    source: Source(name: "Bench edits"), uuid: UUID())
                : Sample(
                    type: .stepCount, start: start, end: start + 60,
                    value: .quantity(Double(Int.random(in: 10...300, using: &random)), unit: "count"),
                    source: Source(name: "Bench edits"), uuid: UUID())
        }
        var removed = Set<UUID>()
        while removed.count < deletions { removed.insert(steps[Int.random(in: 0..<steps.count, using: &random)].uuid) }
        _ = try await store.store.add(added)
        _ = try await store.store.delete(uuids: Array(removed))
        let start = Date()
        let report = try await engine.runOnce()
        let synced = Date().timeIntervalSince(start)
        let zone = TimeZone(identifier: "UTC")!
        let (from, to) = (LocalDate(first, in: zone), LocalDate(last, in: zone))
        let days = try await transport.send(
            SyncRequest(method: "GET", path: "/v1/daily-metrics?from=\(from)&to=\(to)"))
        guard days.status == 200 else { throw ValidationError("the read of the days got HTTP \(days.status)") }
        let total = Date().timeIntervalSince(start)
        print(
            String(
                format: "Scattered drain: %d changes (%d added, %d deleted) over %@ – %@: %d items in %d batches synced "
                    + "in %.1f s, days read at %.1f s: %.1f s in all, %.0f changes/s",
                added.count + removed.count, added.count, removed.count, from.description, to.description,
                report.itemsSent - before.itemsSent, report.batchesSent - before.batchesSent, synced, total, total,
                Double(added.count + removed.count) / total))
    }

    /// The store given, or a generated year imported once into `folder`.
    private func source(in folder: URL) async throws -> HealthDatabase {
        if let db { return try HealthDatabase(path: db) }
        let path = folder.appendingPathComponent("year.sqlite").path
        if !FileManager.default.fileExists(atPath: path) {
            let export = folder.appendingPathComponent("year.xml")
            print("Generating and importing a year into \(path)…")
            try await SyntheticExport(configuration: .init(days: 365, seed: 2026)).write(to: export)
            let database = try HealthDatabase(path: path)
            _ = try await HealthImporter(database: database).run(path: export.path)
            try? FileManager.default.removeItem(at: export)
            return database
        }
        return try HealthDatabase(path: path)
    }
}

/// `healthpipe serve` in this process, on a free loopback port, over a fresh folder.
struct LoopbackServer {
    let url: URL
    let host: ServerHost
    let task: Task<Void, any Error>

    static func start(folder: URL) async throws -> LoopbackServer {
        let host = try await ServerHost.open(
            .sqlite(path: folder.appendingPathComponent("server.sqlite").path, dataFolder: folder.path),
            dataFolder: folder.path)
        var configuration = ServerConfiguration()
        configuration.port = try freePort()
        configuration.requestsPerMinute = 1_000_000
        var logger = Logger(label: "healthpipe.bench")
        logger.logLevel = .critical  // the shutdown at the end is not news
        let app = try host.application(configuration: configuration, logger: logger)
        let task = Task { try await app.runService() }
        let url = URL(string: "http://127.0.0.1:\(configuration.port)")!
        let probe = HTTPSyncTransport(baseURL: url, token: "", timeout: 1)
        for _ in 0..<100 {
            if (try? await probe.send(SyncRequest(method: "GET", path: "/healthz")))?.status == 200 {
                return LoopbackServer(url: url, host: host, task: task)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        task.cancel()
        throw ValidationError("the loopback server did not start")
    }

    func token(_ name: String) async throws -> String {
        try await host.repositories.users.addUser(name: name, scopes: [.read, .write]).1.text
    }

    func stop() { task.cancel() }

    /// A port nothing listens on now (the kernel's choice for port 0).
    static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(socket, raw, length) == 0 && getsockname(socket, raw, &length) == 0
            }
        }
        guard bound else { throw ValidationError("no free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

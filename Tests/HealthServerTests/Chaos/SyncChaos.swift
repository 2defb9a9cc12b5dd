import Foundation
import HealthCore
import HealthSQLite
import HealthSync
import HealthWire

#if canImport(Glibc)
    import Glibc
#endif

/// One run of the sync under faults (`scripts/sync-chaos` runs it at full size): a real
/// `healthpipe serve` behind a ``FaultProxy``, `healthpipe sync --once` processes killed
/// with SIGKILL at random points and started again, the server killed and restarted, and
/// this process adding and deleting samples in the device's store all along. Then the
/// faults stop, the device drains, and the two stores are read back for comparison; the
/// ending scenarios follow (``endingScenarios(device:server:proxyURL:secondToken:)``).
struct SyncChaos {
    struct Settings {
        /// Samples in the device's store before the sync starts.
        var samples = 2000
        /// How long the faults last, in seconds.
        var seconds = 20.0
        /// Items per batch.
        var batchSize = 100
        /// The share of connections the proxy breaks.
        var faultRate = 0.5
        /// Seconds a request may take while faults are on (the stalls outlast it).
        var timeout = 2.0

        /// The defaults, or `HEALTHPIPE_CHAOS_SAMPLES`, `_SECONDS`, `_BATCH` when set.
        static func fromEnvironment() -> Settings {
            let environment = ProcessInfo.processInfo.environment
            var settings = Settings()
            if let value = environment["HEALTHPIPE_CHAOS_SAMPLES"].flatMap(Int.init) { settings.samples = value }
            if let value = environment["HEALTHPIPE_CHAOS_SECONDS"].flatMap(Double.init) { settings.seconds = value }
            if let value = environment["HEALTHPIPE_CHAOS_BATCH"].flatMap(Int.init) { settings.batchSize = value }
            return settings
        }
    }

    /// What happened, and what each side holds at the end.
    struct Outcome {
        var device: [UUID: SampleWire] = [:]
        var server: [UUID: SampleWire] = [:]
        var faults: [FaultProxy.Fault: Int] = [:]
        var clientRuns = 0
        var clientKills = 0
        var serverKills = 0
        var writerAdded = 0
        var writerDeleted = 0
        var drainRuns = 0
        var pendingBatches = 0
        var deadLetters = 0
        var chaosSeconds = 0.0
        var drainSeconds = 0.0
        /// Samples on the device at the end that start after the faults began (stored
        /// before the first sync: planned, or a clock ahead).
        var futureDated = 0
        /// The scenarios after the drain, each compared on its own.
        var scenarios: [Scenario] = []

        var summary: String {
            let faultList = FaultProxy.Fault.allCases.map { "\($0.rawValue) \(faults[$0, default: 0])" }
                .joined(separator: ", ")
            return """
                sync chaos: \(device.count) samples on the device, \(server.count) on the server; \
                writer added \(writerAdded), deleted \(writerDeleted); \(clientRuns) client runs, \
                \(clientKills) SIGKILLed; server SIGKILLed \(serverKills) times; requests: \(faultList); \
                faults for \(String(format: "%.0f", chaosSeconds)) s, drained in \(drainRuns) run(s), \
                \(String(format: "%.1f", drainSeconds)) s; \(pendingBatches) pending, \(deadLetters) dead letters; \
                \(futureDated) dated ahead
                """ + scenarios.map { "\n  \($0.summary)" }.joined()
        }
    }

    static let types: [SampleType] = [.stepCount, .heartRate, .activeEnergyBurned, .sleepAnalysis]
    static let end = Date(timeIntervalSince1970: 1_735_000_000)

    let settings: Settings
    let folder: URL

    init(settings: Settings) throws {
        self.settings = settings
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("healthpipe-chaos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Removes the folder, unless `HEALTHPIPE_CHAOS_KEEP` is set (its logs and stores then stay).
    func cleanUp() {
        if ProcessInfo.processInfo.environment["HEALTHPIPE_CHAOS_KEEP"] != nil {
            print("sync chaos: kept \(folder.path)")
        } else {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    var deviceDB: String { folder.appendingPathComponent("device.sqlite").path }
    var serverDB: String { folder.appendingPathComponent("server/server.sqlite").path }
    var stateFolder: String { folder.appendingPathComponent("state").path }
    func log(_ name: String) -> URL { folder.appendingPathComponent("\(name).log") }

    /// The last lines the child processes wrote, for a failure's message.
    func logTail(lines: Int = 30) -> String {
        ["server", "sync", "drain"].map { name in
            let text = (try? String(contentsOf: log(name), encoding: .utf8)) ?? ""
            return "--- \(name).log\n" + text.split(separator: "\n").suffix(lines).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    func run() async throws -> Outcome {
        var outcome = Outcome()
        let device = try HealthDatabase(path: deviceDB)
        _ = try await device.store.add((0..<settings.samples).map { _ in Self.randomSample() })
        // Samples dated 1 to 30 days ahead, stored before the first sync (issue 33): neither
        // the feed (it starts after them) nor a history read up to now would carry them.
        // Whole seconds, as the other samples (the wire carries milliseconds).
        let ahead = DateInterval(
            start: Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 86400).rounded()), duration: 29 * 86400)
        _ = try await device.store.add((0..<max(settings.samples / 100, 10)).map { _ in Self.randomSample(in: ahead) })

        try FileManager.default.createDirectory(
            atPath: (serverDB as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let token = try ChildProcess.output(["users", "add", "chaos", "--server-db", serverDB])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        // The person of the ending scenario whose data ended a year ago.
        let secondToken = try ChildProcess.output(["users", "add", "chaos-old", "--server-db", serverDB])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let serverPort = try FaultProxy.freePort()
        let server = ServerProcess(
            arguments: [
                "serve", "--server-db", serverDB, "--port", "\(serverPort)", "--rate-limit", "1000000",
            ], port: serverPort, log: log("server"))
        try await server.start()
        let proxy = try FaultProxy(upstreamPort: serverPort)
        defer {
            proxy.stop()
            server.kill()
        }
        let proxyURL = "http://127.0.0.1:\(proxy.port)"
        // The token in the environment, not on the command line (issue 32, L9).
        _ = try ChildProcess.output(
            ["devices", "enrol", "--server", proxyURL, "--name", "chaos", "--state", stateFolder],
            environment: ["HEALTHPIPE_TOKEN": token])

        // Faults: the proxy breaks connections, the server and the client are killed, the
        // store changes under the client.
        let chaosStart = Date()
        // The faults last `seconds`, longer (up to four times) until every kind of fault
        // and a client kill have happened: a loaded machine starts processes slowly.
        let deadline = chaosStart.addingTimeInterval(settings.seconds)
        let latest = chaosStart.addingTimeInterval(4 * settings.seconds)
        let stop = StopFlag()
        proxy.setFaultRate(settings.faultRate)
        async let writer = Self.write(to: device, until: stop)
        async let serverKills = server.killAndRestart(until: stop)
        var sequenceOfRuns = 0
        while Date() < deadline
            || (Date() < latest && (outcome.clientKills == 0 || proxy.faultCounts.count < FaultProxy.Fault.allCases.count))
        {
            let client = try ChildProcess(
                syncArguments(db: deviceDB, state: stateFolder, timeout: settings.timeout), log: log("sync"))
            sequenceOfRuns += 1
            let status = await client.wait(seconds: Double.random(in: 0.3...4))
            if status == nil {
                client.kill()
                await client.wait(seconds: 10)
                outcome.clientKills += 1
            } else if status == 0 {
                try await Task.sleep(for: .milliseconds(200))  // drained: let the writer add more
            }
        }
        stop.set()
        (outcome.writerAdded, outcome.writerDeleted) = try await writer
        outcome.serverKills = try await serverKills
        outcome.clientRuns = sequenceOfRuns
        outcome.chaosSeconds = Date().timeIntervalSince(chaosStart)
        outcome.faults = proxy.faultCounts

        // No more faults: the device drains.
        proxy.setFaultRate(0)
        try await server.ensureRunning()
        let drainStart = Date()
        while outcome.drainRuns < 10 {
            outcome.drainRuns += 1
            let client = try ChildProcess(syncArguments(db: deviceDB, state: stateFolder, timeout: 120), log: log("drain"))
            if await client.wait(seconds: 1800) == 0 { break }
        }
        outcome.drainSeconds = Date().timeIntervalSince(drainStart)
        server.terminate()
        await server.waitForExit()

        let state = try SyncState(folder: stateFolder)
        outcome.pendingBatches = try state.outbox().count
        outcome.deadLetters = try state.deadLetters().count
        outcome.device = try await SyncEndToEndTests.contents(device.store, types: Self.types)
        outcome.server = try await serverSamples(of: stateFolder)
        outcome.futureDated = outcome.device.values.count(where: { $0.start > chaosStart })

        outcome.scenarios = try await endingScenarios(
            device: device, server: server, proxyURL: proxyURL, secondToken: secondToken)
        return outcome
    }

    /// `healthpipe sync --once` of the store `db` with the state in `state`; `backfill`:
    /// `--backfill-days` (`nil`: the default).
    func syncArguments(db: String, state: String, timeout: Double, backfill: String? = "all") -> [String] {
        ["sync", "--once", "--quiet", "--db", db, "--state", state]
            + (backfill.map { ["--backfill-days", $0] } ?? [])
            + ["--batch-size", "\(settings.batchSize)", "--timeout", "\(timeout)", "--home-tz", "UTC"]
    }

    /// The samples the server holds for the person the state in `state` is enrolled as
    /// (read from their store: the server must be stopped).
    func serverSamples(of state: String) async throws -> [UUID: SampleWire] {
        guard let user = try SyncState(folder: state).enrolment()?.userID else {
            throw ChaosError("no enrolment in \(state)")
        }
        let path = folder.appendingPathComponent("server/users/\(user).sqlite").path
        guard FileManager.default.fileExists(atPath: path) else { return [:] }
        return try await SyncEndToEndTests.contents(HealthDatabase(path: path).store, types: Self.types)
    }

    /// Adds a few samples and deletes a few (by UUID, sometimes an hour of one type) every
    /// 20–150 ms until `stop` is set; the samples added and the samples deleted.
    static func write(to device: HealthDatabase, until stop: StopFlag) async throws -> (Int, Int) {
        var known = try await Array(SyncEndToEndTests.contents(device.store, types: types).keys)
        var (added, deleted) = (0, 0)
        while !stop.value {
            let new = (0..<Int.random(in: 1...10)).map { _ in randomSample() }
            added += try await device.store.add(new)
            known += new.map(\.uuid)
            let victims = (0..<Int.random(in: 0...5)).compactMap { _ in known.randomElement() }
            deleted += try await device.store.delete(uuids: victims).deleted.count
            if Int.random(in: 0..<20) == 0 {
                let hour = DateInterval(
                    start: end.addingTimeInterval(-Double(Int.random(in: 1...(120 * 24))) * 3600), duration: 3600)
                deleted += try await device.store.delete(.heartRate, overlapping: hour, source: nil).deleted.count
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 20...150)))
        }
        return (added, deleted)
    }

    /// A sample of one of ``types`` starting in `span` (default: the 120 days before
    /// ``end``), of one of two sources; one in three with a writer-given UUID.
    static func randomSample(
        in span: DateInterval = DateInterval(start: SyncChaos.end.addingTimeInterval(-120 * 86400), end: SyncChaos.end)
    ) -> Sample {
        let type = types.randomElement()!
        let start = span.end.addingTimeInterval(-Double.random(in: 0..<span.duration).rounded())
        let watch = Bool.random()
        let value: SampleValue =
            switch type {
            case .heartRate: .quantity(Double(Int.random(in: 40...190)), unit: "count/min")
            case .stepCount: .quantity(Double(Int.random(in: 1...3000)), unit: "count")
            case .activeEnergyBurned: .quantity(Double(Int.random(in: 1...5000)) / 100, unit: "kcal")
            default:
                .category(["HKCategoryValueSleepAnalysisAsleepCore", "HKCategoryValueSleepAnalysisAsleepREM"].randomElement()!)
            }
        return Sample(
            type: type, start: start, end: type == .heartRate ? start : start + Double(Int.random(in: 60...1800)),
            value: value,
            source: Source(name: watch ? "Jane’s Apple Watch" : "Jane’s iPhone", version: "11.2"),
            device: watch ? Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch") : nil,
            metadata: Bool.random() ? [MetadataEntry(key: "HKTimeZone", value: "Europe/Paris")] : [],
            uuid: Int.random(in: 0..<3) == 0 ? UUID() : nil)
    }

}

/// `healthpipe serve`, started again after each kill on the same port.
final class ServerProcess: @unchecked Sendable {
    let arguments: [String]
    let port: Int
    let log: URL
    private let lock = NSLock()
    private var process: ChildProcess?

    init(arguments: [String], port: Int, log: URL) {
        self.arguments = arguments
        self.port = port
        self.log = log
    }

    /// Starts the server and waits until `/healthz` answers.
    func start() async throws {
        let child = try ChildProcess(arguments, log: log)
        lock.withLock { process = child }
        let probe = HTTPSyncTransport(baseURL: URL(string: "http://127.0.0.1:\(port)")!, token: "", timeout: 1)
        for _ in 0..<600 {
            if (try? await probe.send(SyncRequest(method: "GET", path: "/healthz")))?.status == 200 { return }
            guard child.isRunning else { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ChaosError("healthpipe serve did not start; see \(log.path)")
    }

    func ensureRunning() async throws {
        if lock.withLock({ process?.isRunning }) != true { try await start() }
    }

    /// SIGKILLs the server every 2–6 s and starts it again 0.1–1 s later, until
    /// `stop` is set; how many times it was killed.
    func killAndRestart(until stop: StopFlag) async throws -> Int {
        var kills = 0
        while true {
            try await Task.sleep(for: .milliseconds(Int.random(in: 2000...6000)))
            guard !stop.value else { return kills }
            kill()
            kills += 1
            await lock.withLock { process }?.wait(seconds: 10)
            try await Task.sleep(for: .milliseconds(Int.random(in: 100...1000)))
            try await start()
        }
    }

    func kill() { lock.withLock { process }?.kill() }
    func terminate() { lock.withLock { process }?.terminate() }
    func waitForExit() async { await lock.withLock { process }?.wait(seconds: 30) }
}

/// Set once, read from any task.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false
    var value: Bool { lock.withLock { isSet } }
    func set() { lock.withLock { isSet = true } }
}

import ArgumentParser
import Foundation
import HealthCore
import HealthSQLite
import HealthSync

struct SyncRun: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Sync once (--once, the default) or keep syncing (--watch).")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var stateOptions: SyncStateOptions

    @Option(help: "The server (default: the one enrolled with).")
    var server: String?

    @Option(help: "conservative | default | aggressive (batch size, interval, upload conditions).")
    var config = "default"

    @Option(help: "Items per batch (default: the configuration's: 100, 500 or 2000).")
    var batchSize: Int?

    @Option(
        help:
            "Types to sync, comma-separated: short names or HealthKit identifiers (default: every type in the store or synced before)."
    )
    var types: String?

    @Option(
        name: .customLong("backfill-days"),
        help: "History to send: days back from each type's newest sample, or all (a larger value later sends the rest).")
    var backfillDays = "90"

    @Option(
        help: "The zone of days without HKTimeZone evidence, for the server's daily metrics (default: this machine's).")
    var homeTz: String?

    @Option(name: .customLong("tz"), help: .hidden)
    var explicitZone: String?

    @Option(help: "Seconds one request may take.")
    var timeout: Double?

    @Flag(help: "Read, upload and drain what can be, then exit (the default).")
    var once = false

    @Flag(help: "Keep running: sync when the store changes or the interval passes, until SIGINT or SIGTERM.")
    var watch = false

    @Flag(help: "No progress line.")
    var quiet = false

    func validate() throws {
        guard SyncConfiguration.preset(config) != nil else {
            throw ValidationError("--config must be \(SyncConfiguration.presetNames.joined(separator: ", ")), not '\(config)'")
        }
        guard backfillDays == "all" || Int(backfillDays).map({ $0 >= 0 }) == true else {
            throw ValidationError("--backfill-days must be a number of days or all, not '\(backfillDays)'")
        }
        if explicitZone != nil {
            throw ValidationError(
                "--tz reads a command's own dates in one zone; the zone the server gives days without HKTimeZone evidence is --home-tz"
            )
        }
        if let homeTz, TimeZone(identifier: homeTz) == nil {
            throw ValidationError("--home-tz must be an IANA zone, not '\(homeTz)'")
        }
        if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
        if let batchSize, !(1...20_000).contains(batchSize) {
            throw ValidationError("--batch-size must be 1–20000 (the server's limit per batch)")
        }
        if once && watch { throw ValidationError("give --once or --watch, not both") }
        if let server {
            do {
                try SyncServerURL.validate(server)
            } catch {
                throw ValidationError("--server: \(error)")
            }
        }
    }

    func run() async throws {
        let store = try database.open()
        let (state, enrolment) = try stateOptions.openEnrolled()
        var configuration = SyncConfiguration.preset(config)!
        configuration.backfill = backfillDays == "all" ? .all : .days(Int(backfillDays)!)
        if let homeTz { configuration.dayZone = TimeZone(identifier: homeTz)! }
        if let timeout { configuration.requestTimeout = timeout }
        if let batchSize { configuration.batchSize = batchSize }
        let stored = types == nil ? [] : try await store.store.storedSampleTypes()
        let chosen = try types?.split(separator: ",").map {
            try TypeArgument.resolve(String($0).trimmingCharacters(in: .whitespaces), storedTypes: stored)
        }
        configuration.types = chosen
        let transport = HTTPSyncTransport(
            baseURL: try SyncStateOptions.serverURL(server ?? enrolment.server), token: try state.credentials().token,
            timeout: configuration.requestTimeout)
        let stop = StopSignal()
        let progress = ProgressLine(enabled: !quiet && isatty(STDERR_FILENO) == 1)
        let engine = SyncEngine(
            source: store.store, state: state, transport: transport, configuration: configuration,
            types: { try chosen ?? store.sampleCountsByType().keys.sorted().map(SampleType.init) },
            onEvent: { event in SyncOutput.show(event, progress: progress) }, stopRequested: { stop.requested })
        stop.install { Task { await engine.wake() } }
        let started = Date()
        var failure: SyncError?
        do {
            if watch {
                try await engine.watch(changes: store.observe(chosen.map(Set.init))) { error in
                    progress.clear()
                    printError("sync: \(error.description)")
                }
            } else {
                try await engine.runOnce()
            }
        } catch let error as SyncError {
            failure = error
        }
        progress.clear()
        let report = await engine.report
        let pending = try state.outbox()
        print(SyncOutput.summary(report, pending: pending, seconds: Date().timeIntervalSince(started)))
        if let failure { printError("error: \(failure.description)") }
        if report.deadLetters > 0 { printError("error: \(SyncError(.partialFailure(deadLetters: report.deadLetters)))") }
        if failure != nil || report.deadLetters > 0 || (!pending.isEmpty && !stop.requested) { throw ExitCode(1) }
    }
}

/// The lines `healthpipe sync` prints.
enum SyncOutput {
    static func show(_ event: SyncEvent, progress: ProgressLine) {
        switch event {
        case .backfill(let type, let cursor, _, let items):
            progress.show(
                line:
                    "  backfill \(type.identifier): \(items) samples, back to \(cursor.formatted(.iso8601.year().month().day()))")
        case .acknowledged: break
        case .retrying(let sequence, let attempt, let delay, let reason):
            progress.clear()
            printError(
                String(format: "sync: batch %lld attempt %d failed (%@); retrying in %.1f s", sequence, attempt, reason, delay))
        case .deadLettered(let sequence, let status, let reason):
            progress.clear()
            printError("sync: batch \(sequence) REFUSED by the server (HTTP \(status): \(reason)); moved to the dead letters")
        }
    }

    static func summary(_ report: SyncReport, pending: [OutboxBatch], seconds: Double) -> String {
        String(
            format: """
                read %d items into %d batches; sent %d batches (%d items, %@ on the wire) in %.1f s; \
                %d retries; %d dead letters; server: %d added, %d duplicates, %d deleted; outbox: %d pending
                """, report.itemsRead, report.batchesQueued, report.batchesSent, report.itemsSent,
            ImportReport.bytes(Int64(report.bytesSent)), seconds, report.retries, report.deadLetters, report.added,
            report.duplicates, report.deleted, pending.count)
    }
}

/// SIGINT and SIGTERM: the first asks the sync to stop after the batch in flight; the
/// second ends the process.
final class StopSignal: Sendable {
    private let flag = Locked(false)
    /// Kept for as long as the signal is: a source released stops delivering.
    private let sources = Locked<[any DispatchSourceSignal]>([])

    var requested: Bool { flag.withLock { $0 } }

    func install(_ onStop: @escaping @Sendable () -> Void) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [flag] in
                let again = flag.withLock { flag in
                    defer { flag = true }
                    return flag
                }
                if again { exit(130) }
                printError("\nsync: stopping after the batch in flight (again to quit now)")
                onStop()
            }
            source.resume()
            sources.withLock { $0.append(source) }
        }
    }
}

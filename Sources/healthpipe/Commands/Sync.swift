import ArgumentParser
import Foundation
import HealthCore
import HealthSQLite
import HealthSync

/// `--state`, shared by the device and sync commands.
struct SyncStateOptions: ParsableArguments {
    @Option(help: "The sync state folder (default: $XDG_STATE_HOME/healthpipe/sync).")
    var state: String?

    var folder: String { state ?? SyncState.defaultFolder() }

    /// The state, or exit 2 with how to enrol when there is none.
    func openEnrolled() throws -> (SyncState, Enrolment) {
        guard FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent("sync.sqlite")) else {
            printError(
                "error: no sync state in \(folder); run `HEALTHPIPE_TOKEN=… healthpipe devices enrol --server URL` first.")
            throw ExitCode(2)
        }
        let state = try SyncState(folder: folder)
        return (state, try state.requireEnrolment())
    }

    /// The transport to the enrolled server with the enrolment's token.
    func transport(_ state: SyncState, _ enrolment: Enrolment, timeout: Double = 30) throws -> HTTPSyncTransport {
        HTTPSyncTransport(
            baseURL: try Self.serverURL(enrolment.server), token: try state.credentials().token, timeout: timeout)
    }

    /// `text` as the server the token goes to: https://, or http:// to loopback only
    /// (``SyncServerURL``); exit 2 with why otherwise (a state enrolled before the rule may
    /// hold a plain http:// server elsewhere).
    static func serverURL(_ text: String) throws -> URL {
        do {
            return try SyncServerURL.validate(text)
        } catch let error as SyncServerURL.Refused {
            printError("error: \(error)")
            throw ExitCode(2)
        }
    }
}

struct Sync: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sync the store to a server: encrypted batches that lose nothing and duplicate nothing.",
        discussion: """
            Reads each type's changes (additions and deletions) since the last sync — and, the \
            first time, its history, newest first — into sealed batches in an outbox, then \
            uploads them in order with retries. Enrol first (`healthpipe devices enrol`). \
            docs/sync.md has the protocol and what each error means.
            """,
        subcommands: [SyncRun.self, SyncStatus.self], defaultSubcommand: SyncRun.self)
}

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

struct SyncStatus: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "The last success per type, pending and dead-letter batches, the anchors.")

    @OptionGroup var stateOptions: SyncStateOptions

    func run() async throws {
        let (state, enrolment) = try stateOptions.openEnrolled()
        print("device \(enrolment.deviceID) (\(enrolment.deviceName)) on \(enrolment.server)")
        let rows = try state.typeStates().values.sorted { $0.type.identifier < $1.type.identifier }.map { type -> [String] in
            let history =
                if let backfill = type.backfill {
                    "to \(ISO8601DateFormatter().string(from: backfill.cursor))"
                } else if let floor = type.historyFloor {
                    "done, back to \(ISO8601DateFormatter().string(from: floor))"
                } else {
                    "done, all"
                }
            return [
                type.type.identifier, type.lastSuccessAt.map { ISO8601DateFormatter().string(from: $0) } ?? "never",
                "\(type.saved)", "\(type.proposed)", "\(history) (\(type.backfillItems))",
            ]
        }
        print(
            TextTable.render([["type", "last success", "saved", "proposed", "backfill (items)"]] + rows, leftAligned: [0, 1, 4]))
        let pending = try state.outbox()
        print(
            "pending: \(pending.count) batch\(pending.count == 1 ? "" : "es"), \(pending.reduce(0) { $0 + $1.items }) items"
                + (pending.first.map { ", oldest \(ISO8601DateFormatter().string(from: $0.createdAt))" } ?? ""))
        for batch in pending where batch.attempts > 0 {
            print("  batch \(batch.sequence): \(batch.attempts) failed attempts, last: \(batch.lastError ?? "?")")
        }
        let dead = try state.deadLetters()
        print("dead letters: \(dead.count)")
        for letter in dead {
            print("  batch \(letter.sequence) (\(letter.items) items): HTTP \(letter.status): \(letter.reason)")
        }
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

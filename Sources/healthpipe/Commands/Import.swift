import ArgumentParser
import Foundation
import HealthCore
import HealthImport
import HealthImportReader
import HealthSQLite
import HealthServerRecords

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import an Apple Health export (export.zip, export.xml or the unpacked folder).")

    @Argument(help: "export.zip, export.xml, or an unpacked apple_health_export folder.")
    var path: String

    @OptionGroup var storage: StoreOptions

    @Flag(help: "Import even if this identical file was imported before.")
    var force = false

    @Flag(help: "No progress line.")
    var quiet = false

    func run() async throws {
        var options = HealthImporter.Options()
        options.force = force
        let progress = ProgressLine(enabled: !quiet && isatty(STDERR_FILENO) == 1)
        let interruption = Interruption()
        interruption.install(progress)
        defer { withExtendedLifetime(interruption) {} }
        var summary: ImportSummary
        // Where the store's data lies afterwards: each kind's first and last day.
        let spans: [SampleTypeSpan]
        do {
            (summary, spans) = try await storage.withStore(creating: true, building: true) { opened in
                let summary = try await opened.importExport(path: path, options: options) { progress.show($0) }
                // A server serving this store computes the days again before it answers them.
                if summary.totalAdded + summary.totalUpdated > 0 {
                    try await opened.markDirty([DirtySpan.everything], zone: nil)
                }
                return (summary, try await opened.queries.sampleSpans())
            }
        } catch let error as ImportError {
            interruption.holdIfUnderway()
            progress.clear()
            printError("error: \(error)")
            printError("Nothing was imported: the store is unchanged.")
            throw ExitCode(2)
        } catch let error as PrivateStoreBuild.Failure {
            interruption.holdIfUnderway()
            progress.clear()
            printError("error: \(error)")
            throw ExitCode(2)
        } catch {
            interruption.holdIfUnderway()
            throw error
        }
        progress.clear()
        // A new store was built under a private name and then moved to its own.
        if storage.url == nil { summary.databasePath = storage.file.path }
        print(ImportReport.render(summary, spans: spans))
    }
}

/// SIGINT and SIGTERM during an import: a new store's private build is removed before the
/// process ends (an existing store's transaction is never committed, unless it already was).
final class Interruption: Sendable {
    /// Kept for as long as the signal is: a source released stops delivering.
    private let sources = Locked<[any DispatchSourceSignal]>([])
    /// One queue for both signals: their handlers never run at once.
    private let queue = DispatchQueue(label: "healthpipe.import-interruption")
    /// Set by a handler before it removes the build: the import then fails on the files
    /// taken from under it, and must leave the process's end, and its message, to the
    /// handler (found: exit 1 and "disk I/O error" won the race against exit 130).
    private let underway = Locked(false)

    /// Waits for the process's end when a signal's handler is ending it.
    func holdIfUnderway() {
        guard underway.withLock({ $0 }) else { return }
        while true { sleep(60) }
    }

    func install(_ progress: ProgressLine) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [underway] in
                underway.withLock { $0 = true }
                let removed = PrivateStoreBuild.removeBuildsInProgress()
                progress.clear()
                // Into an existing store the import may have committed a moment ago: no claim.
                printError(removed > 0 ? "\nInterrupted: nothing was imported; the new store was not created." : "\nInterrupted.")
                exit(130)
            }
            source.resume()
            sources.withLock { $0.append(source) }
        }
    }
}

/// One line on standard error, redrawn in place (only on a terminal). Shared by the
/// sync engine's events and the command: the time of the last redraw and every write are
/// behind one lock, so two threads never interleave a line.
final class ProgressLine: Sendable {
    private let enabled: Bool
    /// Seconds since `started` at the last rate-limited redraw.
    private let lastShown = Locked(-1.0)
    private let started = Date()

    init(enabled: Bool) { self.enabled = enabled }

    func show(_ progress: ImportProgress) {
        guard enabled else { return }
        var line = String(
            format: "  %@ read, %@ records, %.1f MB/s", ImportReport.bytes(progress.bytes),
            ImportReport.count(progress.records), progress.megabytesPerSecond)
        if let fraction = progress.fraction { line += String(format: ", %.0f%%", fraction * 100) }
        if let remaining = progress.secondsRemaining { line += String(format: ", ETA %.0fs", remaining) }
        lastShown.withLock { _ in draw(line) }
    }

    /// A running count of `noun` with its rate, at most four redraws a second.
    func show(count: Int, of noun: String, since start: Date) {
        let elapsed = Date().timeIntervalSince(start)
        show(due: Date().timeIntervalSince(started)) {
            String(format: "  %@ %@, %.0f/s", ImportReport.count(count), noun, Double(count) / max(elapsed, 1e-3))
        }
    }

    /// `line`, at most four redraws a second.
    func show(line: String) {
        show(due: Date().timeIntervalSince(started)) { line }
    }

    func clear() {
        guard enabled else { return }
        lastShown.withLock { _ in draw("") }
    }

    /// Draws `line()` when a quarter of a second has passed since the last such redraw.
    private func show(due elapsed: TimeInterval, _ line: () -> String) {
        guard enabled else { return }
        lastShown.withLock { lastShown in
            guard elapsed - lastShown >= 0.25 else { return }
            lastShown = elapsed
            draw(line())
        }
    }

    /// Called under the lock.
    private func draw(_ line: String) {
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
    }
}

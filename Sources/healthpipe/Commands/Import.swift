import ArgumentParser
import Foundation
import HealthCore
import HealthImport
import HealthImportReader
import HealthStore

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import an Apple Health export (export.zip, export.xml or the unpacked folder).")

    @Argument(help: "export.zip, export.xml, or an unpacked apple_health_export folder.")
    var path: String

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var postgres: PostgresStoreOptions

    @Flag(help: "Import even if this identical file was imported before.")
    var force = false

    @Flag(help: "No progress line.")
    var quiet = false

    func run() async throws {
        var options = HealthImporter.Options()
        options.force = force
        let progress = ProgressLine(enabled: !quiet && isatty(STDERR_FILENO) == 1)
        let summary: ImportSummary
        // Where the store's data lies afterwards: each kind's first and last day.
        let spans: [SampleTypeSpan]
        do {
            if let imported = try await postgres.withStore(
                reading: false,
                { store in
                    let result = try await PostgresImporter(store: store, options: options).run(path: path) {
                        progress.show($0)
                    }
                    return (summary: result, spans: try await store.sampleSpans())
                })
            {
                summary = imported.summary
                spans = imported.spans
            } else {
                let store = try database.openOrCreate()
                summary = try await HealthImporter(database: store, options: options).run(path: path) { progress.show($0) }
                spans = try await store.store.sampleSpans()
            }
        } catch let error as ImportError {
            progress.clear()
            printError("error: \(error)")
            printError("Nothing was imported: the store is unchanged.")
            throw ExitCode(2)
        }
        progress.clear()
        print(ImportReport.render(summary, spans: spans))
    }
}

/// One line on standard error, redrawn in place (only on a terminal). Shared by the
/// sync engine's events and the command, hence the lock.
final class ProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private let enabled: Bool

    init(enabled: Bool) { self.enabled = enabled }

    func show(_ progress: ImportProgress) {
        guard enabled else { return }
        var line = String(
            format: "  %@ read, %@ records, %.1f MB/s", ImportReport.bytes(progress.bytes),
            ImportReport.count(progress.records), progress.megabytesPerSecond)
        if let fraction = progress.fraction { line += String(format: ", %.0f%%", fraction * 100) }
        if let remaining = progress.secondsRemaining { line += String(format: ", ETA %.0fs", remaining) }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
    }

    /// A running count of `noun` with its rate, at most four redraws a second.
    func show(count: Int, of noun: String, since start: Date) {
        let elapsed = Date().timeIntervalSince(start)
        guard enabled, elapsed - lastShown >= 0.25 else { return }
        lastShown = elapsed
        let line = String(format: "  %@ %@, %.0f/s", ImportReport.count(count), noun, Double(count) / max(elapsed, 1e-3))
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
    }

    private var lastShown = -1.0
    private let started = Date()

    /// `line`, at most four redraws a second.
    func show(line: String) {
        let elapsed = Date().timeIntervalSince(started)
        let due = lock.withLock { () -> Bool in
            guard enabled, elapsed - lastShown >= 0.25 else { return false }
            lastShown = elapsed
            return true
        }
        guard due else { return }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
    }

    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}

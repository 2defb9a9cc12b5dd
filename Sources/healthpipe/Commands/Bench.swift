import ArgumentParser
import Foundation
import HealthSynth

struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Benchmarks and accuracy checks.",
        subcommands: benchmarks)

    #if canImport(HealthKit)
        static let benchmarks: [any ParsableCommand.Type] = [
            BenchImport.self, BenchExport.self, BenchSync.self, BenchAccuracy.self, BenchLoad.self,
        ]
    #else
        static let benchmarks: [any ParsableCommand.Type] = [
            BenchImport.self, BenchExport.self, BenchSync.self, BenchAccuracy.self, BenchHealthKit.self, BenchLoad.self,
        ]
    #endif
}

struct BenchImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Time `healthpipe import` end to end on a large export.xml and report MB/s and peak RSS.",
        discussion: """
            Without --file it generates a synthetic export.xml of about --size-mb MB first (not timed). \
            Each import runs as its own process into a new database; peak RSS is that process's. \
            With --baseline CMD, the same file is also imported by `CMD --xml FILE OUT.db` \
            (e.g. healthkit-to-sqlite) and both figures are printed side by side.
            """)

    @Option(help: "An export.xml to import (default: generate one).")
    var file: String?

    @Option(help: "Size of the generated export.xml in MB.")
    var sizeMb = 150

    @Option(help: "Folder for the generated file and databases.")
    var dir: String = NSTemporaryDirectory() + "healthpipe-bench"

    @Option(help: "A baseline importer taking `--xml FILE OUT.db`, e.g. healthkit-to-sqlite.")
    var baseline: String?

    func run() throws {
        let folder = URL(fileURLWithPath: dir)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let xml: String
        if let file {
            xml = file
        } else {
            // About 0.37 MB per day at the default density (measured: 134.8 MB for 365 days).
            let days = max(1, Int((Double(sizeMb) / 0.37).rounded()))
            xml = folder.appendingPathComponent("bench-\(sizeMb)mb.xml").path
            if !FileManager.default.fileExists(atPath: xml) {
                print("Generating \(xml) (\(days) days)…")
                try SyntheticExport(configuration: .init(days: days, seed: 2026)).write(to: URL(fileURLWithPath: xml))
            }
        }
        let size = ((try FileManager.default.attributesOfItem(atPath: xml)[.size]) as? NSNumber)?.int64Value ?? 0
        print(String(format: "Input: %@ (%.1f MB)", xml, Double(size) / 1e6))
        let database = folder.appendingPathComponent("bench-healthpipe.sqlite").path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
        let ours = try ChildProcess.measure(CommandLine.arguments[0], ["import", xml, "--db", database, "--quiet"])
        report("healthpipe import", ours, size)
        if let baseline {
            let out = folder.appendingPathComponent("bench-baseline.db").path
            try? FileManager.default.removeItem(atPath: out)
            let theirs = try ChildProcess.measure(baseline, ["--xml", xml, out])
            report(baseline, theirs, size)
            print(String(format: "Speed-up: %.1f×", theirs.seconds / ours.seconds))
        }
    }

    private func report(_ name: String, _ run: ChildProcess.Measurement, _ size: Int64) {
        print(
            String(
                format: "%@: exit %d, %.2f s, %.1f MB/s, peak RSS %.1f MiB", name, run.status, run.seconds,
                Double(size) / 1e6 / run.seconds, Double(run.peakRSSKiB) / 1024))
    }
}

/// Runs a command as a child process and measures wall time and its peak RSS (wait4).
enum ChildProcess {
    struct Measurement {
        var status: Int32
        var seconds: Double
        var peakRSSKiB: Int
    }

    /// Runs `executable` with `arguments`, its standard output into `stdout` when given.
    static func measure(_ executable: String, _ arguments: [String], stdout: String? = nil) throws -> Measurement {
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdout { posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        var pid: pid_t = 0
        let started = Date()
        let spawned = posix_spawnp(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw ValidationError("cannot run \(executable) (error \(spawned))") }
        var status: Int32 = 0
        var usage = rusage()
        _ = wait4(pid, &status, 0, &usage)
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Measurement(status: exit, seconds: Date().timeIntervalSince(started), peakRSSKiB: Int(usage.ru_maxrss))
    }
}

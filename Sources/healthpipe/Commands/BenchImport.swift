import ArgumentParser
import Foundation
import HealthSynth

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

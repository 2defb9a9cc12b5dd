import ArgumentParser
import Foundation
import HealthSQLite
import HealthSynth

struct BenchImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Time `healthpipe import` end to end on a large export.xml and report MB/s and peak RSS.",
        discussion: """
            Without --file it generates a synthetic export.xml of about --size-mb MB first (not timed). \
            Each import runs as its own process into a new database; peak RSS is that process's. \
            With --baseline CMD, the same file is also imported by `CMD --xml FILE OUT.db` \
            (e.g. healthkit-to-sqlite) and both figures are printed side by side. \
            After the import, the same number of rows is written by SQLite alone (`InsertFloor`, \
            the store's schema and settings, no parsing) and the ratio to that floor is printed. \
            Then the import's own rows are written again by SQLite alone, in the order the import \
            stored them (`InsertFloor.replay`): the floor for these rows, which costs more than \
            made-up rows when an export interleaves types. \
            With --runs N, each of the N runs is printed and the medians last.
            """)

    @Option(help: "An export.xml to import (default: generate one).")
    var file: String?

    @Option(help: "Size of the generated export.xml in MB.")
    var sizeMb = 150

    @Option(help: "Folder for the generated exports (each size in a folder of its own, such as 150mb/) and the databases.")
    var dir: String = NSTemporaryDirectory() + "healthpipe-bench"

    @Option(help: "A baseline importer taking `--xml FILE OUT.db`, e.g. healthkit-to-sqlite.")
    var baseline: String?

    @Option(help: "Runs of the import and of the floor, alternated; medians are printed last.")
    var runs = 1

    @Flag(help: "Do not measure SQLite's floors (made-up rows, and the import's own rows replayed).")
    var noFloor = false

    func validate() throws {
        guard (1...20).contains(runs) else { throw ValidationError("--runs must be 1–20") }
    }

    func run() throws {
        let folder = URL(fileURLWithPath: dir)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let xml: String
        if let file {
            xml = file
        } else {
            // About 0.37 MB per day at the default density (measured: 134.8 MB for 365 days).
            let days = max(1, Int((Double(sizeMb) / 0.37).rounded()))
            // Each size in a folder of its own, as an export is laid out: in one folder, an
            // import of the 150 MB file also hashed the 1 GB file's routes (its identity
            // covers every file of `workout-routes/`), 0.05 s of its 0.75 s.
            let own = folder.appendingPathComponent("\(sizeMb)mb")
            try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
            xml = own.appendingPathComponent("bench-\(sizeMb)mb.xml").path
            if !FileManager.default.fileExists(atPath: xml) {
                print("Generating \(xml) (\(days) days)…")
                try SyntheticExport(configuration: .init(days: days, seed: 2026)).write(to: URL(fileURLWithPath: xml))
            }
        }
        let size = ((try FileManager.default.attributesOfItem(atPath: xml)[.size]) as? NSNumber)?.int64Value ?? 0
        print(String(format: "Input: %@ (%.1f MB)", xml, Double(size) / 1e6))
        let database = folder.appendingPathComponent("bench-healthpipe.sqlite").path
        var ours: [ChildProcess.Measurement] = []
        var floors: [InsertFloor.Timing] = []
        var replays: [InsertFloor.Timing] = []
        for _ in 0..<runs {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
            let run = try ChildProcess.measure(CommandLine.arguments[0], ["import", xml, "--db", database, "--quiet"])
            guard run.status == 0 else { throw ValidationError("healthpipe import exited with \(run.status)") }
            ours.append(run)
            report("healthpipe import", run, size)
            guard !noFloor else { continue }
            let rows = try InsertFloor.rows(inStoreAt: database)
            let floor = try InsertFloor.measure(
                path: folder.appendingPathComponent("bench-floor.sqlite").path, samples: rows.samples,
                details: rows.details)
            floors.append(floor)
            print(
                String(
                    format: "SQLite floor, %d samples + %d detail rows: %.2f s (inserts %.2f s, commit %.2f s);"
                        + " healthpipe / floor %@",
                    rows.samples, rows.details, floor.total, floor.inserts, floor.commit,
                    ratio(run.seconds, floor.total)))
            let replay = try InsertFloor.replay(
                storeAt: database, path: folder.appendingPathComponent("bench-replay.sqlite").path)
            replays.append(replay)
            print(
                String(
                    format: "SQLite alone, the import's rows in its order: %.2f s (inserts %.2f s, commit %.2f s);"
                        + " healthpipe / replay %@",
                    replay.total, replay.inserts, replay.commit, ratio(run.seconds, replay.total)))
        }
        if runs > 1 {
            let seconds = median(ours.map(\.seconds))
            let rss = ours.map(\.peakRSSKiB).max() ?? 0
            var line = String(
                format: "Median of %d: healthpipe %.2f s, %.1f MB/s, largest peak RSS %.1f MiB", runs, seconds,
                Double(size) / 1e6 / seconds, Double(rss) / 1024)
            if !floors.isEmpty {
                let floor = median(floors.map(\.total))
                let replay = median(replays.map(\.total))
                line += String(
                    format: "; floor %.2f s; healthpipe / floor %@; replay %.2f s; healthpipe / replay %@", floor,
                    ratio(seconds, floor), replay, ratio(seconds, replay))
            }
            print(line)
        }
        let ourMedian = median(ours.map(\.seconds))
        if let baseline {
            let out = folder.appendingPathComponent("bench-baseline.db").path
            try? FileManager.default.removeItem(atPath: out)
            let theirs = try ChildProcess.measure(baseline, ["--xml", xml, out])
            report(baseline, theirs, size)
            print(String(format: "Speed-up: %.1f×", theirs.seconds / ourMedian))
        }
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// `ours / floor` as `1.32×`, or `n/a` for a floor too short to divide by (a small file).
    private func ratio(_ ours: Double, _ floor: Double) -> String {
        floor >= 0.01 ? String(format: "%.2f×", ours / floor) : "n/a (floor under 10 ms)"
    }

    private func report(_ name: String, _ run: ChildProcess.Measurement, _ size: Int64) {
        print(
            String(
                format: "%@: exit %d, %.2f s, %.1f MB/s, peak RSS %.1f MiB", name, run.status, run.seconds,
                Double(size) / 1e6 / run.seconds, Double(run.peakRSSKiB) / 1024))
    }
}

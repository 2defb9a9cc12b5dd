import ArgumentParser
import Foundation
import HealthSQLite

struct BenchExport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Time `healthpipe export csv --all-metrics` against `sqlite3 -csv` reading the same rows.",
        discussion: """
            Both run as child processes on the same store; each one's wall time and peak RSS are \
            measured (wait4). The sqlite3 query reads the same samples (every quantity and category \
            type), joined to their type and source, in the same order, and prints them raw. Make a \
            large store with e.g. `healthpipe synth --days 300 --heart-rate-per-hour 720` (5 million \
            records) and `healthpipe import`.
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "Read every date and local time in this IANA zone: the exported local times.")
    var tz = "UTC"

    @Option(help: "Folder for the two CSV files.")
    var dir: String = NSTemporaryDirectory() + "healthpipe-bench"

    @Option(help: "The sqlite3 command-line shell.")
    var sqlite3 = "sqlite3"

    static let sameRows = """
        SELECT s.start, t.identifier, s.value, s.value_text, s.unit, src.name FROM sample s
        JOIN sample_type t ON t.id = s.type_id JOIN source src ON src.id = s.source_id
        WHERE t.identifier LIKE 'HKQuantityTypeIdentifier%' OR t.identifier LIKE 'HKCategoryTypeIdentifier%'
        ORDER BY s.type_id, s.start, s.anchor
        """

    func run() throws {
        _ = try database.open()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let ours = (dir as NSString).appendingPathComponent("bench-export-healthpipe.csv")
        let theirs = (dir as NSString).appendingPathComponent("bench-export-sqlite3.csv")
        let size = ((try? FileManager.default.attributesOfItem(atPath: database.path)[.size]) as? NSNumber)?.int64Value ?? 0
        print(String(format: "Store: %@ (%.1f MB)", database.path, Double(size) / 1e6))
        let export = try ChildProcess.measure(
            CommandLine.arguments[0],
            ["export", "csv", "--db", database.path, "--all-metrics", "--all-dates", "--tz", tz, "--out", ours])
        let baseline = try ChildProcess.measure(sqlite3, ["-csv", database.path, Self.sameRows], stdout: theirs)
        let ourRows = try Self.lines(ours) - 1
        let theirRows = try Self.lines(theirs)
        report("healthpipe export csv", export, rows: ourRows, file: ours)
        report("sqlite3 -csv", baseline, rows: theirRows, file: theirs)
        print(
            String(
                format: "healthpipe runs at %.2f× the speed of sqlite3 -csv (%@ rows)", baseline.seconds / export.seconds,
                ourRows == theirRows ? "same" : "different: \(ourRows) vs \(theirRows)"))
    }

    private func report(_ name: String, _ run: ChildProcess.Measurement, rows: Int, file: String) {
        let size = ((try? FileManager.default.attributesOfItem(atPath: file)[.size]) as? NSNumber)?.int64Value ?? 0
        print(
            String(
                format: "%@: exit %d, %d rows in %.2f s (%.2f M rows/s), %.1f MB, peak RSS %.1f MiB", name, run.status, rows,
                run.seconds, Double(rows) / run.seconds / 1e6, Double(size) / 1e6, Double(run.peakRSSKiB) / 1024))
    }

    /// Newline count, read in 1 MiB blocks.
    private static func lines(_ path: String) throws -> Int {
        guard let handle = FileHandle(forReadingAtPath: path) else { return 0 }
        defer { try? handle.close() }
        var count = 0
        while let block = try handle.read(upToCount: 1 << 20), !block.isEmpty {
            count += block.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        }
        return count
    }
}

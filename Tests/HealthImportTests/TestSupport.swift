import Foundation
import HealthCore
import HealthImport
import HealthSQLite
import HealthSynth
import Testing

/// Paths and helpers shared by the import tests.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/apple-health")

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// A fresh empty folder, removed by the caller's `defer`.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("healthpipe-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A new database in `folder`.
    static func database(in folder: URL, name: String = "health.sqlite") throws -> HealthDatabase {
        try HealthDatabase(path: folder.appendingPathComponent(name).path)
    }

    /// Imports `path` into `database`, off the cooperative pool (two threads here: a
    /// synchronous import on one would stall the suite's other tasks).
    @discardableResult
    static func importExport(
        _ path: String, into database: HealthDatabase, force: Bool = false
    ) async throws
        -> ImportSummary
    {
        var options = HealthImporter.Options()
        options.force = force
        return try await HealthImporter(database: database, options: options).run(path: path)
    }

    /// A generated export of one person (seed 11, a trip from 2024-02-20) over `days` days
    /// from `start`: two of them with overlapping days share those days' records, written
    /// at the offset of each export's date and with other device addresses.
    static func overlappingExport(
        in folder: URL, _ name: String, start: String, days: Int, heartRatePerHour: Int
    ) async throws -> String {
        var configuration = SyntheticExport.Configuration(days: days, seed: 11)
        configuration.startDate = start
        configuration.tripStartDate = "2024-02-20"
        configuration.heartRatePerHour = heartRatePerHour
        let url = folder.appendingPathComponent(name)
        try await SyntheticExport(configuration: configuration).write(to: url)
        return url.path
    }

    /// Row counts of the tables that hold data (empty tables and bookkeeping left out).
    static func dataCounts(_ database: HealthDatabase) throws -> [String: Int] {
        try database.counts().filter {
            $0.value > 0
                && !["import_run", "sample_type", "source", "device", "grdb_migrations", "sqlite_sequence"].contains($0.key)
        }
    }

    /// Everything that identifies the store's content: row counts of every table and the last anchor.
    static func snapshot(_ database: HealthDatabase) throws -> [String: Int] {
        var counts = try database.counts()
        counts["lastAnchor"] = Int(try database.lastAnchor().rawValue)
        return counts
    }
}

import Foundation
import HealthCore
import HealthExport
import HealthImport
import HealthSQLite

/// Fixtures and a one-call export for the CSV tests.
enum ExportFixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// Imports `relative` (under Tests/Fixtures) into a new store in a temporary folder.
    static func store(_ relative: String) async throws -> (HealthDatabase, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("healthpipe-csv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = try HealthDatabase(path: folder.appendingPathComponent("health.sqlite").path)
        _ = try await HealthImporter(database: database).run(path: root.appendingPathComponent(relative).path)
        return (database, folder)
    }

    /// The hand-written export with weights, steps, glucose, body fat and lab results.
    static let own = "export-csv/apple_health_export"

    static let losAngeles = TimeZone(identifier: "America/Los_Angeles")!

    /// The CSV text and the report of exporting `names` with `configure`d options.
    static func csv(
        _ database: HealthDatabase, _ names: [String], configure: (inout CSVExporter.Options) -> Void = { _ in }
    ) async throws -> (String, CSVExporter.Report) {
        let stored = try await database.store.storedSampleTypes()
        let metrics = names.map { MetricRegistry.metric(named: $0, storedTypes: stored)! }
        var options = CSVExporter.Options()
        options.zone = TimeZone(identifier: "UTC")!
        configure(&options)
        var bytes: [UInt8] = []
        let output = CSVOutput { bytes.append(contentsOf: $0) }
        let report = try await CSVExporter(store: database.store, options: options).export(metrics, to: output)
        return (String(decoding: bytes, as: UTF8.self), report)
    }

    /// Local days `first…last` in `zone` as a half-open interval.
    static func days(_ first: String, _ last: String, in zone: TimeZone) -> DateInterval {
        DateInterval(
            start: LocalDate(first)!.instant(hour: 0, in: zone), end: LocalDate(last)!.adding(days: 1).instant(hour: 0, in: zone))
    }
}

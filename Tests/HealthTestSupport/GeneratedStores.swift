import Foundation
import HealthImport
import HealthSQLite
import HealthSynth

/// Stores the tests share: a synthetic export (Watch + iPhone, naps, a trip abroad,
/// weighings, workouts), imported into a new store in a temporary folder.
public enum GeneratedStores {
    public static func imported(days: Int, seed: UInt64, start: String, heartRatePerHour: Int) async throws -> HealthDatabase {
        let export = try await generated(days: days, seed: seed, start: start, heartRatePerHour: heartRatePerHour)
        let database = try HealthDatabase(path: export.deletingLastPathComponent().appendingPathComponent("health.sqlite").path)
        _ = try await HealthImporter(database: database).run(path: export.path)
        return database
    }

    /// The generated `export.zip`, in a temporary folder of its own.
    public static func generated(days: Int, seed: UInt64, start: String, heartRatePerHour: Int) async throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("generated-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var configuration = SyntheticExport.Configuration(days: days, seed: seed)
        configuration.startDate = start
        configuration.heartRatePerHour = heartRatePerHour
        let export = folder.appendingPathComponent("export.zip")
        _ = try await SyntheticExport(configuration: configuration).write(to: export)
        return export
    }

    /// A synthetic export of `configuration` imported into a new store in a temporary
    /// folder, handed to `body` with the export's ground truth; the folder is removed when
    /// `body` returns.
    public static func withImported<Result>(
        _ configuration: SyntheticExport.Configuration,
        _ body: (HealthDatabase, GroundTruth) async throws -> Result
    ) async throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("generated-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let export = folder.appendingPathComponent("export.zip")
        let truth = try await SyntheticExport(configuration: configuration).write(to: export)
        let database = try HealthDatabase(path: folder.appendingPathComponent("health.sqlite").path)
        _ = try await HealthImporter(database: database).run(path: export.path)
        return try await body(database, truth)
    }
}

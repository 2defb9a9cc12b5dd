import Foundation
import HealthImport
import HealthStore
import HealthSynth

/// Stores the tests share: a synthetic export (Watch + iPhone, naps, a trip abroad,
/// weighings, workouts), imported into a new store in a temporary folder.
public enum GeneratedStores {
    public static func imported(days: Int, seed: UInt64, start: String, heartRatePerHour: Int) async throws -> HealthDatabase {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("generated-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var configuration = SyntheticExport.Configuration(days: days, seed: seed)
        configuration.startDate = start
        configuration.heartRatePerHour = heartRatePerHour
        let export = folder.appendingPathComponent("export.zip")
        _ = try await SyntheticExport(configuration: configuration).write(to: export)
        let database = try HealthDatabase(path: folder.appendingPathComponent("health.sqlite").path)
        _ = try await HealthImporter(database: database).run(path: export.path)
        return database
    }
}

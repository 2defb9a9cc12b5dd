import Foundation
import HealthCore
import HealthImport
import HealthKitCompat
import HealthSQLite
import HealthSynth

/// A generated year imported into a store once per test process, with some deletions so
/// that change feeds carry tombstones.
enum GeneratedYear {
    struct Fixture: Sendable {
        let database: HealthDatabase
        let folder: URL
        let truth: GroundTruth
    }

    static let shared = Task { try await make(days: 365, seed: 11) }

    static func make(days: Int, seed: UInt64) async throws -> Fixture {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("healthkit-compat-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var configuration = SyntheticExport.Configuration(days: days, seed: seed)
        configuration.startDate = "2024-01-01"
        configuration.heartRatePerHour = 2
        let export = folder.appendingPathComponent("export.zip")
        let truth = try await SyntheticExport(configuration: configuration).write(to: export)
        let database = try HealthDatabase(path: folder.appendingPathComponent("health.sqlite").path)
        _ = try await HealthImporter(database: database).run(path: export.path)
        // Tombstones: a day of steps and a night of sleep deleted.
        let store = database.store
        _ = try await store.delete(
            .stepCount, overlapping: DateInterval(start: at("2024-03-10T00:00:00Z"), duration: 86400), source: nil)
        _ = try await store.delete(
            .sleepAnalysis, overlapping: DateInterval(start: at("2024-05-02T00:00:00Z"), duration: 86400), source: nil)
        return Fixture(database: database, folder: folder, truth: truth)
    }

    static func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
}

extension HKHealthStore {
    /// A store over `database` with read access to `types` requested (and granted).
    static func reading(_ database: HealthDatabase, _ types: [SampleType]) async throws -> HKHealthStore {
        let store = HKHealthStore(store: database.store)
        let objectTypes = Set(types.compactMap { HKSampleType.make($0.identifier) as HKObjectType? })
        try await store.requestAuthorization(toShare: [], read: objectTypes)
        return store
    }
}

extension HKSampleType {
    static func make(_ identifier: String) -> HKSampleType? {
        if identifier == HKWorkoutTypeIdentifier { return HKObjectType.workoutType() }
        if identifier.hasPrefix("HKQuantityTypeIdentifier") {
            return HKQuantityType(HKQuantityTypeIdentifier(rawValue: identifier))
        }
        if identifier.hasPrefix("HKCategoryTypeIdentifier") {
            return HKCategoryType(HKCategoryTypeIdentifier(rawValue: identifier))
        }
        return nil
    }
}

import Foundation
import HealthCore
import HealthSQLite

/// A store whose data ends a year before "now" (issue 33): Apple Watch steps of 1 000,
/// 1 100 and 1 200 at 12:00–12:10 UTC on 2024-12-28, 29 and 30; a night of core sleep from
/// 2024-12-29 23:00 to 2024-12-30 06:30 UTC; a resting heart rate of 54 bpm at 2024-12-30
/// 12:00 UTC. The newest sample ends at 2024-12-30 12:10 UTC. Steps and heart rate fall on
/// the same date in any zone within 11 hours of UTC; the night's dates are UTC's.
public enum YearOldStore {
    /// The last day with data (UTC).
    public static let lastDay = LocalDate(year: 2024, month: 12, day: 30)
    /// "Now" in the tests: 2025-12-31 20:00 UTC, a year after the data.
    public static let now = LocalDate(year: 2025, month: 12, day: 31).instant(hour: 20, in: utc)
    /// The newest sample's end: 2024-12-30 12:10 UTC.
    public static let newest = lastDay.instant(hour: 12, minute: 10, in: utc)
    public static let utc = TimeZone(identifier: "UTC")!

    public static let watch = Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardware: "Watch6,1")

    public static var samples: [Sample] {
        let steps = [(28, 1000.0), (29, 1100.0), (30, 1200.0)].map { day, count in
            let start = LocalDate(year: 2024, month: 12, day: day).instant(hour: 12, in: utc)
            return Sample(
                type: .stepCount, start: start, end: start.addingTimeInterval(600), value: .quantity(count, unit: "count"),
                source: Source(name: "Watch"), device: watch)
        }
        let night = Sample(
            type: .sleepAnalysis, start: LocalDate(year: 2024, month: 12, day: 29).instant(hour: 23, in: utc),
            end: lastDay.instant(hour: 6, minute: 30, in: utc), value: .category("HKCategoryValueSleepAnalysisAsleepCore"),
            source: Source(name: "Watch"), device: watch)
        let resting = Sample(
            type: .restingHeartRate, start: lastDay.instant(hour: 12, in: utc), end: lastDay.instant(hour: 12, in: utc),
            value: .quantity(54, unit: "count/min"), source: Source(name: "Watch"), device: watch)
        return steps + [night, resting]
    }

    /// A new SQLite store holding ``samples``, `health.sqlite` in a temporary folder of its own.
    public static func database() async throws -> HealthDatabase {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("year-old-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = try HealthDatabase(path: folder.appendingPathComponent("health.sqlite").path)
        try await database.store.add(samples)
        return database
    }
}

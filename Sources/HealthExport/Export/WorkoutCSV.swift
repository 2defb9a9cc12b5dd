import Foundation
import HealthCore

/// Workouts as CSV (`healthpipe export csv --workouts`): one row per workout with what it
/// recorded of itself, in the units it recorded them in, empty where it recorded nothing.
///
/// `energy` is its `ActiveEnergyBurned` statistic's sum, else the element's
/// `totalEnergyBurned`; `distance` its distance statistic's sum (walking/running, cycling,
/// swimming…), else `totalDistance`; the heart rate its `HeartRate` statistic's average and
/// maximum. Times are ISO 8601 in the zone given (each workout's local clock: its
/// `HKTimeZone`, else the caller's zone).
public enum WorkoutCSV {
    public static let header = [
        "id", "start", "end", "activity", "duration_min", "source", "energy", "energy_unit", "distance", "distance_unit",
        "heart_rate_avg", "heart_rate_max", "heart_rate_unit", "elevation_ascended", "indoor", "time_zone",
    ]

    public static func write(
        _ workouts: [Workout], zone: (Workout) -> TimeZone, to output: CSVOutput
    ) throws {
        try output.row(header)
        func number(_ value: Double?) -> String {
            value.flatMap { $0.isFinite ? CSVNumber.text($0, decimals: nil) : nil } ?? ""
        }
        for workout in workouts {
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = zone(workout)
            let energy = workout.statistics.first { $0.type == .activeEnergyBurned && $0.sum != nil }
            let distance = workout.statistics.first {
                $0.type.identifier.hasPrefix("HKQuantityTypeIdentifierDistance") && $0.sum != nil
            }
            let heart = workout.statistics.first { $0.type == .heartRate }
            try output.row([
                workout.uuid.uuidString.lowercased(), formatter.string(from: workout.start), formatter.string(from: workout.end),
                HealthKitWorkoutActivities.shortName(workout.activityType), number(workout.durationSeconds / 60),
                workout.source.name, number(energy?.sum ?? workout.totalEnergyBurned),
                energy.map { $0.unit ?? "" } ?? (workout.totalEnergyBurned == nil ? "" : workout.totalEnergyBurnedUnit ?? ""),
                number(distance?.sum ?? workout.totalDistance),
                distance.map { $0.unit ?? "" } ?? (workout.totalDistance == nil ? "" : workout.totalDistanceUnit ?? ""),
                number(heart?.average), number(heart?.maximum), heart?.unit ?? "",
                workout.metadata.value(for: "HKElevationAscended") ?? "",
                workout.metadata.value(for: "HKIndoorWorkout").map { $0 == "1" ? "yes" : "no" } ?? "",
                workout.metadata.timeZoneIdentifier ?? "",
            ])
        }
        try output.flush()
    }
}

import Foundation
import HealthCore

/// Workouts as CSV (`healthpipe export csv --workouts`): one row per workout with what it
/// recorded of itself, in one unit a column (`--distance-unit` for distance and the climb),
/// empty where it recorded nothing.
///
/// `energy` is its `ActiveEnergyBurned` statistic's sum, else the element's
/// `totalEnergyBurned`, kcal; `distance` its distance statistic's sum (walking/running,
/// cycling, swimming…), else `totalDistance`, km or mi; the heart rate its `HeartRate`
/// statistic's average and maximum, bpm (``WorkoutTotals``: a zero, such as the
/// `totalDistance="0"` of a workout that measured no distance, or a figure in a unit that
/// does not convert, is no figure). `elevation_ascended` is its `HKElevationAscended`, m or
/// ft. Times are in the zone given (each workout's local clock: its `HKTimeZone`, else the
/// caller's zone), in the style asked (ISO 8601 with the offset, or HealthExporter's).
public enum WorkoutCSV {
    public static let header = [
        "id", "start", "end", "activity", "duration_min", "source", "energy", "energy_unit", "distance", "distance_unit",
        "heart_rate_avg", "heart_rate_max", "heart_rate_unit", "elevation_ascended", "elevation_unit", "indoor",
        "time_zone",
    ]

    /// Writes the header and a row per workout; distance in `distance` (km or mi), the climb
    /// in metres with km and in feet with mi; times in `dateStyle`.
    public static func write(
        _ workouts: [Workout], distance: UnitPreferences.Distance = .km, dateStyle: CSVDateStyle = .iso,
        zone: (Workout) -> TimeZone, to output: CSVOutput
    ) throws {
        try output.row(header)
        let (kmTo, metresTo, climbUnit) = distance == .km ? (1.0, 1.0, "m") : (1 / 1.609_344, 1 / 0.3048, "ft")
        func number(_ value: Double?, _ decimals: Int) -> String {
            value.flatMap { $0.isFinite ? CSVNumber.text($0, decimals: decimals) : nil } ?? ""
        }
        func unit(_ value: Double?, _ name: String) -> String { value == nil ? "" : name }
        for workout in workouts {
            var timestamp = CSVTimestamp(zone: zone(workout), style: dateStyle)
            func time(_ date: Date) -> String {
                var bytes: [UInt8] = []
                timestamp.append(date.timeIntervalSince1970, to: &bytes)
                // HealthExporter's style comes quoted for a raw field: a row's field quotes it.
                return String(decoding: bytes.filter { $0 != UInt8(ascii: "\"") }, as: UTF8.self)
            }
            let totals = WorkoutTotals(workout)
            let (energy, km, climb) = (totals.energyKcal, totals.distanceKm, workout.elevationAscendedMetres)
            let (heart, heartMax) = (totals.heartRateBpm, totals.heartRateMaxBpm)
            try output.row([
                workout.uuid.uuidString.lowercased(), time(workout.start), time(workout.end),
                HealthKitWorkoutActivities.shortName(workout.activityType), number(workout.durationSeconds / 60, 2),
                workout.source.name, number(energy, 1), unit(energy, "kcal"),
                number(km.map { $0 * kmTo }, 3), unit(km, distance.rawValue),
                number(heart, 1), number(heartMax, 1), unit(heart ?? heartMax, "bpm"),
                number(climb.map { $0 * metresTo }, 1), unit(climb, climbUnit),
                workout.metadata.value(for: "HKIndoorWorkout").map { $0 == "1" ? "yes" : "no" } ?? "",
                workout.metadata.timeZoneIdentifier ?? "",
            ])
        }
        try output.flush()
    }
}

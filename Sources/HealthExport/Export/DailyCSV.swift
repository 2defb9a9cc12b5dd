import Foundation
import HealthMetrics

/// `NormalizedDailyMetrics` as CSV: one row per local day, one column per field of the
/// backend schema (`steps_sources_json` as compact JSON), empty for null.
public enum DailyCSV {
    public static let header = [
        "user_id", "local_date", "timezone", "utc_day_start", "utc_day_end", "steps_normalized", "steps_raw_sum",
        "steps_sources_json", "active_energy_kcal", "sleep_hours", "resting_hr_bpm", "hrv_ms", "normalization_version",
        "created_at",
    ]

    public static func write(_ days: [NormalizedDailyMetrics], to output: CSVOutput) throws {
        try output.row(header)
        let encoder = NormalizedDailyMetrics.backendEncoder()
        let instant = ISO8601DateFormatter()
        func number(_ value: Double?) -> String { value.map { CSVNumber.text($0, decimals: nil) } ?? "" }
        for day in days {
            let sources = try day.stepsSources.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
            try output.row([
                day.userID ?? "", day.localDate, day.timezoneIdentifier, instant.string(from: day.utcDayStart),
                instant.string(from: day.utcDayEnd), day.stepsNormalized.map(String.init) ?? "",
                day.stepsRawSum.map(String.init) ?? "", sources ?? "", number(day.activeEnergyKcal), number(day.sleepHours),
                number(day.restingHRBpm), number(day.hrvMs), day.normalizationVersion, instant.string(from: day.createdAt),
            ])
        }
        try output.flush()
    }
}

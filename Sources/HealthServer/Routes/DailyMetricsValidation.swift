import Foundation
import HealthCore
import HealthMetrics
import HealthServerRecords

/// Checks a batch of daily payloads before anything is stored: a payload is accepted only
/// when its `local_date`, `timezone` and UTC bounds describe the same local day.
enum DailyMetricsValidation {
    /// Throws the first problem, with the JSON Pointer of the field.
    static func validate(_ days: [NormalizedDailyMetrics], user: User) throws {
        var seen = Set<String>()
        for (index, day) in days.enumerated() {
            func at(_ field: String) -> String { "/\(index)/\(field)" }
            if let owner = day.userID, owner != user.id, owner != user.name {
                throw Problem(
                    .forbidden, "Forbidden", detail: "payload \(index) belongs to another user; omit user_id or use your own")
            }
            guard let date = LocalDate(day.localDate) else {
                throw Problem.unprocessable("local_date must be YYYY-MM-DD", pointer: at("local_date"))
            }
            // The days any read can ask for (a day of 9999 would be "the last day with data").
            guard HealthRoutes.servedDates.contains(date) else {
                throw Problem.unprocessable(
                    "local_date must be between \(HealthRoutes.servedDates.lowerBound) and \(HealthRoutes.servedDates.upperBound)",
                    pointer: at("local_date"))
            }
            // Printable ASCII only: Foundation reads "UTC\u{0}" as UTC (a C string), and the
            // day would be stored with the NUL (PostgreSQL refuses one in text).
            guard day.timezoneIdentifier.utf8.allSatisfy({ (0x21...0x7E).contains($0) }),
                let zone = TimeZone(identifier: day.timezoneIdentifier)
            else {
                throw Problem.unprocessable("timezone must be an IANA zone such as Europe/Paris", pointer: at("timezone"))
            }
            guard NormalizationVersion(rawValue: day.normalizationVersion) != nil else {
                throw Problem.unprocessable(
                    "normalization_version must be \(NormalizationVersion.names)", pointer: at("normalization_version"))
            }
            guard seen.insert(day.localDate + " " + day.normalizationVersion).inserted else {
                throw Problem.unprocessable("\(day.localDate) appears twice in this batch", pointer: at("local_date"))
            }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let start = calendar.startOfDay(for: date.instant(hour: 12, in: zone))
            guard abs(day.utcDayStart.timeIntervalSince(start)) < 1 else {
                throw Problem.unprocessable(
                    "utc_day_start is not the start of \(day.localDate) in \(day.timezoneIdentifier)",
                    pointer: at("utc_day_start"))
            }
            // A day is 23–25 h, or shorter or longer on a day the zone changes (a flight).
            let hours = day.utcDayEnd.timeIntervalSince(day.utcDayStart) / 3600
            guard hours > 0, hours <= 48 else {
                throw Problem.unprocessable("utc_day_end must be after utc_day_start and within 48 h", pointer: at("utc_day_end"))
            }
            try check(day.stepsNormalized.map(Double.init), Ranges.steps, at("steps_normalized"))
            try check(day.stepsRawSum.map(Double.init), Ranges.rawSteps, at("steps_raw_sum"))
            try check(day.activeEnergyKcal, Ranges.energy, at("active_energy_kcal"))
            try check(day.sleepHours, Ranges.sleepHours, at("sleep_hours"))
            try check(day.sleepSource?.inBedHours, Ranges.sleepHours, at("sleep_source_json/in_bed_hours"))
            try check(day.restingHRBpm, Ranges.restingHR, at("resting_hr_bpm"))
            try check(day.hrvMs, Ranges.hrv, at("hrv_ms"))
            try check(
                day.stepsSources.map { Double($0.rawSampleCount) }, 0...10_000_000, at("steps_sources_json/raw_sample_count"))
            if let sources = day.stepsSources {
                for (name, values) in [
                    ("primary_source", [sources.primarySource].compactMap { $0 }),
                    ("secondary_sources_used", sources.secondarySourcesUsed), ("ignored_sources", sources.ignoredSources),
                ] where values.contains(where: { $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }) {
                    throw Problem.unprocessable(
                        "source names must not contain control characters", pointer: at("steps_sources_json/\(name)"))
                }
            }
        }
    }

    /// The figures a day may hold, posted or computed.
    enum Ranges {
        static let steps = 0.0...1_000_000
        static let rawSteps = 0.0...10_000_000
        static let energy = 0.0...50_000
        static let sleepHours = 0.0...24
        static let restingHR = 20.0...250
        static let hrv = 0.0...1000
    }

    /// A computed day with every figure outside ``Ranges`` left out (`nil`), as a posted day
    /// with such a figure is refused.
    static func withoutImplausibleFigures(_ day: NormalizedDailyMetrics) -> NormalizedDailyMetrics {
        func kept(_ value: Double?, _ range: ClosedRange<Double>) -> Double? {
            value.flatMap { $0.isFinite && range.contains($0) ? $0 : nil }
        }
        var day = day
        day.stepsNormalized = day.stepsNormalized.flatMap { Ranges.steps.contains(Double($0)) ? $0 : nil }
        day.stepsRawSum = day.stepsRawSum.flatMap { Ranges.rawSteps.contains(Double($0)) ? $0 : nil }
        day.activeEnergyKcal = kept(day.activeEnergyKcal, Ranges.energy)
        day.sleepHours = kept(day.sleepHours, Ranges.sleepHours)
        if kept(day.sleepSource?.inBedHours, Ranges.sleepHours) == nil { day.sleepSource = nil }
        day.restingHRBpm = kept(day.restingHRBpm, Ranges.restingHR)
        day.hrvMs = kept(day.hrvMs, Ranges.hrv)
        return day
    }

    private static func check(_ value: Double?, _ range: ClosedRange<Double>, _ pointer: String) throws {
        guard let value else { return }
        guard value.isFinite, range.contains(value) else {
            throw Problem.unprocessable("must be between \(range.lowerBound) and \(range.upperBound)", pointer: pointer)
        }
    }
}

extension DailyMetricsValidation {
    /// Throws a 422 for the first posted day whose span overlaps another day of the same
    /// rules — posted with it, or stored on another date (`stored`, the days beside the
    /// posted ones; a stored day of a posted day's date is replaced by it): two days holding
    /// the same instants count their steps twice (docs/api.md §Home zone).
    static func refuseOverlaps(_ days: [NormalizedDailyMetrics], stored: [NormalizedDailyMetrics]) throws {
        let posted = Set(days.map { $0.localDate + " " + $0.normalizationVersion })
        let kept = stored.filter { !posted.contains($0.localDate + " " + $0.normalizationVersion) }
        for (index, day) in days.enumerated() {
            let other = (days + kept).first {
                $0.normalizationVersion == day.normalizationVersion && $0.localDate != day.localDate
                    && $0.utcDayStart < day.utcDayEnd && day.utcDayStart < $0.utcDayEnd
            }
            if let other {
                // A stored day is named by nothing: the token may not read the person's days.
                let which =
                    days.contains { $0.localDate == other.localDate } ? "the posted day \(other.localDate)" : "a stored day"
                throw Problem.unprocessable(
                    "\(day.localDate) (\(day.timezoneIdentifier)) overlaps \(which) of another date; "
                        + "post days in the zone of the days beside them (GET /v1/me/zone)",
                    pointer: "/\(index)/utc_day_start")
            }
        }
    }
}

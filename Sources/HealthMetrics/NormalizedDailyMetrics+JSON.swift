import Foundation

extension NormalizedDailyMetrics {
    /// `days` in the backend schema, byte for byte what ``backendEncoder(pretty:)`` writes
    /// (sorted keys, `null` for a missing figure, instants to the second): the answer of
    /// `GET /v1/daily-metrics`, written directly (``DirectJSONWriter``) because
    /// `JSONEncoder`'s generic containers were a fifth of the server's time under load
    /// (docs/benchmarks.md). A value the direct writer does not cover sends the whole
    /// array through `JSONEncoder`.
    public static func backendJSON(_ days: [NormalizedDailyMetrics]) throws -> Data {
        try DirectJSONWriter.array(days, bytesEach: 640) { $0.write($1) } ?? backendEncoder().encode(days)
    }
}

extension DirectJSONWriter {
    /// One day, its keys sorted.
    package mutating func write(_ day: NormalizedDailyMetrics) {
        byte(UInt8(ascii: "{"))
        key("active_energy_kcal", first: true)
        number(day.activeEnergyKcal)
        key("created_at")
        instant(day.createdAt)
        key("hrv_ms")
        number(day.hrvMs)
        key("local_date")
        string(day.localDate)
        key("normalization_version")
        string(day.normalizationVersion)
        key("resting_hr_bpm")
        number(day.restingHRBpm)
        key("sleep_hours")
        number(day.sleepHours)
        key("sleep_source_json")
        if let source = day.sleepSource {
            object(firstKey: "basis")
            string(source.basis.rawValue)
            key("in_bed_hours")
            number(source.inBedHours)
            byte(UInt8(ascii: "}"))
        } else {
            raw("null")
        }
        key("steps_normalized")
        integer(day.stepsNormalized)
        key("steps_raw_sum")
        integer(day.stepsRawSum)
        key("steps_sources_json")
        if let steps = day.stepsSources {
            object(firstKey: "ignored_sources")
            strings(steps.ignoredSources)
            key("primary_source")
            string(steps.primarySource)
            key("raw_sample_count")
            integer(steps.rawSampleCount)
            key("secondary_sources_used")
            strings(steps.secondarySourcesUsed)
            key("suspicious_steps")
            boolean(steps.suspiciousSteps)
            byte(UInt8(ascii: "}"))
        } else {
            raw("null")
        }
        key("timezone")
        string(day.timezoneIdentifier)
        key("user_id")
        string(day.userID)
        key("utc_day_end")
        instant(day.utcDayEnd)
        key("utc_day_start")
        instant(day.utcDayStart)
        byte(UInt8(ascii: "}"))
    }
}

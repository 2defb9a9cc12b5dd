import Foundation

extension NormalizedDailyMetrics {
    /// `days` in the backend schema, byte for byte what ``backendEncoder(pretty:)`` writes
    /// (sorted keys, `null` for a missing figure, instants to the second): the answer of
    /// `GET /v1/daily-metrics`, written directly because `JSONEncoder`'s generic containers
    /// were a fifth of the server's time under load (docs/benchmarks.md). A value the
    /// direct writer does not cover — a string with a character JSON escapes, an instant
    /// before 1900 or after 9999, a figure that is not finite — sends the whole array
    /// through `JSONEncoder`, so the bytes (and its errors) are always the encoder's.
    public static func backendJSON(_ days: [NormalizedDailyMetrics]) throws -> Data {
        var writer = DayJSONWriter()
        writer.bytes.reserveCapacity(days.count * 640 + 2)
        writer.byte(UInt8(ascii: "["))
        for (index, day) in days.enumerated() {
            if index > 0 { writer.byte(UInt8(ascii: ",")) }
            writer.write(day)
            guard writer.covered else { return try backendEncoder().encode(days) }
        }
        writer.byte(UInt8(ascii: "]"))
        return Data(writer.bytes)
    }
}

/// The direct writer behind ``NormalizedDailyMetrics/backendJSON(_:)``; `covered` turns
/// false at the first value it leaves to `JSONEncoder`.
private struct DayJSONWriter {
    var bytes: [UInt8] = []
    var covered = true

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `,"key":` — or without the comma for an object's first key.
    mutating func key(_ name: StaticString, first: Bool = false) {
        if !first { byte(UInt8(ascii: ",")) }
        byte(UInt8(ascii: "\""))
        raw(name)
        raw("\":")
    }

    mutating func write(_ day: NormalizedDailyMetrics) {
        // Keys in the sorted order `JSONEncoder` writes them.
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
            steps.suspiciousSteps ? raw("true") : raw("false")
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

    /// An object's opening brace and first key.
    mutating func object(firstKey name: StaticString) {
        byte(UInt8(ascii: "{"))
        key(name, first: true)
    }

    /// A string of characters `JSONEncoder` writes as they are: printable ASCII other than
    /// `"` and `\`, and any non-ASCII character.
    mutating func string(_ value: String?) {
        guard var value else { return raw("null") }
        byte(UInt8(ascii: "\""))
        value.withUTF8 { utf8 in
            if utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                covered = false
            }
            bytes.append(contentsOf: utf8)
        }
        byte(UInt8(ascii: "\""))
    }

    mutating func strings(_ values: [String]) {
        byte(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { byte(UInt8(ascii: ",")) }
            string(value)
        }
        byte(UInt8(ascii: "]"))
    }

    mutating func integer(_ value: Int?) {
        guard let value else { return raw("null") }
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A finite figure as Swift describes it, `.0` dropped — `JSONEncoder`'s own text.
    mutating func number(_ value: Double?) {
        guard let value else { return raw("null") }
        guard value.isFinite else {
            covered = false
            return
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// `2024-06-01T08:00:00Z`: the second the instant falls in (`.iso8601` drops the
    /// fraction). Before 1900 `JSONEncoder`'s calendar is not the proleptic Gregorian one
    /// (it turns Julian in 1582), so earlier and absurd instants are left to it.
    mutating func instant(_ date: Date) {
        let interval = date.timeIntervalSince1970
        guard interval >= -2_208_988_800, interval < 253_402_300_800 else {
            covered = false
            return
        }
        let seconds = Int(interval.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = CivilDays.date(days)
        byte(UInt8(ascii: "\""))
        digits(year, 4)
        byte(UInt8(ascii: "-"))
        digits(month, 2)
        byte(UInt8(ascii: "-"))
        digits(day, 2)
        byte(UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2)
        byte(UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2)
        byte(UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2)
        raw("Z\"")
    }

    mutating func digits(_ value: Int, _ count: Int) {
        var divisor = 1
        for _ in 1..<count { divisor *= 10 }
        while divisor > 0 {
            byte(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}

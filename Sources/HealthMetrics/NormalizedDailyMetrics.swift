import Foundation

/// Clean metrics for one local day: the payload the backend stores per user per
/// `local_date` and the only input of the readiness engine. A metric without data is
/// `nil` (JSON `null`), never 0.
///
/// Encodes to the backend schema in snake_case, instants as ISO 8601:
/// `user_id`, `local_date`, `timezone`, `utc_day_start`, `utc_day_end`, `steps_normalized`,
/// `steps_raw_sum`, `steps_sources_json`, `active_energy_kcal`, `sleep_hours`,
/// `sleep_source_json`, `resting_hr_bpm`, `hrv_ms`, `normalization_version`, `created_at`.
/// (`sleep_source_json` was added later: a payload without it decodes with `nil`.)
public struct NormalizedDailyMetrics: Hashable, Sendable, Codable {
    public var userID: String?
    /// `YYYY-MM-DD` in the zone of that day.
    public var localDate: String
    /// IANA zone of that day, e.g. `Australia/Perth`.
    public var timezoneIdentifier: String
    public var utcDayStart: Date
    public var utcDayEnd: Date
    public var stepsNormalized: Int?
    public var stepsRawSum: Int?
    public var stepsSources: StepsSourcesMetadata?
    public var activeEnergyKcal: Double?
    /// Asleep hours of the night ending this morning; `nil` when no source measured sleep
    /// (also when the iPhone's bedtime schedule recorded time in bed: see ``sleepSource``).
    public var sleepHours: Double?
    /// What the night's sleep was taken from and its time in bed; `nil` without a night.
    public var sleepSource: SleepSourceMetadata?
    public var restingHRBpm: Double?
    public var hrvMs: Double?
    /// `norm_v1` or `norm_v2`.
    public var normalizationVersion: String
    public var createdAt: Date

    public init(
        userID: String? = nil, localDate: String, timezoneIdentifier: String, utcDayStart: Date, utcDayEnd: Date,
        stepsNormalized: Int? = nil, stepsRawSum: Int? = nil, stepsSources: StepsSourcesMetadata? = nil,
        activeEnergyKcal: Double? = nil, sleepHours: Double? = nil, sleepSource: SleepSourceMetadata? = nil,
        restingHRBpm: Double? = nil, hrvMs: Double? = nil, normalizationVersion: String, createdAt: Date
    ) {
        self.userID = userID
        self.localDate = localDate
        self.timezoneIdentifier = timezoneIdentifier
        self.utcDayStart = utcDayStart
        self.utcDayEnd = utcDayEnd
        self.stepsNormalized = stepsNormalized
        self.stepsRawSum = stepsRawSum
        self.stepsSources = stepsSources
        self.activeEnergyKcal = activeEnergyKcal
        self.sleepHours = sleepHours
        self.sleepSource = sleepSource
        self.restingHRBpm = restingHRBpm
        self.hrvMs = hrvMs
        self.normalizationVersion = normalizationVersion
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case localDate = "local_date"
        case timezoneIdentifier = "timezone"
        case utcDayStart = "utc_day_start"
        case utcDayEnd = "utc_day_end"
        case stepsNormalized = "steps_normalized"
        case stepsRawSum = "steps_raw_sum"
        case stepsSources = "steps_sources_json"
        case activeEnergyKcal = "active_energy_kcal"
        case sleepHours = "sleep_hours"
        case sleepSource = "sleep_source_json"
        case restingHRBpm = "resting_hr_bpm"
        case hrvMs = "hrv_ms"
        case normalizationVersion = "normalization_version"
        case createdAt = "created_at"
    }

    /// Every key is written, `null` included: a missing metric is visibly missing.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(userID, forKey: .userID)
        try container.encode(localDate, forKey: .localDate)
        try container.encode(timezoneIdentifier, forKey: .timezoneIdentifier)
        try container.encode(utcDayStart, forKey: .utcDayStart)
        try container.encode(utcDayEnd, forKey: .utcDayEnd)
        try container.encode(stepsNormalized, forKey: .stepsNormalized)
        try container.encode(stepsRawSum, forKey: .stepsRawSum)
        try container.encode(stepsSources, forKey: .stepsSources)
        try container.encode(activeEnergyKcal, forKey: .activeEnergyKcal)
        try container.encode(sleepHours, forKey: .sleepHours)
        try container.encode(sleepSource, forKey: .sleepSource)
        try container.encode(restingHRBpm, forKey: .restingHRBpm)
        try container.encode(hrvMs, forKey: .hrvMs)
        try container.encode(normalizationVersion, forKey: .normalizationVersion)
        try container.encode(createdAt, forKey: .createdAt)
    }

    /// The encoder for the backend schema: ISO 8601 instants, sorted keys.
    public static func backendEncoder(pretty: Bool = false) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting =
            pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The decoder for the backend schema.
    /// Instants are RFC 3339 date-times (``RFC3339``: `2024-06-01T08:00:00Z`,
    /// `2024-06-01T08:00:00.25+02:00`), exactly OpenAPI's `date-time`.
    public static func backendDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseInstant(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "Expected an RFC 3339 date-time such as 2024-06-01T08:00:00Z.")
            }
            return date
        }
        return decoder
    }

    /// An RFC 3339 date-time (``RFC3339``); `nil` otherwise.
    public static func parseInstant(_ text: String) -> Date? { RFC3339.parse(text) }

    /// The instants a request may ask "as of": 1900-01-01 through 2199-12-31 (UTC), the
    /// years every sample and every queried date lie in.
    public static let servedInstants =
        Date(timeIntervalSince1970: -2_208_988_800)...Date(timeIntervalSince1970: 7_258_118_399)
}

/// How the day's steps were derived.
public struct StepsSourcesMetadata: Hashable, Sendable, Codable {
    /// `apple_watch`, `iphone`, `other`, or `nil` when there were no step samples.
    public var primarySource: String?
    /// Lower-priority sources whose steps were counted (`iphone` outside Watch coverage).
    public var secondarySourcesUsed: [String]
    /// Sources present but not counted.
    public var ignoredSources: [String]
    /// The day is an extreme outlier against the trailing 30 days (see ``SuspiciousStepsRule``).
    public var suspiciousSteps: Bool
    /// Step samples that overlapped the day, before any split or dedup.
    public var rawSampleCount: Int

    public init(
        primarySource: String?, secondarySourcesUsed: [String], ignoredSources: [String], suspiciousSteps: Bool,
        rawSampleCount: Int
    ) {
        self.primarySource = primarySource
        self.secondarySourcesUsed = secondarySourcesUsed
        self.ignoredSources = ignoredSources
        self.suspiciousSteps = suspiciousSteps
        self.rawSampleCount = rawSampleCount
    }

    enum CodingKeys: String, CodingKey {
        case primarySource = "primary_source"
        case secondarySourcesUsed = "secondary_sources_used"
        case ignoredSources = "ignored_sources"
        case suspiciousSteps = "suspicious_steps"
        case rawSampleCount = "raw_sample_count"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(primarySource, forKey: .primarySource)
        try container.encode(secondarySourcesUsed, forKey: .secondarySourcesUsed)
        try container.encode(ignoredSources, forKey: .ignoredSources)
        try container.encode(suspiciousSteps, forKey: .suspiciousSteps)
        try container.encode(rawSampleCount, forKey: .rawSampleCount)
    }
}

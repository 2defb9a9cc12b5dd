import HealthBasics

/// The figures of one stored day that a score reads (the readiness engine): the date, the
/// five values, and the two facts of the day's metadata that count — whether its steps were
/// flagged suspicious, and the hours in bed of a night recorded only as time in bed. A store
/// can read these without decoding a day's metadata (`DailyMetricsRepository.dailyFigures`).
public struct DailyFigures: Hashable, Sendable {
    public var date: LocalDate
    public var stepsNormalized: Int?
    /// `steps_sources_json.suspicious_steps`: `false` without metadata.
    public var stepsSuspicious: Bool
    public var activeEnergyKcal: Double?
    public var sleepHours: Double?
    /// `sleep_source_json.in_bed_hours` of a night whose basis is `in_bed_only`; `nil` for
    /// any other basis or without a night.
    public var inBedOnlyHours: Double?
    public var restingHRBpm: Double?
    public var hrvMs: Double?

    public init(
        date: LocalDate, stepsNormalized: Int? = nil, stepsSuspicious: Bool = false, activeEnergyKcal: Double? = nil,
        sleepHours: Double? = nil, inBedOnlyHours: Double? = nil, restingHRBpm: Double? = nil, hrvMs: Double? = nil
    ) {
        self.date = date
        self.stepsNormalized = stepsNormalized
        self.stepsSuspicious = stepsSuspicious
        self.activeEnergyKcal = activeEnergyKcal
        self.sleepHours = sleepHours
        self.inBedOnlyHours = inBedOnlyHours
        self.restingHRBpm = restingHRBpm
        self.hrvMs = hrvMs
    }

    /// The day's figures; `nil` when its `localDate` is not a `YYYY-MM-DD` date.
    public init?(_ day: NormalizedDailyMetrics) {
        guard let date = LocalDate(day.localDate) else { return nil }
        self.init(
            date: date, stepsNormalized: day.stepsNormalized, stepsSuspicious: day.stepsSources?.suspiciousSteps == true,
            activeEnergyKcal: day.activeEnergyKcal, sleepHours: day.sleepHours,
            // `+ 0` makes a stored -0 a 0, as SQLite's JSON reading does (so every store's
            // figures, and the texts written from them, are the same).
            inBedOnlyHours: day.sleepSource.flatMap { $0.basis == .inBedOnly ? $0.inBedHours + 0 : nil },
            restingHRBpm: day.restingHRBpm, hrvMs: day.hrvMs)
    }
}

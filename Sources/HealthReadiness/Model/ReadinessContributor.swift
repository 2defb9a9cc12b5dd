/// One input to the readiness score, scored 0–100 against the person's own baseline.
public struct ReadinessContributor: Hashable, Sendable, Codable {
    /// What a contributor measures.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// 7-day mean of ln(HRV) against the previous 60 days' mean ± 0.5 SD.
        case hrvBalance = "hrv_balance"
        /// Today's resting HR against its previous 60-day mean.
        case restingHeartRate = "resting_heart_rate"
        /// Last night's sleep against the need.
        case sleep
        /// Mean sleep over the last 14 nights (each capped at the need) against the need.
        case sleepBalance = "sleep_balance"
        /// Yesterday's activity load against the 28-day normal.
        case previousDayActivity = "previous_day_activity"
        /// The last 7 days' mean load against the 28-day normal (acute:chronic ratio).
        case activityBalance = "activity_balance"

        /// A name for people.
        public var title: String {
            switch self {
            case .hrvBalance: "HRV balance"
            case .restingHeartRate: "Resting HR"
            case .sleep: "Last night's sleep"
            case .sleepBalance: "Sleep balance"
            case .previousDayActivity: "Previous-day activity"
            case .activityBalance: "Activity balance"
            }
        }
    }

    public var kind: Kind
    /// The weight before renormalisation (the weights of all kinds add up to 1).
    public var weight: Double
    /// 0–100 (one decimal); `nil` when the contributor has no data today.
    public var subscore: Double?
    /// What was measured, in `unit`: the 7-day HRV (geometric mean), today's resting HR,
    /// last night's or the 14-night mean sleep, yesterday's or the 7-day mean load.
    public var value: Double?
    /// What it is compared with: the 60-day HRV (geometric mean) or resting-HR mean, the
    /// sleep need, the 28-day mean load.
    public var baseline: Double?
    /// The values that count as normal; an open end means no limit on that side.
    public var band: NormalBand?
    /// `ms`, `bpm`, `h`, `kcal/day` or `steps/day`.
    public var unit: String
    /// Why there is no sub-score, or what the value means.
    public var note: String?

    public init(
        kind: Kind, weight: Double, subscore: Double?, value: Double?, baseline: Double?, band: NormalBand?, unit: String,
        note: String?
    ) {
        self.kind = kind
        self.weight = weight
        self.subscore = subscore
        self.value = value
        self.baseline = baseline
        self.band = band
        self.unit = unit
        self.note = note
    }

    /// Every key is written, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(weight, forKey: .weight)
        try container.encode(subscore, forKey: .subscore)
        try container.encode(value, forKey: .value)
        try container.encode(baseline, forKey: .baseline)
        try container.encode(band, forKey: .band)
        try container.encode(unit, forKey: .unit)
        try container.encode(note, forKey: .note)
    }
}

/// A range of normal values; `nil` at an end means that side is never penalised
/// (a resting HR below the band, more sleep than needed).
public struct NormalBand: Hashable, Sendable, Codable {
    public var lower: Double?
    public var upper: Double?

    public init(lower: Double?, upper: Double?) {
        self.lower = lower
        self.upper = upper
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(lower, forKey: .lower)
        try container.encode(upper, forKey: .upper)
    }
}

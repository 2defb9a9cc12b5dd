/// What the readiness engine assumes about a person. Every constant behind the score is
/// named here or in ``ReadinessConfiguration/Constants`` and explained in docs/readiness.md.
public struct ReadinessConfiguration: Sendable, Hashable {
    /// Which daily metric measures activity load.
    public enum ActivityMeasure: String, Sendable, Hashable, CaseIterable {
        /// `active_energy_kcal` (the default: it weighs intensity, steps do not).
        case activeEnergy = "energy"
        /// `steps_normalized`; days flagged `suspicious_steps` are left out.
        case steps
    }

    /// Hours of sleep a night the person needs (default 8; 4–12 accepted).
    public var sleepNeedHours: Double = 8
    public var activityMeasure: ActivityMeasure = .activeEnergy
    /// Weight of each contributor before renormalisation; they need not add up to 1.
    public var weights: [ReadinessContributor.Kind: Double] = [
        .hrvBalance: 0.30, .restingHeartRate: 0.20, .sleep: 0.20, .sleepBalance: 0.10, .previousDayActivity: 0.10,
        .activityBalance: 0.10,
    ]
    /// Clip HRV and resting HR to median ± 3.5 robust SD of the previous 60 days. Off only
    /// to show what the screen protects against.
    public var screensOutliers = true

    public init() {}

    /// Fixed constants of the method.
    public enum Constants {
        /// Days of history behind a baseline (HRV and resting-HR normals, the valid-day count).
        public static let baselineDays = 60
        /// The recent window of the HRV mean and of the acute activity load.
        public static let recentDays = 7
        /// The chronic activity window.
        public static let activityNormalDays = 28
        /// The sleep-balance window.
        public static let sleepBalanceNights = 14
        /// Valid days a 7-day window needs.
        public static let minimumRecentDays = 3
        /// Valid days a 28- or 60-day baseline needs.
        public static let minimumBaselineDays = 7
        /// Valid nights the 14-night sleep balance needs.
        public static let minimumSleepBalanceNights = 7
        /// Below this many valid days the score is `calibrating`.
        public static let calibrationDays = 14
        /// Valid days at which the baseline counts as mature (confidence factor 1).
        public static let matureDays = 28
        /// Floor of the SD of ln(HRV) (≈ 5% in milliseconds).
        public static let hrvSDFloor = 0.05
        /// Half-width of the HRV normal band, in SDs (the smallest worthwhile change).
        public static let hrvBandSD = 0.5
        /// The resting-HR band above the mean, in bpm (the "+3 is a warning" line).
        public static let restingHRBandBpm = 3.0
        /// Modified z-score beyond which a value is clipped (Iglewicz & Hoaglin).
        public static let outlierZ = 3.5
        /// Floors of the MAD used by the screen: ln(HRV), and bpm.
        public static let hrvMADFloor = 0.05
        public static let restingHRMADFloor = 2.0
        /// Values outside these are not measurements and are dropped.
        public static let plausibleHRVMs = 5.0...300.0
        public static let plausibleRestingHR = 25.0...150.0
        public static let plausibleSleepHours = 0.0...24.0
        /// The acute:chronic load ratios that count as normal.
        public static let activityBand = 0.8...1.3
    }
}

/// Why readiness could not be computed.
public struct ReadinessError: Error, CustomStringConvertible, Sendable {
    private enum Reason: Sendable {
        case invalidDate(String)
        case duplicateDate(String)
        case invalidSleepNeed
        case invalidWeights
    }

    private let reason: Reason

    static func invalidDate(_ text: String) -> ReadinessError { .init(reason: .invalidDate(text)) }
    static func duplicateDate(_ text: String) -> ReadinessError { .init(reason: .duplicateDate(text)) }
    static let invalidSleepNeed = ReadinessError(reason: .invalidSleepNeed)
    static let invalidWeights = ReadinessError(reason: .invalidWeights)

    public var description: String {
        switch reason {
        case .invalidDate(let text): "'\(text)' is not a local date YYYY-MM-DD"
        case .duplicateDate(let text): "the daily metrics hold \(text) twice; give one entry per local day"
        case .invalidSleepNeed: "the sleep need must be 4–12 hours"
        case .invalidWeights: "contributor weights must be zero or more, and at least one above zero"
        }
    }
}

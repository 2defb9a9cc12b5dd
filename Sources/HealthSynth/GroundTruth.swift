/// What the synthetic export really contains, written beside it as JSON.
public struct GroundTruth: Codable, Sendable {
    /// One local day.
    public struct Day: Codable, Sendable {
        public var date: String
        /// The IANA zone the person was in that day.
        public var timeZone: String
        /// Steps actually walked that local day (each counted once, whichever devices saw them).
        public var steps: Int
        /// Steps the iPhone saw / the Watch saw (both see many of the same steps).
        public var iPhoneSteps: Int
        public var watchSteps: Int
        /// Asleep minutes of the main sleep of the night ending that morning (naps excluded).
        public var asleepMinutes: Double
        public var napMinutes: Double
        /// Start of the Watch's first and end of its last sleep-stage sample of that night,
        /// ISO 8601 with the local offset.
        public var bedtime: String
        public var waketime: String
        /// What the strain schedule did to this day, absent on ordinary days: `high_load`
        /// (a 100–130 min hard workout), then the morning after `short_sleep`, `hrv_dip`
        /// (×0.72) and `resting_hr_rise` (+7 bpm), and the day after `hrv_dip` (×0.85) and
        /// `resting_hr_rise` (+3 bpm). Readiness should drop on the two days after
        /// `high_load` and recover on the third.
        public var strain: [String]?
    }

    public var seed: UInt64
    public var homeZone: String
    public var exportDate: String
    public var exportOffsetSeconds: Int
    public var days: [Day]
    /// Distinct records written per element family or type (duplicates not counted).
    public var uniqueRecords: [String: Int]
    /// Extra verbatim copies of records written on purpose (exports repeat records).
    public var duplicateCopies: Int
    /// Top-level records that are also correlation children (stored once).
    public var correlationChildrenAtTopLevel: Int
    public var xmlBytes: Int64
}

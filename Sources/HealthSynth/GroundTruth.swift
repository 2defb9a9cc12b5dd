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
        /// Steps a wearable other than the Watch saw (the no-watch persona's Garmin on runs).
        /// Absent from truth files written before it existed, as are the fields below that
        /// say so.
        public var trackerSteps: Int?
        /// Steps the devices could report: each part of a walk at the count of the best device
        /// that saw it (the Watch or the Garmin all of what they saw, the iPhone 96 % of the
        /// rest); a walk nothing saw is not observable. What a perfect merge of the sources
        /// reaches, and the no-watch persona's yardstick. (Absent from older files.)
        public var observableSteps: Int?
        /// Asleep minutes of the main sleep of the night ending that morning (naps excluded).
        public var asleepMinutes: Double
        public var napMinutes: Double
        /// Start of the first and end of the last sleep-stage sample of that night (the
        /// Watch's, the ring's or the mat's), ISO 8601 with the local offset.
        public var bedtime: String
        public var waketime: String
        /// Time in bed as the iPhone's bedtime schedule wrote it, ISO 8601 with the local
        /// offset: what a night of only time in bed is reported with. (Absent from older files.)
        public var inBedStart: String?
        public var inBedEnd: String?
        /// What the night should be reported from (`SleepBasis`): `watch_stages`,
        /// `tracker_stages` (the ring), `asleep_unspecified` (the mat) or `in_bed_only` (the
        /// iPhone's schedule alone, asleep unknown). (Absent from older files.)
        public var sleepBasis: String?
        /// What the strain schedule did to this day, absent on ordinary days: `high_load`
        /// (a 100–130 min hard workout), then the morning after `short_sleep`, `hrv_dip`
        /// (×0.72) and `resting_hr_rise` (+7 bpm), and the day after `hrv_dip` (×0.85) and
        /// `resting_hr_rise` (+3 bpm). Readiness should drop on the two days after
        /// `high_load` and recover on the third.
        public var strain: [String]?
    }

    public var seed: UInt64
    /// `watch` or `no-watch` (``SyntheticExport/Persona``); absent from older files (`watch`).
    public var persona: String?
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

/// What a night's sleep was taken from, best first: the tiers of the one source-priority
/// table of docs/sleep.md. A night is taken from one source, never from several added up.
public enum SleepBasis: String, Hashable, Sendable, Codable, CaseIterable {
    /// An Apple Watch's sleep stages (core, deep, REM).
    case watchStages = "watch_stages"
    /// Stages from another source: a ring, a band, a mat or an app (Oura, Garmin, Whoop,
    /// Withings Sleep, AutoSleep).
    case trackerStages = "tracker_stages"
    /// Asleep without stages (`asleepUnspecified`), from any source.
    case asleepUnspecified = "asleep_unspecified"
    /// Only time in bed (the iPhone's bedtime schedule): bedtime, wake time and time in bed
    /// are known, time asleep is not.
    case inBedOnly = "in_bed_only"

    /// Whether the source measured sleep (everything but ``inBedOnly``).
    public var measuresSleep: Bool { self != .inBedOnly }

    /// Whether the source measured sleep stages (core, deep, REM): a Watch's or a tracker's.
    public var measuresStages: Bool { self == .watchStages || self == .trackerStages }

    /// Position in the priority table, 0 the best.
    public var tier: Int { Self.allCases.firstIndex(of: self) ?? Self.allCases.count }
}

/// How a day's `sleep_hours` came about (`sleep_source_json` in the backend schema):
/// `{"basis": "in_bed_only", "in_bed_hours": 7.42}`.
public struct SleepSourceMetadata: Hashable, Sendable, Codable {
    /// What the chosen source recorded that night.
    public var basis: SleepBasis
    /// Time in bed in the night's window: the union of the chosen source's in-bed samples,
    /// or of all its samples when it wrote none (watchOS 11 writes no in-bed samples).
    public var inBedHours: Double

    public init(basis: SleepBasis, inBedHours: Double) {
        self.basis = basis
        self.inBedHours = inBedHours
    }

    enum CodingKeys: String, CodingKey {
        case basis
        case inBedHours = "in_bed_hours"
    }
}

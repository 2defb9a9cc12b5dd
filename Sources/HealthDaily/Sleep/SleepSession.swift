import Foundation
import HealthMetrics

/// The sleep states of a night's timeline, in precedence order: where samples of several
/// states overlap, the earlier state in this list wins.
public enum SleepStage: String, Sendable, Codable, CaseIterable, Comparable, CodingKeyRepresentable {
    case awake, deep, rem, core, unspecified
    case inBed = "in_bed"

    /// From an export's category value (or its raw number); `nil` for anything else.
    public init?(categoryValue value: String) {
        switch value {
        case "HKCategoryValueSleepAnalysisInBed", "0": self = .inBed
        case "HKCategoryValueSleepAnalysisAsleep", "HKCategoryValueSleepAnalysisAsleepUnspecified", "1": self = .unspecified
        case "HKCategoryValueSleepAnalysisAwake", "2": self = .awake
        case "HKCategoryValueSleepAnalysisAsleepCore", "3": self = .core
        case "HKCategoryValueSleepAnalysisAsleepDeep", "4": self = .deep
        case "HKCategoryValueSleepAnalysisAsleepREM", "5": self = .rem
        default: return nil
        }
    }

    public var isAsleep: Bool { self == .deep || self == .rem || self == .core || self == .unspecified }

    private var precedence: Int { SleepStage.allCases.firstIndex(of: self)! }

    public static func < (lhs: SleepStage, rhs: SleepStage) -> Bool { lhs.precedence < rhs.precedence }
}

/// One stretch of sleep from one source: fragments stitched over gaps of up to 30 minutes,
/// with a non-overlapping stage timeline.
public struct SleepSession: Hashable, Sendable, Codable {
    /// One piece of the timeline.
    public struct Segment: Hashable, Sendable, Codable {
        public var start: Date
        public var end: Date
        public var stage: SleepStage
    }

    /// JSON keys in snake case, as every answer of the CLI and the API.
    enum CodingKeys: String, CodingKey {
        case source, basis, bedtime, waketime, timeline, awakenings
        case inBedSeconds = "in_bed_seconds"
        case asleepSeconds = "asleep_seconds"
        case stageSeconds = "stage_seconds"
    }

    /// The source (app) that recorded it.
    public var source: String
    /// What the source recorded: Watch stages, another source's stages, asleep without
    /// stages, or only time in bed (its tier in the priority table of docs/sleep.md).
    public var basis: SleepBasis
    /// First sample's start and last sample's end.
    public var bedtime: Date
    public var waketime: Date
    /// The non-overlapping timeline (gaps between stitched fragments are not in it).
    public var timeline: [Segment]
    /// Union of in-bed samples, or the session span when the source wrote none (watchOS 11).
    public var inBedSeconds: Double
    /// The asleep part of the timeline; `nil` — unknown, not 0 — when the source measured no
    /// sleep in the session (``SleepBasis/inBedOnly``: the iPhone's bedtime schedule).
    public var asleepSeconds: Double?
    /// Seconds per stage in the timeline (or, for a night given as totals, the totals).
    public var stageSeconds: [SleepStage: Double]
    /// Awake segments between the first and the last asleep segment; `nil` — unknown, not
    /// 0 — when the source measured no sleep (``SleepBasis/inBedOnly``), or gave the night as
    /// totals without times (Health Auto Export).
    public var awakenings: Int?

    /// asleep / in bed × 100; `nil` when time asleep is unknown.
    public var efficiency: Double? {
        guard let asleepSeconds, inBedSeconds > 0 else { return nil }
        return asleepSeconds / inBedSeconds * 100
    }
    public var span: Double { waketime.timeIntervalSince(bedtime) }

    /// Minutes of `stage` in the timeline; `nil` — unknown, not 0 — when the source could not
    /// have recorded it: core, deep and REM without a source of stages, asleep and awake
    /// without one that measured sleep (time in bed alone). Time in bed is always known.
    public func stageMinutes(_ stage: SleepStage) -> Double? {
        switch stage {
        case .deep, .core, .rem: guard basis.measuresStages else { return nil }
        case .unspecified, .awake: guard basis.measuresSleep else { return nil }
        case .inBed: break
        }
        return (stageSeconds[stage] ?? 0) / 60
    }

    /// Every key is written, `null` included: an unknown time asleep is visibly unknown.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encode(basis, forKey: .basis)
        try container.encode(bedtime, forKey: .bedtime)
        try container.encode(waketime, forKey: .waketime)
        try container.encode(timeline, forKey: .timeline)
        try container.encode(inBedSeconds, forKey: .inBedSeconds)
        try container.encode(asleepSeconds, forKey: .asleepSeconds)
        try container.encode(stageSeconds, forKey: .stageSeconds)
        try container.encode(awakenings, forKey: .awakenings)
    }
}

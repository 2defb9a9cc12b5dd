import Foundation
import HealthCore
import HealthMetrics

/// Builds sleep sessions from sleep-analysis samples (`ALGORITHMS.md` §3).
///
/// 1. Samples are grouped by source; within a source, fragments separated by gaps of up to
///    30 minutes are stitched into one session.
/// 2. Each session gets a non-overlapping timeline: every instant takes the state of
///    highest precedence among the samples covering it — awake > deep > REM > core >
///    unspecified > in bed.
/// 3. Bedtime is the first sample's start, wake time the last sample's end; time in bed is
///    the union of in-bed samples, or the session span when there are none; time asleep
///    is the asleep part of the timeline, unknown (`nil`) when the session holds no asleep
///    sample (only in bed: the iPhone's bedtime schedule); awakenings are the awake
///    segments between the first and the last asleep segment.
/// 4. Its basis is what it holds: stages from an Apple Watch or from another device or app,
///    asleep without stages, or only time in bed (``SleepBasis``).
/// 5. A night Health Auto Export gave as totals (an asleep sample with the hours of each
///    stage as metadata, `HAESleepCoreHours`…: the app does not say when each stage was)
///    has those totals as its stage seconds, out of its asleep time (scaled down to it when
///    they add up to more), and its awake hours;
///    its timeline stays one asleep stretch, and its awakenings are unknown.
public enum SleepSessionBuilder {
    public static let stitchGap: TimeInterval = 30 * 60

    /// A sample of a session: its interval, state, whether an Apple Watch recorded it, and
    /// the stage totals it carries (``stageTotals(_:)``).
    typealias Fragment = (start: Date, end: Date, stage: SleepStage, watch: Bool, totals: [SleepStage: Double]?)

    /// The metadata keys of Health Auto Export's stage totals (hours), by stage.
    static let totalKeys: [(key: String, stage: SleepStage)] = [
        ("HAESleepCoreHours", .core), ("HAESleepDeepHours", .deep), ("HAESleepRemHours", .rem),
        ("HAESleepAwakeHours", .awake),
    ]

    /// The stages a night's totals split its asleep time into (awake is not asleep).
    static let asleepStages: [SleepStage] = [.core, .deep, .rem]

    /// Whether `totals` hold any core, deep or REM time (awake alone is no stage).
    static func hasStages(_ totals: [SleepStage: Double]?) -> Bool {
        asleepStages.contains { (totals?[$0] ?? 0) > 0 }
    }

    /// The seconds of each stage an asleep sample's metadata gives as a total (Health Auto
    /// Export's aggregated night); `nil` when it gives none (a number from 0 to 24 hours).
    static func stageTotals(_ sample: Sample) -> [SleepStage: Double]? {
        guard !sample.metadata.isEmpty else { return nil }
        var totals: [SleepStage: Double] = [:]
        for (key, stage) in totalKeys {
            guard let text = sample.metadata.value(for: key), let hours = Double(text), (0...24).contains(hours) else {
                continue
            }
            totals[stage] = hours * 3600
        }
        return totals.isEmpty ? nil : totals
    }

    /// Sessions of every source, ordered by bedtime.
    public static func sessions(_ samples: [Sample]) -> [SleepSession] {
        var bySource: [String: [Fragment]] = [:]
        for sample in samples {
            guard case .category(let value) = sample.value, let stage = SleepStage(categoryValue: value),
                sample.end > sample.start
            else { continue }
            let watch = sample.device?.deviceClass == .appleWatch
            let totals = stage == .unspecified ? stageTotals(sample) : nil
            bySource[sample.source.name, default: []].append((sample.start, sample.end, stage, watch, totals))
        }
        var sessions: [SleepSession] = []
        for (source, fragments) in bySource {
            var group: [Fragment] = []
            var groupEnd = Date.distantPast
            for fragment in fragments.sorted(by: { $0.start < $1.start }) {
                if !group.isEmpty, fragment.start.timeIntervalSince(groupEnd) > stitchGap {
                    sessions.append(session(source: source, group))
                    group = []
                }
                group.append(fragment)
                groupEnd = group.count == 1 ? fragment.end : max(groupEnd, fragment.end)
            }
            if !group.isEmpty { sessions.append(session(source: source, group)) }
        }
        return sessions.sorted { ($0.bedtime, $0.source) < ($1.bedtime, $1.source) }
    }

    static func session(source: String, _ fragments: [Fragment]) -> SleepSession {
        let bedtime = fragments.map(\.start).min()!
        let waketime = fragments.map(\.end).max()!
        let timeline = Self.timeline(fragments.map { (start: $0.start, end: $0.end, stage: $0.stage) })
        var stageSeconds: [SleepStage: Double] = [:]
        for segment in timeline { stageSeconds[segment.stage, default: 0] += segment.end.timeIntervalSince(segment.start) }
        var basis = Self.basis(fragments.map { (stage: $0.stage, watch: $0.watch) })
        let totals = basis == .asleepUnspecified ? Self.totals(fragments) : nil
        if let totals {
            // Stage totals without times: out of the asleep time, which the timeline has whole
            // (scaled down to it when they add up to more).
            let staged = Self.asleepStages.reduce(0) { $0 + (totals[$1] ?? 0) }
            let available = stageSeconds[.unspecified] ?? 0
            let scale = staged > available ? available / staged : 1
            for stage in Self.asleepStages where (totals[stage] ?? 0) > 0 {
                stageSeconds[stage, default: 0] += totals[stage]! * scale
            }
            if let awake = totals[.awake], awake > 0 { stageSeconds[.awake, default: 0] += awake }
            // The app's hours are decimals (3.2999999999999994): what they leave of the asleep
            // time below a millisecond is their rounding, not a stage (it read 7.3e-12 hours).
            let left = available - staged * scale
            stageSeconds[.unspecified] = left < 0.001 ? 0 : left
            if Self.hasStages(totals) { basis = .trackerStages }
        }
        let asleep: Double? =
            basis.measuresSleep
            ? timeline.filter(\.stage.isAsleep).reduce(0) { $0 + $1.end.timeIntervalSince($1.start) } : nil
        let inBedPieces = fragments.filter { $0.stage == .inBed }.map { ($0.start, $0.end) }
        let inBed = inBedPieces.isEmpty ? waketime.timeIntervalSince(bedtime) : IntervalUnion(inBedPieces).totalSeconds
        let firstAsleep = timeline.firstIndex { $0.stage.isAsleep }
        let lastAsleep = timeline.lastIndex { $0.stage.isAsleep }
        var awakenings = 0
        if let firstAsleep, let lastAsleep, firstAsleep < lastAsleep {
            for index in firstAsleep...lastAsleep
            where timeline[index].stage == .awake
                && (index == firstAsleep || timeline[index - 1].stage != .awake)
            {
                awakenings += 1
            }
        }
        return SleepSession(
            source: source, basis: basis, bedtime: bedtime, waketime: waketime, timeline: timeline, inBedSeconds: inBed,
            asleepSeconds: asleep, stageSeconds: stageSeconds,
            awakenings: basis.measuresSleep && totals == nil ? awakenings : nil)
    }

    /// The stage totals of a session: those of its longest sample that carries any (the
    /// latest ending of equals) — one night's, never two readings of it added up (the app
    /// sends a night again, with other totals, as a sample of its own); `nil` when none does.
    static func totals(_ fragments: [Fragment]) -> [SleepStage: Double]? {
        fragments.filter { $0.totals != nil }
            .max { ($0.end.timeIntervalSince($0.start), $0.end) < ($1.end.timeIntervalSince($1.start), $1.end) }?.totals
    }

    /// What samples of `stages` hold, as a tier of the priority table: any core, deep or REM
    /// sample makes stages (an Apple Watch's when one of those came from a Watch); else an
    /// asleep sample makes asleep without stages; else only time in bed.
    static func basis(_ stages: [(stage: SleepStage, watch: Bool)]) -> SleepBasis {
        let staged = stages.filter { $0.stage == .deep || $0.stage == .rem || $0.stage == .core }
        if !staged.isEmpty { return staged.contains { $0.watch } ? .watchStages : .trackerStages }
        return stages.contains { $0.stage == .unspecified } ? .asleepUnspecified : .inBedOnly
    }

    /// The non-overlapping timeline: elementary intervals between all boundaries, each with
    /// the covering state of highest precedence; neighbours of the same state merged.
    static func timeline(_ fragments: [(start: Date, end: Date, stage: SleepStage)]) -> [SleepSession.Segment] {
        let bounds = Array(Set(fragments.flatMap { [$0.start, $0.end] })).sorted()
        var segments: [SleepSession.Segment] = []
        for (lower, upper) in zip(bounds, bounds.dropFirst()) {
            let covering = fragments.filter { $0.start <= lower && $0.end >= upper }.map(\.stage)
            guard let stage = covering.min() else { continue }
            if let last = segments.last, last.stage == stage, last.end == lower {
                segments[segments.count - 1].end = upper
            } else {
                segments.append(SleepSession.Segment(start: lower, end: upper, stage: stage))
            }
        }
        return segments
    }

    /// The device order of a source for a night, from its samples' devices (lower is
    /// better): Apple Watch, other wearables, apps without a device, iPhone. It breaks ties
    /// within a tier of ``SleepSourceRank``.
    public static func priority(of samples: [Sample]) -> Int {
        samples.map(SleepSourceRank.deviceOrder).min() ?? Int.max
    }
}

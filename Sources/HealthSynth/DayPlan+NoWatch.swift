import Foundation
import HealthMetrics

extension DayPlan {
    /// What recorded a night, and so the basis its sleep should be reported with.
    enum NightSource: Equatable {
        /// The Watch's stages, with the iPhone's in-bed schedule and AutoSleep beside them.
        case watch
        /// A ring's stages (Oura), with the iPhone's in-bed schedule beside them.
        case ringStages
        /// A bed mat's asleep and awake samples, no stages (Withings Sleep), with the
        /// iPhone's in-bed schedule beside them.
        case matAsleep
        /// The iPhone's bedtime schedule alone: the ring was charging.
        case phoneInBed

        /// The basis the night's sleep should be reported with (docs/sleep.md).
        var basis: SleepBasis {
            switch self {
            case .watch: .watchStages
            case .ringStages: .trackerStages
            case .matAsleep: .asleepUnspecified
            case .phoneInBed: .inBedOnly
            }
        }

        /// Whether the no-watch persona's ring was on that night: its heart rate through the
        /// night, and the resting HR and HRV of the morning.
        var ringWorn: Bool { self == .ringStages || self == .matAsleep }
    }

    /// The no-watch persona's day: no Apple Watch at all. The iPhone goes along on 85 % of
    /// the walks (seeing 96 % of their steps, as in the Watch persona); a Garmin watch,
    /// through Garmin Connect, records the runs, which are done without the phone. An Oura
    /// ring records most nights and the naps, a Withings mat some nights, and on the nights
    /// the ring charges only the iPhone's bedtime schedule writes time in bed. The day's
    /// events (walks, runs, nights, naps) are the Watch persona's; a stream of its own draws
    /// what differs, so the Watch persona's bytes do not change.
    mutating func removeTheWatch(generation: SyntheticExport) {
        var rng = generation.rng(day: index, stream: 2)
        watchWorn = []
        for position in bouts.indices {
            bouts[position].watchSpan = nil
            if let workout, bouts[position].start == workout.start {
                bouts[position].tracker = true
                bouts[position].phone = false
            } else {
                bouts[position].phone = rng.chance(0.85)
            }
        }
        nightSource = Self.nightSource(absoluteDay: generation.firstDay + index, seed: generation.configuration.seed)
    }

    /// The no-watch persona's night by calendar day (so that overlapping exports agree): one
    /// night in seven only the iPhone's schedule, one in seven the mat, the others the ring.
    static func nightSource(absoluteDay: Int, seed: UInt64) -> NightSource {
        switch ((absoluteDay + Int(seed % 7)) % 7 + 7) % 7 {
        case 0: .phoneInBed
        case 3: .matAsleep
        default: .ringStages
        }
    }
}

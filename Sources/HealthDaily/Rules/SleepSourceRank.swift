import Foundation
import HealthCore
import HealthMetrics

/// How good one source's record of one night is: the one source-priority table of
/// docs/sleep.md, used by both ``SleepRule`` (`sleep_hours`) and ``SleepAnalyzer``
/// (sessions). A night is taken from the best-ranked source, never from several added up.
///
/// | Tier | The source recorded that night | Basis |
/// |---|---|---|
/// | 1 | Apple Watch sleep stages | `watch_stages` |
/// | 2 | stages from another device or app (Oura, Garmin, Whoop, Withings Sleep, AutoSleep) | `tracker_stages` |
/// | 3 | asleep without stages (`asleepUnspecified`), from any source | `asleep_unspecified` |
/// | 4 | only time in bed (the iPhone's bedtime schedule) | `in_bed_only` |
///
/// Within a tier the device decides — Apple Watch, another wearable (a device that is
/// neither Watch nor iPhone), an app without a device, iPhone — then more time asleep (more
/// time in bed in tier 4), then the source name, so that the choice never depends on the
/// order of the samples.
public struct SleepSourceRank: Hashable, Sendable, Comparable {
    /// What the source recorded (its tier).
    public var basis: SleepBasis
    /// Apple Watch 0, another wearable 1, an app without a device 2, iPhone 3.
    public var deviceOrder: Int
    /// Asleep seconds (tiers 1–3) or seconds in bed (tier 4): more is better.
    public var seconds: Double
    /// The source's name, the last tie-breaker.
    public var source: String

    public init(basis: SleepBasis, deviceOrder: Int, seconds: Double, source: String) {
        self.basis = basis
        self.deviceOrder = deviceOrder
        self.seconds = seconds
        self.source = source
    }

    /// Better ranks first: lower tier, then lower device order, then more seconds, then name.
    public static func < (lhs: SleepSourceRank, rhs: SleepSourceRank) -> Bool {
        (lhs.basis.tier, lhs.deviceOrder, -lhs.seconds, lhs.source)
            < (rhs.basis.tier, rhs.deviceOrder, -rhs.seconds, rhs.source)
    }

    /// The device order of a sample: Apple Watch 0, another wearable 1, no device (an app)
    /// 2, iPhone 3. A source's order is the best of its samples'.
    public static func deviceOrder(_ sample: Sample) -> Int {
        switch sample.device?.deviceClass {
        case .appleWatch: 0
        case .other: 1
        case nil: 2
        case .iPhone: 3
        }
    }
}

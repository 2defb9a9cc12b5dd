import Foundation
import HealthCore

/// Which IANA zone each local day belongs to.
///
/// Best first: an explicit zone (the caller's `--tz`); else the zone HealthKit recorded in
/// `HKTimeZone` metadata (sleep samples and workouts carry it) in effect at noon of that
/// day — the latest such observation (by sample start) at or before noon, if at most 7 days
/// old, or else the first one within 2 days after; else the home zone (`--home-tz`). Noon
/// is found in the home zone first and then again in the zone that gives. Exports write
/// every timestamp at the export-time offset, so the literal offset is never used.
///
/// A trip from Los Angeles to Paris yields Paris days from the first day whose noon comes
/// after the first Paris observation — usually the first night slept there. A day with no
/// evidence of the new zone before its noon (an overnight flight with no sleep recorded)
/// stays in the previous zone; it then ends where the first day in the new zone begins
/// (``LocalDay/ending(at:)``).
public struct ZoneTimeline: Sendable {
    /// One `HKTimeZone` seen at an instant.
    public struct Observation: Hashable, Sendable {
        public var instant: Date
        public var zone: TimeZone

        public init(instant: Date, zone: TimeZone) {
            self.instant = instant
            self.zone = zone
        }
    }

    public let home: TimeZone
    public let explicit: TimeZone?
    private let observations: [Observation]

    public static let lookBack: TimeInterval = 7 * 86400
    public static let lookAhead: TimeInterval = 2 * 86400

    public init(home: TimeZone, explicit: TimeZone? = nil, observations: [Observation] = []) {
        self.home = home
        self.explicit = explicit
        self.observations = observations.sorted { $0.instant < $1.instant }
    }

    /// Observations from samples' `HKTimeZone` metadata (unknown zone names skipped).
    public static func observations(from samples: [Sample]) -> [Observation] {
        var zones: [String: TimeZone?] = [:]
        return samples.compactMap { sample in
            guard let name = sample.timeZoneIdentifier else { return nil }
            if zones[name] == nil { zones[name] = TimeZone(identifier: name) }
            return (zones[name] ?? nil).map { Observation(instant: sample.start, zone: $0) }
        }
    }

    /// The zone of local date `date`.
    public func zone(for date: LocalDate) -> TimeZone {
        if let explicit { return explicit }
        let first = zone(at: date.instant(hour: 12, in: home))
        return zone(at: date.instant(hour: 12, in: first))
    }

    /// The zone in effect at `instant` (the explicit zone, when there is one).
    public func zone(at instant: Date) -> TimeZone {
        if let explicit { return explicit }
        // Index of the first observation after `instant`.
        var low = 0
        var high = observations.count
        while low < high {
            let middle = (low + high) / 2
            if observations[middle].instant <= instant { low = middle + 1 } else { high = middle }
        }
        if low > 0, instant.timeIntervalSince(observations[low - 1].instant) <= ZoneTimeline.lookBack {
            return observations[low - 1].zone
        }
        if low < observations.count, observations[low].instant.timeIntervalSince(instant) <= ZoneTimeline.lookAhead {
            return observations[low].zone
        }
        return home
    }
}

import Foundation
import HealthCore
import HealthMetrics

/// The sleep of one wake day: the main sleep and the naps.
public struct SleepNight: Hashable, Sendable, Codable {
    /// The local day the sleep ends on (`YYYY-MM-DD`).
    public var localDate: String
    public var timezoneIdentifier: String
    /// The source of the main sleep, else of the naps; `nil` when there is neither.
    public var source: String?
    /// The best-ranked source's longest session with at least 3 hours asleep, or — when no
    /// source measured such a night — with at least 3 hours in bed and asleep unknown.
    public var main: SleepSession?
    /// Sessions with time asleep that are not the main sleep and do not overlap it, from one
    /// source (the best-ranked that has any).
    public var naps: [SleepSession]

    enum CodingKeys: String, CodingKey {
        case localDate = "local_date"
        case timezoneIdentifier = "timezone"
        case source, main, naps
    }
}

/// Sleep sessions per wake day from any ``HealthQuerying`` store (`ALGORITHMS.md` §3).
///
/// Sessions are built per source (``SleepSessionBuilder``) and attributed to the local day
/// their wake time falls in, in that day's zone (``ZoneTimeline``). Each source's sessions
/// of the day are ranked by ``SleepSourceRank`` — Watch stages, another source's stages,
/// asleep without stages, only time in bed; then the device, more sleep, the name — and
/// sources are never added together. The main sleep is the best-ranked source's longest
/// session with at least 3 hours asleep; when no source measured one, the longest session
/// of at least 3 hours in bed of a source that recorded only time in bed (the iPhone's
/// bedtime schedule), its time asleep unknown. Naps are sessions with time asleep; a
/// session with none is never a nap.
public struct SleepAnalyzer: Sendable {
    public static let mainSleepMinimum: TimeInterval = 3 * 3600

    public let store: any HealthQuerying
    public let configuration: DailyNormalizer.Configuration

    public init(store: any HealthQuerying, configuration: DailyNormalizer.Configuration) {
        self.store = store
        self.configuration = configuration
    }

    /// One ``SleepNight`` per local day from `first` through `last`, oldest first.
    public func nights(from first: LocalDate, through last: LocalDate) async throws -> [SleepNight] {
        guard first <= last else { return [] }
        let resolver = LocalDayResolver(
            store: store, homeZone: configuration.homeZone, explicitZone: configuration.explicitZone)
        let days = try await resolver.localDays(from: first, through: last)
        // Sessions ending in the range can begin up to a day before it.
        let window = DateInterval(
            start: days[0].interval.start.addingTimeInterval(-86400), end: days[days.count - 1].interval.end)
        let samples = try await store.samples(of: .sleepAnalysis, overlapping: window)
        var deviceOrder: [String: Int] = [:]
        for sample in samples {
            deviceOrder[sample.source.name] = min(
                deviceOrder[sample.source.name] ?? .max, SleepSourceRank.deviceOrder(sample))
        }
        let sessions = SleepSessionBuilder.sessions(samples)
        return days.map { day in
            let ending = sessions.filter { day.interval.contains($0.waketime) && $0.waketime < day.interval.end }
            let (source, main, naps) = Self.night(ending, deviceOrder: deviceOrder)
            return SleepNight(
                localDate: day.date.description, timezoneIdentifier: day.zone.identifier, source: source, main: main,
                naps: naps)
        }
    }

    /// The main sleep and the naps among the sessions ending on one day.
    static func night(
        _ sessions: [SleepSession], deviceOrder: [String: Int]
    ) -> (source: String?, main: SleepSession?, naps: [SleepSession]) {
        let ranked = Dictionary(grouping: sessions, by: \.source)
            .map { (rank: Self.rank($0.value, source: $0.key, deviceOrder: deviceOrder[$0.key] ?? .max), sessions: $0.value) }
            .sorted { $0.rank < $1.rank }
        let main = ranked.lazy.compactMap { Self.mainSleep(of: $0.sessions) }.first
        let naps = ranked.lazy.map { Self.naps(of: $0.sessions, beside: main) }.first { !$0.isEmpty } ?? []
        return (main?.source ?? naps.first?.source, main, naps)
    }

    /// A source's record of a day: its best basis, and its total time asleep (in bed, when
    /// it measured no sleep).
    static func rank(_ sessions: [SleepSession], source: String, deviceOrder: Int) -> SleepSourceRank {
        let basis = sessions.map(\.basis).min { $0.tier < $1.tier } ?? .inBedOnly
        let seconds: Double =
            basis.measuresSleep
            ? sessions.reduce(0) { $0 + ($1.asleepSeconds ?? 0) } : sessions.reduce(0) { $0 + $1.inBedSeconds }
        return SleepSourceRank(basis: basis, deviceOrder: deviceOrder, seconds: seconds, source: source)
    }

    /// The longest session with at least 3 hours asleep; else the longest with asleep
    /// unknown and at least 3 hours in bed.
    static func mainSleep(of sessions: [SleepSession]) -> SleepSession? {
        let measured = sessions.filter { ($0.asleepSeconds ?? 0) >= mainSleepMinimum }
        if let longest = measured.max(by: { ($0.asleepSeconds ?? 0) < ($1.asleepSeconds ?? 0) }) { return longest }
        return sessions.filter { $0.asleepSeconds == nil && $0.inBedSeconds >= mainSleepMinimum }
            .max { $0.inBedSeconds < $1.inBedSeconds }
    }

    /// Sessions with time asleep, other than `main` and not overlapping it.
    static func naps(of sessions: [SleepSession], beside main: SleepSession?) -> [SleepSession] {
        sessions.filter { session in
            guard session != main, (session.asleepSeconds ?? 0) > 0 else { return false }
            guard let main else { return true }
            return session.waketime <= main.bedtime || session.bedtime >= main.waketime
        }
    }
}

/// Circular statistics for clock times: 23:30 and 00:30 average to 00:00, not 12:00.
public enum ClockTime {
    /// The circular mean of times of day given as seconds since local midnight, or `nil`
    /// when they cancel out (e.g. 06:00 and 18:00).
    public static func circularMean(secondsOfDay: [Double]) -> Double? {
        guard !secondsOfDay.isEmpty else { return nil }
        let angles = secondsOfDay.map { $0 / 86400 * 2 * .pi }
        let x = angles.reduce(0) { $0 + cos($1) }
        let y = angles.reduce(0) { $0 + sin($1) }
        guard x * x + y * y > 1e-12 else { return nil }
        var mean = atan2(y, x) / (2 * .pi) * 86400
        if mean < 0 { mean += 86400 }
        mean = (mean * 1000).rounded() / 1000
        return mean >= 86400 ? 0 : mean
    }

    /// `HH:mm` of `instant` on a wall clock in `zone`.
    public static func format(_ instant: Date, in zone: TimeZone) -> String {
        let seconds = Int(truncatingSaturating: secondsOfDay(instant, in: zone)) ?? 0
        return String(format: "%02d:%02d", seconds / 3600, seconds / 60 % 60)
    }

    /// Seconds since local midnight of `instant` in `zone`.
    public static func secondsOfDay(_ instant: Date, in zone: TimeZone) -> Double {
        let local = instant.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: instant))
        return local - (local / 86400).rounded(.down) * 86400
    }
}

import Foundation
import HealthCore

/// The sleep of one wake day: the main sleep and the naps of the source chosen for it.
public struct SleepNight: Hashable, Sendable, Codable {
    /// The local day the sleep ends on (`YYYY-MM-DD`).
    public var localDate: String
    public var timezoneIdentifier: String
    /// The source chosen for the day, `nil` when nothing was recorded.
    public var source: String?
    /// The longest session with at least 3 hours asleep.
    public var main: SleepSession?
    /// The chosen source's other sessions ending that day.
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
/// their wake time falls in, in that day's zone (``ZoneTimeline``). For each day one source
/// is chosen by priority — Apple Watch, other wearables, apps without a device, iPhone; ties
/// to the one with more sleep — and its sessions are never added to another's. The main
/// sleep is its longest session with at least 3 hours asleep; the rest are naps.
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
        var priority: [String: Int] = [:]
        for sample in samples {
            priority[sample.source.name] = min(priority[sample.source.name] ?? .max, SleepRule.priority(sample))
        }
        let sessions = SleepSessionBuilder.sessions(samples)
        return days.map { day in
            let ending = sessions.filter { day.interval.contains($0.waketime) && $0.waketime < day.interval.end }
            let bySource = Dictionary(grouping: ending, by: \.source)
            let chosen = bySource.min { lhs, rhs in
                let left = (priority[lhs.key] ?? .max, -lhs.value.reduce(0) { $0 + $1.asleepSeconds }, lhs.key)
                let right = (priority[rhs.key] ?? .max, -rhs.value.reduce(0) { $0 + $1.asleepSeconds }, rhs.key)
                return left < right
            }
            let own = chosen?.value ?? []
            let main = own.filter { $0.asleepSeconds >= Self.mainSleepMinimum }.max { $0.asleepSeconds < $1.asleepSeconds }
            return SleepNight(
                localDate: day.date.description, timezoneIdentifier: day.zone.identifier, source: chosen?.key, main: main,
                naps: own.filter { $0 != main })
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

import Foundation
import HealthDaily

/// Sleep sessions against a synthetic export's ground truth.
public struct SleepAccuracy: Sendable {
    /// One night compared (minutes; clock differences in absolute minutes).
    public struct Night: Sendable {
        public var date: String
        public var asleepError: Double?
        public var bedtimeError: Double?
        public var waketimeError: Double?
        public var napError: Double
        /// The main sleep is really the night (not a nap): it has at least 3 h asleep and
        /// ends within 2 hours of the true wake time.
        public var mainIsTheNight: Bool
    }

    public var nights: [Night]

    public init(truth: GroundTruth, nights: [SleepNight]) {
        let byDate = Dictionary(nights.map { ($0.localDate, $0) }, uniquingKeysWith: { first, _ in first })
        let formatter = ISO8601DateFormatter()
        self.nights = truth.days.map { day in
            let night = byDate[day.date]
            let main = night?.main
            let bed = formatter.date(from: day.bedtime)
            let wake = formatter.date(from: day.waketime)
            let naps = (night?.naps ?? []).reduce(0) { $0 + $1.asleepSeconds } / 60
            return Night(
                date: day.date, asleepError: main.map { abs($0.asleepSeconds / 60 - day.asleepMinutes) },
                bedtimeError: main.flatMap { main in bed.map { abs(main.bedtime.timeIntervalSince($0)) / 60 } },
                waketimeError: main.flatMap { main in wake.map { abs(main.waketime.timeIntervalSince($0)) / 60 } },
                napError: abs(naps - day.napMinutes),
                mainIsTheNight: main.map { main in wake.map { abs(main.waketime.timeIntervalSince($0)) < 7200 } ?? false }
                    ?? false)
        }
    }

    public var worstAsleep: Double { nights.map { $0.asleepError ?? .infinity }.max() ?? 0 }
    public var worstBedtime: Double { nights.map { $0.bedtimeError ?? .infinity }.max() ?? 0 }
    public var worstWaketime: Double { nights.map { $0.waketimeError ?? .infinity }.max() ?? 0 }
    public var worstNaps: Double { nights.map(\.napError).max() ?? 0 }
    public var nightsWhereMainIsNotTheNight: Int { nights.filter { !$0.mainIsTheNight }.count }

    public var summary: String {
        String(
            format:
                "sleep sessions: %d nights; worst main-sleep asleep error %.2f min, bedtime %.2f min, wake time %.2f min, naps %.2f min; main sleep not the night on %d nights",
            nights.count, worstAsleep, worstBedtime, worstWaketime, worstNaps, nightsWhereMainIsNotTheNight)
    }
}

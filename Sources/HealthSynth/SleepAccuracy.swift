import Foundation
import HealthDaily
import HealthMetrics

/// Sleep sessions against a synthetic export's ground truth.
public struct SleepAccuracy: Sendable {
    /// One night compared (minutes; clock differences in absolute minutes).
    public struct Night: Sendable {
        public var date: String
        /// What the truth says the night should be reported from, and what the main sleep
        /// was reported from (`nil`: no main sleep).
        public var expectedBasis: SleepBasis?
        public var basis: SleepBasis?
        /// Main-sleep asleep minutes against the truth; `nil` without a main sleep or when
        /// its time asleep is unknown (only time in bed).
        public var asleepError: Double?
        /// Bedtime and wake time against the truth's: the first and last sleep stage, or —
        /// for a night of only time in bed — the iPhone schedule's time in bed.
        public var bedtimeError: Double?
        public var waketimeError: Double?
        public var napError: Double
        /// Naps with no time asleep (there should be none: a session without sleep is no nap).
        public var zeroMinuteNaps: Int
        /// The main sleep is really the night (not a nap): it ends within 2 hours of the
        /// true wake time.
        public var mainIsTheNight: Bool
    }

    public var nights: [Night]

    public init(truth: GroundTruth, nights: [SleepNight]) {
        let byDate = Dictionary(nights.map { ($0.localDate, $0) }, uniquingKeysWith: { first, _ in first })
        let formatter = ISO8601DateFormatter()
        self.nights = truth.days.map { day in
            let night = byDate[day.date]
            let main = night?.main
            let expected = day.sleepBasis.flatMap(SleepBasis.init(rawValue:))
            // A night of only time in bed is reported with the schedule's bounds.
            let inBedOnly = expected == .inBedOnly
            let bed = formatter.date(from: (inBedOnly ? day.inBedStart : nil) ?? day.bedtime)
            let wake = formatter.date(from: (inBedOnly ? day.inBedEnd : nil) ?? day.waketime)
            let naps = (night?.naps ?? []).reduce(0) { $0 + ($1.asleepSeconds ?? 0) } / 60
            return Night(
                date: day.date, expectedBasis: expected, basis: main?.basis,
                asleepError: main?.asleepSeconds.map { abs($0 / 60 - day.asleepMinutes) },
                bedtimeError: main.flatMap { main in bed.map { abs(main.bedtime.timeIntervalSince($0)) / 60 } },
                waketimeError: main.flatMap { main in wake.map { abs(main.waketime.timeIntervalSince($0)) / 60 } },
                napError: abs(naps - day.napMinutes),
                zeroMinuteNaps: (night?.naps ?? []).filter { ($0.asleepSeconds ?? 0) <= 0 }.count,
                mainIsTheNight: main.map { main in wake.map { abs(main.waketime.timeIntervalSince($0)) < 7200 } ?? false }
                    ?? false)
        }
    }

    /// The nights whose source measured sleep (every night of a truth file that does not say).
    public var measuredNights: [Night] { nights.filter { $0.expectedBasis?.measuresSleep ?? true } }
    /// The nights of only time in bed.
    public var inBedOnlyNights: [Night] { nights.filter { $0.expectedBasis == .inBedOnly } }

    /// The worst asleep error of the measured nights (∞ when one has no main sleep).
    public var worstAsleep: Double { measuredNights.map { $0.asleepError ?? .infinity }.max() ?? 0 }
    public var worstBedtime: Double { nights.map { $0.bedtimeError ?? .infinity }.max() ?? 0 }
    public var worstWaketime: Double { nights.map { $0.waketimeError ?? .infinity }.max() ?? 0 }
    public var worstNaps: Double { nights.map(\.napError).max() ?? 0 }
    public var nightsWhereMainIsNotTheNight: Int { nights.filter { !$0.mainIsTheNight }.count }
    /// Nights reported from another basis than the truth's (only for truth files that say).
    public var basisMismatches: Int { nights.filter { $0.expectedBasis != nil && $0.basis != $0.expectedBasis }.count }
    /// Nights of only time in bed reported as the main sleep, with asleep unknown.
    public var inBedOnlyNightsAsMain: Int {
        inBedOnlyNights.filter { $0.basis == .inBedOnly && $0.asleepError == nil }.count
    }
    public var zeroMinuteNaps: Int { nights.reduce(0) { $0 + $1.zeroMinuteNaps } }

    public var summary: String {
        var text = String(
            format:
                "sleep sessions: %d nights; worst main-sleep asleep error %.2f min, bedtime %.2f min, wake time %.2f min, naps %.2f min; main sleep not the night on %d nights; %d 0-minute naps",
            nights.count, worstAsleep, worstBedtime, worstWaketime, worstNaps, nightsWhereMainIsNotTheNight, zeroMinuteNaps)
        if nights.contains(where: { $0.expectedBasis != nil }) {
            let inBed = inBedOnlyNights
            text += String(
                format:
                    "\n  %d measured nights (worst asleep error %.2f min); %d nights of time in bed only, %d reported as the main sleep (worst bedtime %.2f min, wake time %.2f min); %d nights from another basis than the truth's",
                measuredNights.count, worstAsleep, inBed.count, inBedOnlyNightsAsMain,
                inBed.map { $0.bedtimeError ?? .infinity }.max() ?? 0, inBed.map { $0.waketimeError ?? .infinity }.max() ?? 0,
                basisMismatches)
        }
        return text
    }
}

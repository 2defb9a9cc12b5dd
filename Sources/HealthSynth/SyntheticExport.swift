import Foundation
import HealthCore

/// A deterministic synthetic Apple Health export with ground truth.
///
/// It models what makes real data hard: Watch and iPhone both counting steps with different
/// sample lengths, phone-only mornings, Watch charging gaps, Watch sleep stages with
/// `HKTimeZone` under an iPhone in-bed schedule and a third-party sleep app, nights that
/// start after midnight, naps, blood-pressure correlations duplicated at top level,
/// workouts with statistics and GPX routes, a trip to another zone, DST changes, exact
/// duplicate records, and every timestamp written at the export-time offset. The
/// ``Persona/noWatch`` persona lives the same days without a Watch (docs/synthetic.md).
///
/// ```swift
/// let truth = try SyntheticExport(configuration: .init(days: 30, seed: 7)).write(to: url)
/// ```
public struct SyntheticExport: Sendable {
    /// Who is recorded: what they wear and carry.
    public enum Persona: String, Sendable, Hashable, CaseIterable {
        /// An Apple Watch day and night and an iPhone, with the iPhone's bedtime schedule and
        /// a third-party sleep app (AutoSleep) writing the same nights (the default).
        case watch
        /// No Apple Watch: steps from the iPhone when carried and from a Garmin watch on runs
        /// (Garmin Connect); heart data, most nights and the naps from an Oura ring; some
        /// nights from a Withings mat (asleep, no stages); one night in seven only the
        /// iPhone's bedtime schedule (time in bed, asleep unknown).
        case noWatch = "no-watch"
    }

    /// What to generate.
    public struct Configuration: Sendable {
        public var days = 30
        public var seed: UInt64 = 1
        /// The first local day (`YYYY-MM-DD`).
        public var startDate = "2024-01-01"
        public var homeZone = "America/Los_Angeles"
        public var tripZone = "Europe/Paris"
        /// Heart-rate samples per hour while the Watch is worn (Apple writes 6–12 at rest).
        public var heartRatePerHour = 12
        /// First day of the 7-day trip to `tripZone` (`YYYY-MM-DD`); by default 40% into the
        /// range when it spans at least 20 days. Set it to make overlapping exports agree.
        public var tripStartDate: String?
        /// Who is recorded (``Persona``); the walks, runs, nights and naps are the same.
        public var persona = Persona.watch

        public init(days: Int = 30, seed: UInt64 = 1) {
            self.days = days
            self.seed = seed
        }
    }

    public let configuration: Configuration
    let home: TimeZone
    let trip: TimeZone
    /// Absolute days (since 1970-01-01) spent in `tripZone`.
    let tripDays: Range<Int>
    let firstDay: Int

    public init(configuration: Configuration) throws {
        self.configuration = configuration
        guard let home = TimeZone(identifier: configuration.homeZone), let trip = TimeZone(identifier: configuration.tripZone)
        else { throw SynthError("unknown time zone \(configuration.homeZone) or \(configuration.tripZone)") }
        guard let first = ExportDate.parse(configuration.startDate + " 00:00:00 +0000") else {
            throw SynthError("start date must be YYYY-MM-DD")
        }
        guard configuration.days > 0 else { throw SynthError("days must be at least 1") }
        self.home = home
        self.trip = trip
        firstDay = Int(first.date.timeIntervalSince1970 / 86400)
        if let trip = configuration.tripStartDate {
            guard let parsed = ExportDate.parse(trip + " 00:00:00 +0000") else {
                throw SynthError("trip start must be YYYY-MM-DD")
            }
            let start = Int(parsed.date.timeIntervalSince1970 / 86400)
            tripDays = start..<(start + 7)
        } else {
            let start = firstDay + configuration.days * 2 / 5
            tripDays = configuration.days >= 20 ? start..<(start + 7) : 0..<0
        }
    }

    /// Whether day `index` (negative: before the first) is the load day of a strain episode:
    /// every 23rd absolute day, shifted by the seed, so overlapping exports agree.
    func isLoadDay(_ index: Int) -> Bool {
        (firstDay + index - Int(configuration.seed % 23)) % 23 == 0
    }

    func zone(forDay index: Int) -> TimeZone { tripDays.contains(firstDay + index) ? trip : home }

    /// Start, end and `YYYY-MM-DD` of local day `index` in `zone` (23, 24 or 25 hours long).
    func localDay(_ index: Int, in zone: TimeZone) -> (start: Date, end: Date, date: String) {
        let (year, month, day) = CivilDays.date(firstDay + index)
        let (nextYear, nextMonth, nextDay) = CivilDays.date(firstDay + index + 1)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let start = calendar.date(from: DateComponents(year: year, month: month, day: day))!
        let end = calendar.date(from: DateComponents(year: nextYear, month: nextMonth, day: nextDay))!
        let text = String(format: "%04d-%02d-%02d", year, month, day)
        return (start, end, text)
    }

    /// The random stream of day `index` for one purpose. Keyed by the absolute calendar
    /// day, so two exports with the same seed whose ranges overlap hold the same records
    /// for the shared days (what a newer export of the same phone looks like).
    func rng(day index: Int, stream: UInt64) -> SplitMix {
        let absolute = UInt64(bitPattern: Int64(firstDay + index))
        var mixer = SplitMix(seed: configuration.seed &* 0x2545_F491_4F6C_DD1D &+ absolute &* 0x9E37_79B9 &+ stream)
        return SplitMix(seed: mixer.next())
    }

    /// The moment of export: an hour after the last day ends.
    var exportDate: Date {
        let last = configuration.days - 1
        return localDay(last, in: zone(forDay: last)).end.addingTimeInterval(3600)
    }

    /// The offset every timestamp is written with: the home zone's at export time.
    var exportOffset: Int { home.secondsFromGMT(for: exportDate) }
}

/// A generator setting that cannot work.
public struct SynthError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}

import Foundation
import HealthCore
import HealthMetrics

/// Produces ``NormalizedDailyMetrics`` per local day from any ``HealthQuerying`` store (the
/// Flo seed's `HealthKitNormalisationService`). Zones, "now" and the rule version are
/// injected; nothing is read from the system inside.
///
/// A range is answered with one query per type over the whole range (not per day), so the
/// cost grows with the days asked for, not with the size of the store.
///
/// ```swift
/// var configuration = DailyNormalizer.Configuration()
/// configuration.homeZone = TimeZone(identifier: "America/Los_Angeles")!
/// let normalizer = DailyNormalizer(store: database.store, configuration: configuration, now: { Date() })
/// let week = try await normalizer.lastNDays(7)   // oldest first, one payload per day
/// ```
public struct DailyNormalizer: Sendable {
    /// Settings of a normaliser.
    public struct Configuration: Sendable {
        /// The zone of days without `HKTimeZone` evidence.
        public var homeZone = TimeZone(identifier: "UTC")!
        /// When set, every day is in this zone.
        public var explicitZone: TimeZone?
        public var version = NormalizationVersion.v1
        /// Written into every payload as `user_id`.
        public var userID: String?
        /// Days per store round trip for long ranges (bounds memory).
        public var chunkDays = 92

        public init() {}
    }

    public let store: any HealthQuerying
    public let configuration: Configuration
    let now: @Sendable () -> Date
    private var resolver: LocalDayResolver {
        LocalDayResolver(store: store, homeZone: configuration.homeZone, explicitZone: configuration.explicitZone)
    }

    public init(store: any HealthQuerying, configuration: Configuration, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.configuration = configuration
        self.now = now
    }

    /// The metrics of one local day.
    public func metrics(for date: LocalDate) async throws -> NormalizedDailyMetrics {
        try await metrics(from: date, through: date)[0]
    }

    /// `n` consecutive local days ending today, oldest first, one payload per day (days
    /// without data too, every metric `nil`).
    public func lastNDays(_ n: Int) async throws -> [NormalizedDailyMetrics] {
        precondition(n > 0, "lastNDays needs at least one day")
        let today = try await self.today()
        return try await metrics(from: today.adding(days: -(n - 1)), through: today)
    }

    /// Today's local date: "now" in the zone in effect now.
    public func today() async throws -> LocalDate {
        let instant = now()
        return LocalDate(instant, in: try await zone(at: instant))
    }

    /// The zone in effect at `instant`, from the evidence up to it.
    func zone(at instant: Date) async throws -> TimeZone {
        let window = DateInterval(start: instant.addingTimeInterval(-ZoneTimeline.lookBack), end: instant.addingTimeInterval(60))
        return try await resolver.zoneTimeline(over: window).zone(at: instant)
    }

    /// The zone a workout's clock times and day are read in: the explicit zone (`--tz`), else
    /// the zone it was recorded in (`HKTimeZone`), else the zone of the local day its start
    /// is counted in. A run without `HKTimeZone` (Strava's, an iPhone's, an old export's) was
    /// shown in the home zone — the machine's — while the days put it in New York.
    public func zone(of workout: Workout) async throws -> TimeZone {
        try await workoutZones([(workout.start, workout.metadata.timeZoneIdentifier)])[0]
    }

    /// ``zone(of:)`` for many workouts at once — each a start and the zone it recorded, if
    /// any — in their order: the local days over their span are read once, not per workout.
    public func workoutZones(_ workouts: [(start: Date, recorded: String?)]) async throws -> [TimeZone] {
        if let explicit = configuration.explicitZone { return workouts.map { _ in explicit } }
        let recorded = workouts.map { $0.recorded.flatMap(TimeZone.init(identifier:)) }
        let open = zip(workouts, recorded).filter { $0.1 == nil }.map(\.0.start)
        guard let earliest = open.min(), let latest = open.max() else { return recorded.map { $0! } }
        // Dates in UTC, widened by two: a day's zone is at most 14 hours from UTC.
        let utc = TimeZone(identifier: "UTC")!
        let days = try await localDays(
            from: LocalDate(earliest, in: utc).adding(days: -2), through: LocalDate(latest, in: utc).adding(days: 2))
        var zones: [TimeZone] = []
        for (workout, known) in zip(workouts, recorded) {
            if let known {
                zones.append(known)
                continue
            }
            // The days tile time in order: the first that ends after the start holds it.
            var low = 0
            var high = days.count
            while low < high {
                let middle = (low + high) / 2
                if days[middle].interval.end <= workout.start { low = middle + 1 } else { high = middle }
            }
            if low < days.count, days[low].interval.start <= workout.start {
                zones.append(days[low].zone)
            } else {
                zones.append(try await localDay(containing: workout.start).zone)
            }
        }
        return zones
    }

    /// Every local day from `first` through `last` with the zone and bounds its metrics use
    /// (tiled across zone changes): for readers that bucket samples as the days do.
    public func localDays(from first: LocalDate, through last: LocalDate) async throws -> [LocalDay] {
        try await resolver.localDays(from: first, through: last)
    }

    /// The local day `instant` falls in, in the zone in effect then, with the same bounds
    /// ``metrics(from:through:)`` uses (tiled across zone changes).
    public func localDay(containing instant: Date) async throws -> LocalDay {
        let date = LocalDate(instant, in: try await zone(at: instant))
        let days = try await resolver.localDays(from: date.adding(days: -1), through: date.adding(days: 1))
        return days.first { $0.interval.contains(instant) && instant < $0.interval.end } ?? days[1]
    }

    /// Every local day from `first` through `last`, oldest first.
    public func metrics(from first: LocalDate, through last: LocalDate) async throws -> [NormalizedDailyMetrics] {
        guard first <= last else { return [] }
        var result: [NormalizedDailyMetrics] = []
        var history: [Int?] = try await stepsHistory(before: first)
        var chunkStart = first
        while chunkStart <= last {
            let chunkEnd = min(last, chunkStart.adding(days: configuration.chunkDays - 1))
            let chunk = try await compute(from: chunkStart, through: chunkEnd, history: &history)
            result += chunk
            chunkStart = chunkEnd.adding(days: 1)
        }
        return result
    }

    /// Normalised steps of the 30 days before `first`, for the suspicious-day rule.
    private func stepsHistory(before first: LocalDate) async throws -> [Int?] {
        let start = first.adding(days: -30)
        let days = try await resolver.localDays(from: start, through: first.adding(days: -1))
        let span = DateInterval(start: days[0].interval.start, end: days[days.count - 1].interval.end)
        let steps = try await store.samples(of: .stepCount, overlapping: span)
        let index = SampleIndex(steps)
        let count = try HealthUnit(parsing: "count")
        return days.map { day in
            CumulativeRule.evaluate(
                index.overlapping(day.interval), day: day.interval, unit: count, version: configuration.version
            )
            .value.flatMap { Int(roundingSaturating: $0) }
        }
    }

    private func compute(
        from first: LocalDate, through last: LocalDate, history: inout [Int?]
    ) async throws
        -> [NormalizedDailyMetrics]
    {
        let days = try await resolver.localDays(from: first, through: last)
        let span = DateInterval(start: days[0].interval.start, end: days[days.count - 1].interval.end)
        let sleepSpan = DateInterval(start: days[0].sleepWindow.start, end: days[days.count - 1].sleepWindow.end)
        let answers = try await store.samples(of: [
            (.stepCount, span), (.activeEnergyBurned, span), (.sleepAnalysis, sleepSpan), (.restingHeartRate, span),
            (.heartRateVariabilitySDNN, span),
        ])
        let (stepIndex, energyIndex, sleepIndex, restingIndex, hrvIndex) = (
            SampleIndex(answers[0]), SampleIndex(answers[1]), SampleIndex(answers[2]), SampleIndex(answers[3]),
            SampleIndex(answers[4])
        )
        let units = try (
            count: HealthUnit(parsing: "count"), kcal: HealthUnit(parsing: "kcal"), bpm: HealthUnit(parsing: "count/min"),
            ms: HealthUnit(parsing: "ms")
        )
        let created = now()
        let sleepWindows = SleepWindows.of(days, sleep: sleepIndex)
        return zip(days, sleepWindows).map { day, sleepWindow in
            let version = configuration.version
            let stepsResult = CumulativeRule.evaluate(
                stepIndex.overlapping(day.interval), day: day.interval, unit: units.count, version: version)
            let energyResult = CumulativeRule.evaluate(
                energyIndex.overlapping(day.interval), day: day.interval, unit: units.kcal, version: version)
            // Saturating: a stored absurd count (1e300) must not trap; NaN (∞ − ∞) gives nil.
            let steps = stepsResult.value.flatMap { Int(roundingSaturating: $0) }
            let trailing = history.suffix(30).compactMap { $0 }
            history.append(steps)
            let sources =
                stepsResult.rawSampleCount == 0
                ? nil
                : StepsSourcesMetadata(
                    primarySource: stepsResult.primarySource?.rawValue,
                    secondarySourcesUsed: stepsResult.secondarySourcesUsed.map(\.rawValue),
                    ignoredSources: stepsResult.ignoredSources.map(\.rawValue),
                    suspiciousSteps: steps.map { SuspiciousStepsRule.isSuspicious(steps: $0, trailing: trailing) } ?? false,
                    rawSampleCount: stepsResult.rawSampleCount)
            let night = SleepRule.night(sleepIndex.overlapping(sleepWindow), window: sleepWindow)
            return NormalizedDailyMetrics(
                userID: configuration.userID, localDate: day.date.description, timezoneIdentifier: day.zone.identifier,
                utcDayStart: day.interval.start, utcDayEnd: day.interval.end, stepsNormalized: steps,
                stepsRawSum: stepsResult.rawSum.flatMap { Int(roundingSaturating: $0) }, stepsSources: sources,
                activeEnergyKcal: energyResult.value.map { ($0 * 100).rounded() / 100 },
                sleepHours: night?.asleepSeconds.map { $0 / 3600 },
                sleepSource: night.map { SleepSourceMetadata(basis: $0.basis, inBedHours: $0.inBedSeconds / 3600) },
                restingHRBpm: MeanRule.mean(restingIndex.overlapping(day.interval), day: day.interval, unit: units.bpm),
                hrvMs: MeanRule.mean(hrvIndex.overlapping(day.interval), day: day.interval, unit: units.ms),
                normalizationVersion: version.rawValue, createdAt: created)
        }
    }
}

/// Samples sorted by start, answering "which overlap this interval" by binary search.
struct SampleIndex {
    private let samples: [Sample]
    private let longest: TimeInterval

    init(_ samples: [Sample]) {
        self.samples = samples.sorted { $0.start < $1.start }
        longest = samples.map { $0.end.timeIntervalSince($0.start) }.max() ?? 0
    }

    /// Samples that overlap `interval` (``Sample/overlaps(_:)``).
    func overlapping(_ interval: DateInterval) -> [Sample] {
        let lowest = interval.start.addingTimeInterval(-longest)
        var low = 0
        var high = samples.count
        while low < high {
            let middle = (low + high) / 2
            if samples[middle].start < lowest { low = middle + 1 } else { high = middle }
        }
        var found: [Sample] = []
        var index = low
        while index < samples.count, samples[index].start < interval.end {
            let sample = samples[index]
            if sample.overlaps(interval) { found.append(sample) }
            index += 1
        }
        return found
    }
}

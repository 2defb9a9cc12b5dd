import Foundation
import HealthCore
import HealthDaily
import HealthMetrics
import HealthReadiness

/// Builds a ``DashboardData`` from a store with the same rules as `healthpipe days`,
/// `sleep` and `readiness`: the page's numbers are theirs.
public struct DashboardAssembler: Sendable {
    /// What the page is drawn with.
    public struct Settings: Sendable {
        /// Zones and normalisation rules (as `healthpipe days`).
        public var normalization = DailyNormalizer.Configuration()
        /// Readiness settings (as `healthpipe readiness`).
        public var readiness = ReadinessConfiguration()
        /// Trend range in days: 7, 30, 90 or 365.
        public var rangeDays = 30
        /// Ring goals when the store has no Activity summary for the day.
        public var moveGoalKcal = 500.0
        public var exerciseGoalMinutes = 30.0
        public var standGoalHours = 12.0
        /// Workouts listed.
        public var workoutCount = 8
        /// The data the viewer has not granted: never read, or cleared from the days before
        /// they reach the page; the panels that need it show the denied view.
        public var withheld: Set<HealthDataCategory> = []

        public init() {}

        /// The ranges the page offers.
        public static let ranges = [7, 30, 90, 365]
    }

    public let store: any HealthQuerying
    public let settings: Settings
    private let now: @Sendable () -> Date
    private let daily: (any DailyMetricsSource)?

    /// `daily`, when given, supplies the daily metrics (a ``DailyMetricsCache``, or the
    /// server's stored days); they must be those of `settings.normalization`.
    public init(
        store: any HealthQuerying, settings: Settings, now: @escaping @Sendable () -> Date,
        daily: (any DailyMetricsSource)? = nil
    ) {
        self.store = store
        self.settings = settings
        self.now = now
        self.daily = daily
    }

    /// The dashboard for `today`. Without it: today in the zone in effect, or the last day
    /// with data when the store holds nothing newer (``DataAnchor``), which the page says.
    public func assemble(today: LocalDate? = nil) async throws -> DashboardData {
        let normalizer = DailyNormalizer(store: store, configuration: settings.normalization, now: now)
        let range = max(1, settings.rangeDays)
        let last: LocalDate
        var note: String?
        if let today {
            last = today
        } else {
            let anchor = try await normalizer.anchor(excluding: settings.withheld, daily: daily)
            last = anchor.day
            note = anchor.movedNote(days: range)
        }
        let first = last.adding(days: -(range - 1))
        // Readiness reads the 60 days before today: one pass covers both.
        let from = min(first, last.adding(days: -ReadinessEngine.historyDays))
        let history = try await (daily ?? normalizer).metrics(from: from, through: last)
        let withheld = settings.withheld
        let days = history.filter { $0.localDate >= first.description }.map { $0.withholding(withheld) }
        let todayMetrics = days.last
        let denied = DashboardPanel.denied(by: withheld)

        var readiness: ReadinessScore?
        if !denied.contains(.readiness) {
            readiness = try ReadinessEngine(configuration: settings.readiness).score(on: last.description, history: history)
        }
        var nights: [SleepNight] = []
        if !denied.contains(.sleep) {
            nights = try await SleepAnalyzer(store: store, configuration: settings.normalization)
                .nights(from: max(first, last.adding(days: -89)), through: last)
        }
        let weights = withheld.contains(.body) ? [] : try await dailyWeights(days)
        let workoutsEnd = todayMetrics?.utcDayEnd ?? now()
        let workouts = denied.contains(.workouts) ? [] : try await recentWorkouts(before: workoutsEnd)
        let totals = denied.contains(.workouts) ? [] : try await monthTotals(before: workoutsEnd)
        let rings =
            denied.contains(.today)
            ? ActivityRings(
                moveKcal: nil, moveGoalKcal: settings.moveGoalKcal, exerciseMinutes: nil,
                exerciseGoalMinutes: settings.exerciseGoalMinutes, standHours: nil, standGoalHours: settings.standGoalHours)
            : try await rings(todayMetrics)
        var data = DashboardData(
            today: last.description, zone: todayMetrics?.timezoneIdentifier ?? settings.normalization.homeZone.identifier,
            rangeDays: range, days: days, nights: nights, readiness: readiness, weights: weights, workouts: workouts,
            rings: rings, withheld: withheld)
        data.latestDataNote = note
        data.workoutTotals = totals
        data.workoutZones = try await normalizer.workoutZones(workouts.map { ($0.start, $0.timeZone) }).map(\.identifier)
        return data
    }

    /// The 30 days' workouts ending at `end`, totalled per activity (most workouts first).
    private func monthTotals(before end: Date) async throws -> [ActivityTotal] {
        let month = try await WorkoutSummarizer(store: store, withheld: settings.withheld).workouts(
            in: DateInterval(start: end.addingTimeInterval(-30 * 86400), end: end), limit: 10_000, routePoints: 0)
        return Dictionary(grouping: month, by: \.activity).map { activity, workouts in
            func sum(_ values: [Double?]) -> Double? {
                let known = values.compactMap { $0 }
                return known.isEmpty ? nil : known.reduce(0, +)
            }
            return ActivityTotal(
                activity: activity, count: workouts.count,
                seconds: workouts.reduce(0) { $0 + ($1.durationSeconds ?? $1.end.timeIntervalSince($1.start)) },
                distanceKm: sum(workouts.map(\.distanceKm)), energyKcal: sum(workouts.map(\.energyKcal)))
        }
        .sorted { ($1.count, $0.activity) < ($0.count, $1.activity) }
    }

    /// Each day's last weighing in kg, `nil` where there is none.
    private func dailyWeights(_ days: [NormalizedDailyMetrics]) async throws -> [Double?] {
        guard let start = days.first?.utcDayStart, let end = days.last?.utcDayEnd, start < end else { return [] }
        let kilograms = try HealthUnit(parsing: "kg")
        let samples = try await store.samples(of: .bodyMass, overlapping: DateInterval(start: start, end: end))
        return days.map { day in
            let weighing = samples.last { $0.start >= day.utcDayStart && $0.start < day.utcDayEnd }
            guard let weighing, let value = weighing.value.number, let symbol = weighing.value.unit,
                let unit = try? HealthUnit(parsing: symbol)
            else { return nil }
            return try? unit.convert(value, to: kilograms)
        }
    }

    /// Today's rings: move from the day's active energy; exercise minutes and stand hours
    /// from the day's samples — each, without them, what the day's Activity summary says it
    /// achieved (an old export's days often have the summary and none of those samples).
    private func rings(_ day: NormalizedDailyMetrics?) async throws -> ActivityRings {
        var rings = ActivityRings(
            moveKcal: day?.activeEnergyKcal, moveGoalKcal: settings.moveGoalKcal, exerciseMinutes: nil,
            exerciseGoalMinutes: settings.exerciseGoalMinutes, standHours: nil, standGoalHours: settings.standGoalHours)
        guard let day, day.utcDayStart < day.utcDayEnd else { return rings }
        // The goals the person set, from the day's Activity summary when the export has one.
        let summary = try await store.activitySummary(on: day.localDate)
        /// A figure of the summary's energy, in its unit (kcal when it names none), as kcal.
        func kcal(_ value: Double?) -> Double? {
            guard let value, let unit = try? HealthUnit(parsing: summary?.activeEnergyBurnedUnit ?? "kcal") else { return nil }
            return try? unit.convert(value, to: HealthUnit(parsing: "kcal"))
        }
        if let summary {
            if let goal = summary.activeEnergyBurnedGoal, goal > 0, let goal = kcal(goal) { rings.moveGoalKcal = goal }
            if let goal = summary.appleExerciseTimeGoal, goal > 0 { rings.exerciseGoalMinutes = goal }
            if let goal = summary.appleStandHoursGoal, goal > 0 { rings.standGoalHours = goal }
        }
        let interval = DateInterval(start: day.utcDayStart, end: day.utcDayEnd)
        let exercise = try await store.statistics(of: .appleExerciseTime, over: interval, unit: HealthUnit(parsing: "min"))
        rings.exerciseMinutes = exercise.count > 0 ? exercise.sum : nil
        let stands = try await store.samples(of: .appleStandHour, overlapping: interval)
        if !stands.isEmpty {
            let stood = Set(
                stands.filter { $0.value.text == "HKCategoryValueAppleStandHourStood" }
                    .compactMap { Int(truncatingSaturating: $0.start.timeIntervalSince1970 / 3600) })
            rings.standHours = Double(stood.count)
        }
        if let summary {
            rings.moveKcal = rings.moveKcal ?? kcal(summary.activeEnergyBurned)
            rings.exerciseMinutes = rings.exerciseMinutes ?? summary.appleExerciseTime
            rings.standHours = rings.standHours ?? summary.appleStandHours
        }
        return rings
    }

    /// The latest workouts ending before `end` (over the 90 days before), each with its active
    /// energy, distance and mean heart rate (what it recorded of itself, else from the samples
    /// of its span, each saying which) and its route.
    private func recentWorkouts(before end: Date) async throws -> [WorkoutSummary] {
        try await WorkoutSummarizer(store: store, withheld: settings.withheld).workouts(
            in: DateInterval(start: end.addingTimeInterval(-90 * 86400), end: end), limit: settings.workoutCount,
            routePoints: 400)
    }
}

import Foundation
import HealthCore
import HealthDaily
import HealthMetrics
import HealthReadiness

/// The panels of the dashboard, each with the id it carries on the page.
public enum DashboardPanel: String, Sendable, Hashable, CaseIterable {
    case today, readiness, trends, sleep, workouts, quality

    /// The `id` of the panel's `<section>`.
    public var elementID: String { "panel-\(rawValue)" }

    public var title: String {
        switch self {
        case .today: "Today"
        case .readiness: "Readiness"
        case .trends: "Trends"
        case .sleep: "Sleep"
        case .workouts: "Workouts"
        case .quality: "Data quality"
        }
    }

    /// The data the panel draws. Trends draws each of its charts when that chart's data is
    /// granted; every other panel needs all of its categories.
    public var categories: Set<HealthDataCategory> {
        switch self {
        case .today: [.steps, .energy, .activity]
        case .readiness: NormalizedDailyMetrics.categories
        case .trends: [.steps, .energy, .heart, .body]
        case .sleep: [.sleep]
        case .workouts: [.workouts]
        case .quality: [.steps]
        }
    }

    /// The panels drawn as the denied view when `withheld` is not granted.
    public static func denied(by withheld: Set<HealthDataCategory>) -> Set<DashboardPanel> {
        Set(
            allCases.filter { panel in
                panel == .trends ? panel.categories.isSubset(of: withheld) : !panel.categories.isDisjoint(with: withheld)
            })
    }
}

/// Everything the page shows, as plain values: assembled once, rendered by ``DashboardPage``.
public struct DashboardData: Sendable {
    /// The local day the page is about, and its zone.
    public var today: String
    public var zone: String
    /// The trend range, in days (7, 30, 90 or 365).
    public var rangeDays: Int
    /// The daily metrics of the range, oldest first, ending today.
    public var days: [NormalizedDailyMetrics]
    /// Sleep per wake day over the range (at most the last 90), oldest first.
    public var nights: [SleepNight]
    /// Today's readiness; `nil` with a reason when it cannot be scored.
    public var readiness: ReadinessScore?
    /// Body mass per day (the day's last weighing, kg) over the range, `nil` where none.
    public var weights: [Double?]
    /// The latest workouts, newest first; each figure says where it comes from
    /// (``WorkoutSummary/FigureSource``: the workout's own record, or samples).
    public var workouts: [WorkoutSummary]
    /// The zone each of ``workouts`` is shown in (``DailyNormalizer/workoutZones(_:)``), in
    /// their order; empty: the zone it recorded, else the page's.
    public var workoutZones: [String] = []
    /// The last 30 days' workouts per activity (the workouts panel's totals).
    public var workoutTotals: [ActivityTotal] = []
    /// Today's rings.
    public var rings: ActivityRings
    /// The data the viewer has not granted: its panels (and trend charts) show the denied view.
    public var withheld: Set<HealthDataCategory>
    /// Set when the page opened on the last day with data instead of today (the store holds
    /// nothing newer): ``DataAnchor/movedNote(days:)``, shown under the title.
    public var latestDataNote: String?
    /// The panels drawn as the denied view.
    public var denied: Set<DashboardPanel> { DashboardPanel.denied(by: withheld) }

    public init(
        today: String, zone: String, rangeDays: Int, days: [NormalizedDailyMetrics], nights: [SleepNight],
        readiness: ReadinessScore?, weights: [Double?], workouts: [WorkoutSummary], rings: ActivityRings,
        withheld: Set<HealthDataCategory> = []
    ) {
        self.today = today
        self.zone = zone
        self.rangeDays = rangeDays
        self.days = days
        self.nights = nights
        self.readiness = readiness
        self.weights = weights
        self.workouts = workouts
        self.rings = rings
        self.withheld = withheld
    }

    /// Today's daily metrics (the last day of the range).
    public var todayMetrics: NormalizedDailyMetrics? { days.last { $0.localDate == today } }
}

/// An activity's workouts over a span: how many, their time, distance and energy (`nil`
/// when none of them has the figure).
public struct ActivityTotal: Sendable, Hashable {
    /// `Running`, as ``WorkoutSummary/activity``.
    public var activity: String
    public var count: Int
    /// Their recorded durations, seconds.
    public var seconds: Double
    public var distanceKm: Double?
    public var energyKcal: Double?

    public init(activity: String, count: Int, seconds: Double, distanceKm: Double?, energyKcal: Double?) {
        self.activity = activity
        self.count = count
        self.seconds = seconds
        self.distanceKm = distanceKm
        self.energyKcal = energyKcal
    }
}

/// Move, exercise and stand for one day, against their goals.
public struct ActivityRings: Sendable, Hashable {
    /// Active energy, kcal (the day's normalised figure).
    public var moveKcal: Double?
    public var moveGoalKcal: Double
    /// Minutes of Apple exercise time.
    public var exerciseMinutes: Double?
    public var exerciseGoalMinutes: Double
    /// Hours with a stand.
    public var standHours: Double?
    public var standGoalHours: Double

    public init(
        moveKcal: Double?, moveGoalKcal: Double, exerciseMinutes: Double?, exerciseGoalMinutes: Double, standHours: Double?,
        standGoalHours: Double
    ) {
        self.moveKcal = moveKcal
        self.moveGoalKcal = moveGoalKcal
        self.exerciseMinutes = exerciseMinutes
        self.exerciseGoalMinutes = exerciseGoalMinutes
        self.standHours = standHours
        self.standGoalHours = standGoalHours
    }
}

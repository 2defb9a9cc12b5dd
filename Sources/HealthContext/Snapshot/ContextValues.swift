import Foundation

/// The values of a ``HealthContextSnapshot``: every field of the AirFit seed's struct
/// except its timestamps, each `nil` until a provider fills it.
public struct ContextValues: Hashable, Sendable {
    // User-logged subjective state (daily log), 1–5.
    public var subjectiveEnergyLevel: Int?
    public var subjectiveMood: Int?
    public var subjectiveStress: Int?

    // Environment (weather provider).
    /// Words for the WMO weather code, e.g. "Partly cloudy".
    public var currentWeatherCondition: String?
    public var currentTemperatureCelsius: Double?

    // Vitals: the latest sample within the vitals window before the snapshot.
    public var restingHeartRateBPM: Double?
    public var heartRateVariabilitySDNNms: Double?

    // Today so far, with the daily metrics' dedup rules.
    public var activeEnergyBurnedTodayKcal: Double?
    public var stepCountToday: Int?
    public var exerciseMinutesToday: Int?
    public var standHoursToday: Int?

    // Last night's main sleep.
    /// Time asleep, in hours.
    public var lastNightSleepDurationHours: Double?
    /// Time asleep / time in bed × 100.
    public var lastNightSleepEfficiencyPercentage: Double?
    public var lastNightBedtime: Date?
    public var lastNightWaketime: Date?

    // Body measurements: the latest ever recorded before the snapshot.
    public var latestBodyWeightKg: Double?
    public var latestBodyFatPercentage: Double?

    // App context.
    public var activeWorkoutNameInProgress: String?
    public var timeSinceLastCoachInteractionMinutes: Int?
    /// e.g. "Breakfast (Oatmeal), 2 hours ago".
    public var lastMealLogged: String?
    public var upcomingPlannedWorkoutName: String?

    public init() {}

    /// `true` when `field` has a value.
    public func has(_ field: ContextField) -> Bool { field.access.isSet(self) }

    /// Copies `fields` from `other` (including their `nil`s).
    public mutating func take(_ fields: [ContextField], from other: ContextValues) {
        for field in fields { field.access.copy(other, &self) }
    }
}

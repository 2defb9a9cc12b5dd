import Foundation

/// The values of a ``HealthContextSnapshot``: every field of the AirFit seed's struct
/// except its timestamps, each `nil` until a provider fills it.
public struct ContextValues: Hashable, Sendable {
    /// The values by field: one storage, so copying, testing and coding fields is one loop.
    private(set) var storage: [ContextField: FieldValue] = [:]

    // User-logged subjective state (daily log), 1–5.
    public var subjectiveEnergyLevel: Int? {
        get { storage[.subjectiveEnergyLevel]?.int }
        set { storage[.subjectiveEnergyLevel] = newValue.map(FieldValue.int) }
    }
    public var subjectiveMood: Int? {
        get { storage[.subjectiveMood]?.int }
        set { storage[.subjectiveMood] = newValue.map(FieldValue.int) }
    }
    public var subjectiveStress: Int? {
        get { storage[.subjectiveStress]?.int }
        set { storage[.subjectiveStress] = newValue.map(FieldValue.int) }
    }

    // Environment (weather provider).
    /// Words for the WMO weather code, e.g. "Partly cloudy".
    public var currentWeatherCondition: String? {
        get { storage[.currentWeatherCondition]?.text }
        set { storage[.currentWeatherCondition] = newValue.map(FieldValue.text) }
    }
    public var currentTemperatureCelsius: Double? {
        get { storage[.currentTemperatureCelsius]?.double }
        set { storage[.currentTemperatureCelsius] = newValue.map(FieldValue.double) }
    }

    // Vitals: the latest sample within the vitals window before the snapshot.
    public var restingHeartRateBPM: Double? {
        get { storage[.restingHeartRateBPM]?.double }
        set { storage[.restingHeartRateBPM] = newValue.map(FieldValue.double) }
    }
    public var heartRateVariabilitySDNNms: Double? {
        get { storage[.heartRateVariabilitySDNNms]?.double }
        set { storage[.heartRateVariabilitySDNNms] = newValue.map(FieldValue.double) }
    }

    // Today so far, with the daily metrics' dedup rules.
    public var activeEnergyBurnedTodayKcal: Double? {
        get { storage[.activeEnergyBurnedTodayKcal]?.double }
        set { storage[.activeEnergyBurnedTodayKcal] = newValue.map(FieldValue.double) }
    }
    public var stepCountToday: Int? {
        get { storage[.stepCountToday]?.int }
        set { storage[.stepCountToday] = newValue.map(FieldValue.int) }
    }
    public var exerciseMinutesToday: Int? {
        get { storage[.exerciseMinutesToday]?.int }
        set { storage[.exerciseMinutesToday] = newValue.map(FieldValue.int) }
    }
    public var standHoursToday: Int? {
        get { storage[.standHoursToday]?.int }
        set { storage[.standHoursToday] = newValue.map(FieldValue.int) }
    }

    // Last night's main sleep.
    /// Time asleep, in hours.
    public var lastNightSleepDurationHours: Double? {
        get { storage[.lastNightSleepDurationHours]?.double }
        set { storage[.lastNightSleepDurationHours] = newValue.map(FieldValue.double) }
    }
    /// Time asleep / time in bed × 100.
    public var lastNightSleepEfficiencyPercentage: Double? {
        get { storage[.lastNightSleepEfficiencyPercentage]?.double }
        set { storage[.lastNightSleepEfficiencyPercentage] = newValue.map(FieldValue.double) }
    }
    public var lastNightBedtime: Date? {
        get { storage[.lastNightBedtime]?.instant }
        set { storage[.lastNightBedtime] = newValue.map(FieldValue.instant) }
    }
    public var lastNightWaketime: Date? {
        get { storage[.lastNightWaketime]?.instant }
        set { storage[.lastNightWaketime] = newValue.map(FieldValue.instant) }
    }

    // Body measurements: the latest ever recorded before the snapshot.
    public var latestBodyWeightKg: Double? {
        get { storage[.latestBodyWeightKg]?.double }
        set { storage[.latestBodyWeightKg] = newValue.map(FieldValue.double) }
    }
    public var latestBodyFatPercentage: Double? {
        get { storage[.latestBodyFatPercentage]?.double }
        set { storage[.latestBodyFatPercentage] = newValue.map(FieldValue.double) }
    }

    // App context.
    public var activeWorkoutNameInProgress: String? {
        get { storage[.activeWorkoutNameInProgress]?.text }
        set { storage[.activeWorkoutNameInProgress] = newValue.map(FieldValue.text) }
    }
    public var timeSinceLastCoachInteractionMinutes: Int? {
        get { storage[.timeSinceLastCoachInteractionMinutes]?.int }
        set { storage[.timeSinceLastCoachInteractionMinutes] = newValue.map(FieldValue.int) }
    }
    /// e.g. "Breakfast (Oatmeal), 2 hours ago".
    public var lastMealLogged: String? {
        get { storage[.lastMealLogged]?.text }
        set { storage[.lastMealLogged] = newValue.map(FieldValue.text) }
    }
    public var upcomingPlannedWorkoutName: String? {
        get { storage[.upcomingPlannedWorkoutName]?.text }
        set { storage[.upcomingPlannedWorkoutName] = newValue.map(FieldValue.text) }
    }

    public init() {}

    /// `true` when `field` has a value.
    public func has(_ field: ContextField) -> Bool { storage[field] != nil }

    /// Copies `fields` from `other` (including their `nil`s).
    public mutating func take(_ fields: [ContextField], from other: ContextValues) {
        for field in fields { storage[field] = other.storage[field] }
    }

    /// Writes every field, `null` when empty, instants with the offset of `zone`.
    func encode(to container: inout KeyedEncodingContainer<ContextField>, zone: TimeZone) throws {
        for field in ContextField.allCases {
            switch storage[field] {
            case nil: try container.encodeNil(forKey: field)
            case .int(let value): try container.encode(value, forKey: field)
            case .double(let value): try container.encode(value, forKey: field)
            case .text(let value): try container.encode(value, forKey: field)
            case .instant(let value): try container.encode(LocalTimestamp.format(value, in: zone), forKey: field)
            }
        }
    }

    /// Reads every field present in `container`.
    init(from container: KeyedDecodingContainer<ContextField>) throws {
        for field in ContextField.allCases where try container.contains(field) && !container.decodeNil(forKey: field) {
            switch field.kind {
            case .int: storage[field] = .int(try container.decode(Int.self, forKey: field))
            case .double: storage[field] = .double(try container.decode(Double.self, forKey: field))
            case .text: storage[field] = .text(try container.decode(String.self, forKey: field))
            case .instant:
                guard let instant = LocalTimestamp.parse(try container.decode(String.self, forKey: field)) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: field, in: container, debugDescription: "not an ISO 8601 date-time with an offset")
                }
                storage[field] = .instant(instant)
            }
        }
    }
}

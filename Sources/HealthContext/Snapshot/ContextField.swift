import Foundation

/// The fields of a ``HealthContextSnapshot`` that providers fill, named as in the JSON
/// (the AirFit seed's `HealthContextSnapshot`, in snake case).
public enum ContextField: String, Sendable, Codable, CaseIterable, CodingKey {
    case subjectiveEnergyLevel = "subjective_energy_level"
    case subjectiveMood = "subjective_mood"
    case subjectiveStress = "subjective_stress"
    case currentWeatherCondition = "current_weather_condition"
    case currentTemperatureCelsius = "current_temperature_celsius"
    case restingHeartRateBPM = "resting_heart_rate_bpm"
    case heartRateVariabilitySDNNms = "heart_rate_variability_sdnn_ms"
    case activeEnergyBurnedTodayKcal = "active_energy_burned_today_kcal"
    case stepCountToday = "step_count_today"
    case exerciseMinutesToday = "exercise_minutes_today"
    case standHoursToday = "stand_hours_today"
    case lastNightSleepDurationHours = "last_night_sleep_duration_hours"
    case lastNightSleepEfficiencyPercentage = "last_night_sleep_efficiency_percentage"
    case lastNightBedtime = "last_night_bedtime"
    case lastNightWaketime = "last_night_waketime"
    case latestBodyWeightKg = "latest_body_weight_kg"
    case latestBodyFatPercentage = "latest_body_fat_percentage"
    case activeWorkoutNameInProgress = "active_workout_name_in_progress"
    case timeSinceLastCoachInteractionMinutes = "time_since_last_coach_interaction_minutes"
    case lastMealLogged = "last_meal_logged"
    case upcomingPlannedWorkoutName = "upcoming_planned_workout_name"

    /// How to read, copy and code this field of ``ContextValues``.
    var access: FieldAccess {
        switch self {
        case .subjectiveEnergyLevel: FieldAccess(\.subjectiveEnergyLevel)
        case .subjectiveMood: FieldAccess(\.subjectiveMood)
        case .subjectiveStress: FieldAccess(\.subjectiveStress)
        case .currentWeatherCondition: FieldAccess(\.currentWeatherCondition)
        case .currentTemperatureCelsius: FieldAccess(\.currentTemperatureCelsius)
        case .restingHeartRateBPM: FieldAccess(\.restingHeartRateBPM)
        case .heartRateVariabilitySDNNms: FieldAccess(\.heartRateVariabilitySDNNms)
        case .activeEnergyBurnedTodayKcal: FieldAccess(\.activeEnergyBurnedTodayKcal)
        case .stepCountToday: FieldAccess(\.stepCountToday)
        case .exerciseMinutesToday: FieldAccess(\.exerciseMinutesToday)
        case .standHoursToday: FieldAccess(\.standHoursToday)
        case .lastNightSleepDurationHours: FieldAccess(\.lastNightSleepDurationHours)
        case .lastNightSleepEfficiencyPercentage: FieldAccess(\.lastNightSleepEfficiencyPercentage)
        case .lastNightBedtime: FieldAccess(\.lastNightBedtime)
        case .lastNightWaketime: FieldAccess(\.lastNightWaketime)
        case .latestBodyWeightKg: FieldAccess(\.latestBodyWeightKg)
        case .latestBodyFatPercentage: FieldAccess(\.latestBodyFatPercentage)
        case .activeWorkoutNameInProgress: FieldAccess(\.activeWorkoutNameInProgress)
        case .timeSinceLastCoachInteractionMinutes: FieldAccess(\.timeSinceLastCoachInteractionMinutes)
        case .lastMealLogged: FieldAccess(\.lastMealLogged)
        case .upcomingPlannedWorkoutName: FieldAccess(\.upcomingPlannedWorkoutName)
        }
    }
}

/// Type-erased access to one optional property of ``ContextValues``.
struct FieldAccess {
    let isSet: (ContextValues) -> Bool
    let copy: (ContextValues, inout ContextValues) -> Void
    let encode: (ContextValues, inout KeyedEncodingContainer<ContextField>, ContextField, TimeZone) throws -> Void
    let decode: (KeyedDecodingContainer<ContextField>, ContextField, inout ContextValues) throws -> Void

    init<Value: Codable>(_ path: WritableKeyPath<ContextValues, Value?>) {
        isSet = { $0[keyPath: path] != nil }
        copy = { source, target in target[keyPath: path] = source[keyPath: path] }
        encode = { values, container, key, zone in
            switch values[keyPath: path] {
            case nil: try container.encodeNil(forKey: key)
            case let date as Date: try container.encode(LocalTimestamp.format(date, in: zone), forKey: key)
            case let value?: try container.encode(value, forKey: key)
            }
        }
        decode = { container, key, values in
            if Value.self == Date.self {
                guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return }
                guard let date = LocalTimestamp.parse(text) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container, debugDescription: "not an ISO 8601 date-time with an offset")
                }
                values[keyPath: path] = date as? Value
            } else {
                values[keyPath: path] = try container.decodeIfPresent(Value.self, forKey: key)
            }
        }
    }
}

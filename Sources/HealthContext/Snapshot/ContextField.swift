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

    /// The type of the field's value.
    var kind: FieldValue.Kind {
        switch self {
        case .subjectiveEnergyLevel, .subjectiveMood, .subjectiveStress, .stepCountToday, .exerciseMinutesToday, .standHoursToday,
            .timeSinceLastCoachInteractionMinutes:
            .int
        case .currentTemperatureCelsius, .restingHeartRateBPM, .heartRateVariabilitySDNNms, .activeEnergyBurnedTodayKcal,
            .lastNightSleepDurationHours, .lastNightSleepEfficiencyPercentage, .latestBodyWeightKg, .latestBodyFatPercentage:
            .double
        case .currentWeatherCondition, .activeWorkoutNameInProgress, .lastMealLogged, .upcomingPlannedWorkoutName: .text
        case .lastNightBedtime, .lastNightWaketime: .instant
        }
    }
}

/// One field's value; ``ContextValues`` keeps them by field.
enum FieldValue: Hashable, Sendable {
    case int(Int)
    case double(Double)
    case text(String)
    case instant(Date)

    enum Kind { case int, double, text, instant }

    var int: Int? { if case .int(let value) = self { value } else { nil } }
    var double: Double? { if case .double(let value) = self { value } else { nil } }
    var text: String? { if case .text(let value) = self { value } else { nil } }
    var instant: Date? { if case .instant(let value) = self { value } else { nil } }
}

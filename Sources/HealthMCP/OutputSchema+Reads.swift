import HealthDaily
import HealthMetrics
import HealthReadiness
import MCP

/// The answers of the reading tools (CoachTools+Reads.swift builds them).
extension OutputSchema {
    /// `get_coach_context`: the snapshot of `healthpipe snapshot` (docs/context.md). Every
    /// field is written, `null` when empty; `missing` says why each empty one is.
    static let coachContext = object([
        "timestamp": string("The as-of instant, ISO 8601 with the day's offset."),
        "date": string("The local day of the snapshot (YYYY-MM-DD)."),
        "timezone": string("The IANA zone of that day."),
        "subjective_energy_level": integer("The day's logged energy, 1–5.", nullable: true),
        "subjective_mood": integer("The day's logged mood, 1–5.", nullable: true),
        "subjective_stress": integer("The day's logged stress, 1–5.", nullable: true),
        "current_weather_condition": string("The weather in words (only with lat and lon).", nullable: true),
        "current_temperature_celsius": number("°C (only with lat and lon).", nullable: true),
        "resting_heart_rate_bpm": number("The latest resting heart rate, bpm.", nullable: true),
        "heart_rate_variability_sdnn_ms": number("The latest HRV (SDNN), ms.", nullable: true),
        "active_energy_burned_today_kcal": number("Active energy today so far, kcal.", nullable: true),
        "step_count_today": integer("Steps today so far, never counted twice.", nullable: true),
        "exercise_minutes_today": integer("Exercise minutes today so far.", nullable: true),
        "stand_hours_today": integer("Stand hours today so far.", nullable: true),
        "last_night_sleep_duration_hours": number("Last night's time asleep, hours.", nullable: true),
        "last_night_sleep_efficiency_percentage": number("Asleep ÷ in bed × 100.", nullable: true),
        "last_night_bedtime": string("ISO 8601 with the offset.", nullable: true),
        "last_night_waketime": string("ISO 8601 with the offset.", nullable: true),
        "latest_body_weight_kg": number("The latest weight, kg.", nullable: true),
        "latest_body_fat_percentage": number("The latest body fat, %.", nullable: true),
        "active_workout_name_in_progress": string("The planned workout under way.", nullable: true),
        "time_since_last_coach_interaction_minutes": integer("Minutes.", nullable: true),
        "last_meal_logged": string("The last meal and how long ago.", nullable: true),
        "upcoming_planned_workout_name": string("The next planned workout, today or tomorrow.", nullable: true),
        "missing": array(
            "Each empty field and why it is empty.",
            of: object(["field": string(), "provider": string(), "reason": string()])),
    ])

    /// `get_daily_metrics`: a page of days.
    static let dailyMetrics = object(
        [
            "days": array(
                "One row per local day, oldest first.",
                of: object([
                    "local_date": string("YYYY-MM-DD."), "timezone": string("The IANA zone of the day."),
                    "steps": integer("Steps, Apple Watch and iPhone never counted twice.", nullable: true),
                    "steps_raw_sum": integer("Every source's steps added up (counted twice).", nullable: true),
                    "steps_primary_source": string("apple_watch, iphone or other.", nullable: true),
                    "suspicious_steps": boolean("An extreme outlier against the 30 days before.", nullable: true),
                    "active_energy_kcal": number("kcal.", nullable: true),
                    "sleep_hours": number("Hours asleep; null after a night of only time in bed.", nullable: true),
                    "sleep_basis": choice(
                        "What the night's sleep was taken from.", of: SleepBasis.allCases.map(\.rawValue), nullable: true),
                    "in_bed_hours": number("Hours in bed.", nullable: true),
                    "resting_hr_bpm": number("bpm.", nullable: true), "hrv_ms": number("ms.", nullable: true),
                ])),
            "version": string("The normalisation version (norm_v1, norm_v2)."),
            "withheld": array("Kinds this reader may not see: their fields are null.", of: kind),
            "next_from": nextFrom, "coverage": coverage,
        ], optional: ["next_from"])

    /// `get_sleep`: a page of nights.
    static let sleep = object(
        [
            "nights": array(
                "One per wake day, oldest first.",
                of: object([
                    "local_date": string("The day the sleep ends (YYYY-MM-DD)."),
                    "source": string("The source of the main sleep, else of the naps.", nullable: true),
                    "main": object(
                        [
                            "bedtime": string("ISO 8601 with the offset."), "waketime": string("ISO 8601 with the offset."),
                            "basis": choice("What the source recorded.", of: SleepBasis.allCases.map(\.rawValue)),
                            "asleep_hours": number("Hours asleep; null when only time in bed was recorded.", nullable: true),
                            "in_bed_hours": number("Hours in bed."),
                            "efficiency_percent": number("Asleep ÷ in bed × 100.", nullable: true),
                            "awakenings": integer(
                                "Awake spells between the first and the last sleep; null when only time in bed was recorded.",
                                nullable: true),
                            "stage_minutes": object(
                                [
                                    "deep": number(nullable: true), "core": number(nullable: true),
                                    "rem": number(nullable: true), "unspecified": number(nullable: true),
                                    "awake": number(nullable: true),
                                ],
                                description:
                                    "Minutes per stage; null when the source could not have recorded it (deep, core and REM "
                                    + "without a source of stages; all of them when only time in bed was recorded)."),
                            "timeline": array(
                                "The stages in order (only with include_timeline).",
                                of: object([
                                    "start": string(), "end": string(),
                                    "stage": choice(of: SleepStage.allCases.map(\.rawValue)),
                                ])),
                        ], optional: ["timeline"], nullable: true, description: "The main sleep; null when there was none."),
                    "naps": array(
                        of: object([
                            "start": string(), "end": string(),
                            "asleep_minutes": number("Minutes asleep.", nullable: true),
                        ])),
                ])),
            "next_from": nextFrom,
        ], optional: ["next_from"])

    /// `get_readiness`: a page of scores (`ReadinessScore`, docs/readiness.md).
    static let readiness = object(
        [
            "scores": array(
                "One per day, oldest first.",
                of: object([
                    "date": string("YYYY-MM-DD."),
                    "score": integer("0–100; null when no contributor has data.", nullable: true, in: 0...100),
                    "band": choice(of: ReadinessBand.allCases.map(\.rawValue), nullable: true),
                    "calibrating": boolean("Fewer than 14 valid days: the baselines are still forming."),
                    "valid_days": integer("Days of the last 60 with a plausible HRV, resting HR or sleep."),
                    "confidence": number("0–1."), "reason": string("What moved the score most."),
                    "contributors": array(
                        of: object([
                            "kind": choice(of: ReadinessContributor.Kind.allCases.map(\.rawValue)),
                            "weight": number(), "subscore": number("0–100.", nullable: true),
                            "value": number("In unit.", nullable: true), "baseline": number("In unit.", nullable: true),
                            "band": object(
                                ["lower": number(nullable: true), "upper": number(nullable: true)], nullable: true,
                                description: "The normal values; a null end has no limit."),
                            "unit": string("ms, bpm, h, kcal/day or steps/day."),
                            "note": string(nullable: true),
                        ])),
                ])),
            "next_from": nextFrom, "latest_data": latestData,
            "coverage": coverage.with(description: "The days behind the scores: the page's and the history before them."),
        ], optional: ["next_from", "latest_data"])

    /// Where a workout's figure comes from: `workout` (what it recorded of itself) or
    /// `samples` (those of its span); `null` with the figure.
    static let figureSource = choice(
        of: ([.workout, .samples] as [WorkoutSummary.FigureSource]).map(\.rawValue), nullable: true)

    /// `get_workouts`.
    static let workouts = object([
        "workouts": array(
            "Newest first.",
            of: object(
                [
                    "id": string("For get_workout_details and get_workout_route.", nullable: true),
                    "activity": string("Running, Cycling…"), "start": string("ISO 8601 with the workout's offset."),
                    "duration_minutes": number("Minutes."), "active_energy_kcal": number("kcal.", nullable: true),
                    "distance_km": number("km.", nullable: true), "mean_heart_rate_bpm": number("bpm.", nullable: true),
                    "energy_source": figureSource, "distance_source": figureSource, "heart_rate_source": figureSource,
                    "route": array(
                        "[latitude, longitude] points (only with include_route).", of: array(of: number())),
                ], optional: ["route"])),
        "limit": integer("The most workouts an answer holds (50; 10 with routes)."),
        "withheld": array("Kinds this reader may not see.", of: kind),
    ])
}

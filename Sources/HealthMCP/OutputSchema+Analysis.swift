import HealthDaily
import MCP

/// The answers of the analysis tools, the one workout tools and the one write
/// (CoachTools+Analysis.swift, +Workouts.swift and +TrainingLoad.swift build them).
extension OutputSchema {
    /// A metric of `get_trends` and `compare_periods`.
    static let metric = choice(of: CoachTools.metrics.map(\.name))

    /// `get_trends`.
    static let trends = object(
        [
            "metric": choice(of: CoachTools.trendMetricNames),
            "unit": string("steps, kcal, h, bpm, ms or kg."), "period_days": integer("7, 30, 90 or 365."),
            "from": string("The period's first day (YYYY-MM-DD)."), "to": string("Its last day."),
            "mean": number("The mean of the days with data, in unit.", nullable: true),
            "days_with_data": integer(),
            "total": number("The sum of the days with data, for steps and active_energy; null for the others.", nullable: true),
            "baseline": object(
                [
                    "from": string(), "to": string(), "mean": number(nullable: true), "days_with_data": integer(),
                ], description: "The 60 days before the period."),
            "change": number("mean − the baseline's mean.", nullable: true),
            "change_percent": number("The change in % of the baseline's mean.", nullable: true),
            "weeks": array("The period's weeks, from its first day.", of: trendGroup),
            "months": array("The period's calendar months (the first and last clipped to the period).", of: trendGroup),
            "usual_timezone": string("The zone most of the period's and baseline's days were in.", nullable: true),
            "travel_days": array("The period's days in another zone (YYYY-MM-DD).", of: string()),
            "travel_days_excluded": boolean("Whether those days (and the baseline's) were left out of every mean."),
            "coverage": coverage.with(description: "Of the period's days."),
            "latest_data": latestData,
        ], optional: ["latest_data"])

    /// A week or month of a trend.
    static let trendGroup = object([
        "from": string(), "to": string(), "mean": number(nullable: true), "days_with_data": integer(),
        "total": number("For steps and active_energy; null for the others.", nullable: true),
    ])

    /// `correlate_metrics`.
    static let correlation = object(
        [
            "metric_a": metric, "unit_a": string(), "metric_b": metric, "unit_b": string(),
            "from": string("metric_a's first day (YYYY-MM-DD)."), "to": string("Its last day."),
            "lag_days": integer("metric_b is taken this many days after metric_a.", in: 0...3),
            "pairs": integer("Days with both values (at least 14)."),
            "pearson": number("Pearson's r, −1…1; null when a series does not vary.", nullable: true),
            "spearman": number("Spearman's ρ, −1…1; null when a series does not vary.", nullable: true),
            "pearson_strength": string("none, weak, moderate or strong, with positive or negative."),
            "spearman_strength": string("The same for ρ."),
            "latest_data": latestData, "coverage": coverage.with(description: "Of metric_a's days."),
        ], optional: ["latest_data"])

    /// `compare_around_event`.
    static let aroundEvent = object([
        "date": string("The event's day (YYYY-MM-DD), in neither side."), "days": integer("Days on each side.", in: 3...28),
        "before": object(["from": string(), "to": string()]), "after": object(["from": string(), "to": string()]),
        "baseline": object(["from": string(), "to": string()], description: "The 60 days before the event."),
        "metrics": array(
            of: object([
                "metric": metric, "unit": string(),
                "before_mean": number("In unit; null with fewer than 3 days of data.", nullable: true),
                "before_days": integer(), "after_mean": number(nullable: true), "after_days": integer(),
                "difference": number("after_mean − before_mean.", nullable: true),
                "baseline_sd": number(
                    "The sample standard deviation over the baseline (14 days of data at least).", nullable: true),
                "baseline_days": integer(),
                "difference_in_sd": number("difference ÷ baseline_sd.", nullable: true),
            ])),
        "withheld": array("The metrics this reader may not see.", of: metric),
        "coverage": coverage.with(description: "Of the days from the first before to the last after."),
    ])

    /// `compare_periods`.
    static let comparePeriods = object([
        "a": object(["from": string(), "to": string()], description: "Period A."),
        "b": object(["from": string(), "to": string()], description: "Period B."),
        "metrics": array(
            of: object([
                "metric": metric, "unit": string(),
                "a_mean": number("In unit.", nullable: true), "a_days_with_data": integer(),
                "b_mean": number("In unit.", nullable: true), "b_days_with_data": integer(),
                "difference": number("b_mean − a_mean.", nullable: true),
                "change_percent": number("The difference in % of a_mean.", nullable: true),
            ])),
        "coverage": object(["a": coverage, "b": coverage], description: "Of each period."),
    ])

    /// `list_data_types`.
    static let dataTypes = object([
        "types": array(
            of: object([
                "type": string("The HealthKit identifier."), "name": string("Its short name.", nullable: true),
                "kind": kind, "count": integer("Samples."),
                "first_date": string("YYYY-MM-DD."), "last_date": string("YYYY-MM-DD."),
                "sources": array("The first five.", of: string()), "source_count": integer(),
            ]))
    ])

    /// `query_samples`: each bucket holds `date` (day buckets) or `start` (hour buckets), and
    /// `minutes` (category types), `sum` and `raw_sum` (cumulative types) or `mean`, `min`
    /// and `max` (discrete types).
    static let querySamples = object([
        "type": string("The HealthKit identifier."), "bucket": choice(of: ["hour", "day"]),
        "unit": string("The unit of the figures (min for category types).", nullable: true),
        "buckets": array(
            "The buckets with samples, in order.",
            of: object(
                [
                    "date": string("The day (YYYY-MM-DD)."), "start": string("The hour's start, ISO 8601 with the offset."),
                    "count": integer("Samples."), "minutes": number("Minutes the samples cover."),
                    "sum": number("Watch and iPhone never counted twice.", nullable: true),
                    "raw_sum": number("Every source added up.", nullable: true),
                    "mean": number(nullable: true), "min": number(nullable: true), "max": number(nullable: true),
                ], optional: ["date", "start", "minutes", "sum", "raw_sum", "mean", "min", "max"])),
        "note": string("What the figures are."),
    ])

    /// `log_subjective`: the day's log after the write.
    static let logSubjective = object([
        "date": string("YYYY-MM-DD."), "energy": integer(nullable: true, in: 1...5),
        "mood": integer(nullable: true, in: 1...5), "stress": integer(nullable: true, in: 1...5),
        "note": string(nullable: true),
    ])

    /// `get_workout_details`: `splits` need activity, `heart_rate` heart; what is left out is
    /// named in `withheld`.
    static let workoutDetails = object(
        [
            "id": string(), "activity": string(), "start": string("ISO 8601 with the workout's offset."),
            "end": string("ISO 8601 with the workout's offset."), "duration_minutes": number("End − start, minutes."),
            "statistics": array(
                "What the workout recorded, in its own units.",
                of: object([
                    "type": string(), "sum": number(nullable: true), "average": number(nullable: true),
                    "minimum": number(nullable: true), "maximum": number(nullable: true), "unit": string(nullable: true),
                ])),
            "events": array(
                of: object([
                    "type": string("Pause, Resume, Lap, Segment…"), "at": string("ISO 8601 with the offset."),
                    "duration_minutes": number(nullable: true),
                ])),
            "splits": array(
                "Per km or mile of the route.",
                of: object(["index": integer(), "meters": number(), "seconds": number()])),
            "split_unit": choice(of: ["km", "mi"]),
            "heart_rate": object(
                [
                    "mean_bpm": number("Time-weighted, bpm.", nullable: true),
                    "minimum_bpm": number("bpm.", nullable: true),
                    "maximum_bpm": number("bpm.", nullable: true), "readings": integer(),
                    "max_hr": number("The max_hr given, bpm.", nullable: true),
                    "zones": array(
                        "Five zones: 50, 60, 70, 80, 90 % of max_hr.",
                        of: object(["zone": integer(), "from_bpm": number("bpm."), "seconds": number()])),
                    "below_zones_seconds": number(nullable: true),
                ], optional: ["max_hr", "zones", "below_zones_seconds"]),
            "withheld": array("Kinds left out.", of: kind),
        ], optional: ["splits", "split_unit", "heart_rate"])

    /// `get_workout_route`.
    static let workoutRoute = object([
        "id": string(),
        "points": array(
            "[latitude, longitude, elevation m or null, seconds from the start or null], thinned.",
            of: array(of: number(nullable: true))),
        "recorded_points": integer(),
        "columns": array(of: choice(of: ["latitude", "longitude", "elevation_m", "seconds"])),
        "length_km": number("The route's length, km."),
    ])

    /// `get_training_load` (docs/workouts.md §Training load).
    static let trainingLoad = object(
        [
            "basis": choice(of: TrainingLoad.Basis.allCases.map(\.rawValue)), "unit": choice(of: ["kcal", "min"]),
            "from": string("The 28 days' first day."), "to": string("Their last day."),
            "acute_daily_mean": number("The 7-day mean load per day, in unit.", nullable: true),
            "chronic_daily_mean": number("The 28-day mean load per day, in unit.", nullable: true),
            "ratio": number("acute ÷ chronic.", nullable: true),
            "band": choice(
                of: ([.low, .sweetSpot, .caution, .high] as [TrainingLoad.Band]).map(\.rawValue), nullable: true),
            "covered_days": integer("Days of the 28 the data covers."), "workouts": integer(),
            "days": array(
                of: object(["date": string(), "load": number("kcal or minutes."), "workouts": integer()])),
            "workouts_without_energy": integer("Workouts without an energy figure, counted as 0."),
            "note": string("Said when the default day moved to the last day with data."),
        ], optional: ["workouts_without_energy", "note"])
}

import Foundation
import HealthContext
import HealthCore
import HealthDaily
import HealthMetrics
import HealthReadiness
import MCP

/// The coach's tools: small, correct, explained answers over one person's data — never raw
/// rows. Each answer is structured content (JSON) plus a one-paragraph summary, and stays
/// under ``answerCap`` bytes: ranged tools answer a page at a time and say where the next
/// one starts (`next_from`).
public struct CoachTools: Sendable {
    public let source: CoachSource

    /// The largest structured answer, in bytes of JSON (about 12,000 tokens).
    public static let answerCap = 48 * 1024

    /// Days per page of `get_daily_metrics`, nights per page of `get_sleep`, scores per page
    /// of `get_readiness`: each page stays under the cap (docs/mcp.md measures them).
    static let pageDays = 120
    static let pageNights = 31
    static let pageScores = 31

    public init(source: CoachSource) { self.source = source }

    /// The daily metrics a trend or comparison can be asked about, with their kind of data.
    static let metrics:
        [(name: String, unit: String, category: HealthDataCategory, value: @Sendable (NormalizedDailyMetrics) -> Double?)] =
            [
                ("steps", "steps", .steps, { $0.stepsNormalized.map(Double.init) }),
                ("active_energy", "kcal", .energy, { $0.activeEnergyKcal }),
                ("sleep_hours", "h", .sleep, { $0.sleepHours }),
                ("resting_hr", "bpm", .heart, { $0.restingHRBpm }),
                ("hrv", "ms", .heart, { $0.hrvMs }),
            ]

    // MARK: Definitions

    /// The tools offered (`log_subjective` only when writes are allowed), each with the schema
    /// of its answer (``OutputSchema``). Every tool but `log_subjective` only reads.
    public var definitions: [Tool] { Self.definitions(allowWrites: source.allowWrites) }

    /// The tools a server offers with or without writes.
    public static func definitions(allowWrites: Bool) -> [Tool] {
        let readOnly = Tool.Annotations(readOnlyHint: true, idempotentHint: true, openWorldHint: false)
        let range = { (what: String) -> [String: Value] in
            [
                "from": Schema.date("First local day of \(what), inclusive (YYYY-MM-DD)."),
                "to": Schema.date("Last local day, inclusive."),
            ]
        }
        let metricNames = Self.metrics.map(\.name)
        var tools = [
            Tool(
                name: "get_coach_context", title: "Coach context",
                description:
                    "The person's state right now (or as of `at`; when the data ends before today, as of its newest sample): vitals, today's activity, last night's sleep, body measurements, the daily log, the workout in progress, the last meal — each missing part with its reason. Start here.",
                inputSchema: Schema.object([
                    "at": Schema.string(
                        "The as-of instant, ISO 8601 with an offset (default now, or the newest sample when older)."),
                    "tz": Schema.string("IANA zone of days without a recorded zone (default: the person's)."),
                    "lat": .object([
                        "type": "number", "minimum": -90, "maximum": 90, "description": "Latitude for the weather, with lon.",
                    ]),
                    "lon": .object([
                        "type": "number", "minimum": -180, "maximum": 180, "description": "Longitude for the weather, with lat.",
                    ]),
                ]),
                // Open world: with lat and lon it asks Open-Meteo for the weather.
                annotations: .init(readOnlyHint: true, idempotentHint: true, openWorldHint: true),
                outputSchema: OutputSchema.coachContext),
            Tool(
                name: "get_daily_metrics", title: "Daily metrics",
                description:
                    "One row per local day: steps (Apple Watch and iPhone never counted twice), active energy, sleep hours, resting heart rate, HRV, the step sources. At most \(Self.pageDays) days per answer; `next_from` gives the next page.",
                inputSchema: Schema.object(
                    range("the range").merging([
                        "version": Schema.string("Normalisation version (default norm_v1).", oneOf: ["norm_v1", "norm_v2"])
                    ]) { $1 }, required: ["from", "to"]), annotations: readOnly, outputSchema: OutputSchema.dailyMetrics),
            Tool(
                name: "get_sleep", title: "Sleep per night",
                description:
                    "Each night's main sleep (bedtime, wake time, hours asleep and in bed, efficiency, minutes per stage: deep, core, REM, unstaged, awake; awakenings — null where the source could not have recorded it, such as a night of time in bed alone) and naps, by the day the sleep ends. At most \(Self.pageNights) nights per answer.",
                inputSchema: Schema.object(
                    range("the nights (by wake day)").merging([
                        "include_timeline": Schema.bool("Also give each main sleep's stage timeline (larger answers).")
                    ]) { $1 }, required: ["from", "to"]), annotations: readOnly, outputSchema: OutputSchema.sleep),
            Tool(
                name: "get_readiness", title: "Readiness",
                description:
                    "The readiness score (0–100) and band of each day, with every contributor's value, baseline, normal band and explanation. Give `date`, or `from` and `to` (at most \(Self.pageScores) days); neither: today, or the last day with data when nothing is newer.",
                inputSchema: Schema.object(
                    range("the range").merging(["date": Schema.date("One day (instead of from and to).")]) { $1 }),
                annotations: readOnly, outputSchema: OutputSchema.readiness),
            Tool(
                name: "get_workouts", title: "Workouts",
                description:
                    "Workouts in a range, newest first (at most 50; 10 with routes): activity, start, duration, active energy, distance, mean heart rate, each with its source: workout (what the workout recorded of itself) or samples (computed from those of its span, when it recorded none). Routes only when asked, thinned to 100 points.",
                inputSchema: Schema.object(
                    range("the range").merging([
                        "activity": Schema.string("Only this activity, e.g. Running or Cycling."),
                        "include_route": Schema.bool("Also give each route (latitude, longitude), at most 100 points."),
                        "min_minutes": Schema.integer("Only workouts at least this many minutes long.", 0...10_000),
                    ]) { $1 }, required: ["from", "to"]), annotations: readOnly, outputSchema: OutputSchema.workouts),
            Tool(
                name: "get_trends", title: "Trend of a metric",
                description:
                    "A metric's mean over the last 7, 30, 90 or 365 days (ending `date`; default today, or the last day with data when nothing is newer) against its baseline (the mean of the 60 days before the period), the change, and the means of each week and calendar month (with totals for steps and active energy). `weight` is the day's mean body weight in kg. The days lived in another zone than the usual one are listed; exclude_travel_days leaves them out.",
                inputSchema: Schema.object(
                    [
                        "metric": Schema.string("The metric.", oneOf: Self.trendMetricNames),
                        "period": Schema.integer("Days: 7, 30, 90 or 365.", 7...365),
                        "date": Schema.date(
                            "The period's last day (default today, or the last day with data when nothing is newer)."),
                        "exclude_travel_days": Schema.bool(
                            "Leave out the days spent in another time zone than the usual one (default false)."),
                    ], required: ["metric", "period"]), annotations: readOnly, outputSchema: OutputSchema.trends),
            Tool(
                name: "compare_periods", title: "Compare two periods",
                description:
                    "The mean of each daily metric (or of one) over period A and period B, the difference and the change in percent, and how many days had data.",
                inputSchema: Schema.object(
                    [
                        "a_from": Schema.date("Period A's first day."), "a_to": Schema.date("Period A's last day."),
                        "b_from": Schema.date("Period B's first day."), "b_to": Schema.date("Period B's last day."),
                        "metric": Schema.string("Only this metric (default all).", oneOf: metricNames),
                    ], required: ["a_from", "a_to", "b_from", "b_to"]), annotations: readOnly,
                outputSchema: OutputSchema.comparePeriods),
            Tool(
                name: "list_data_types", title: "What data there is",
                description:
                    "Every kind of sample stored: its HealthKit type, kind of data, number of samples, first and last date, and sources.",
                inputSchema: Schema.object([:]), annotations: readOnly, outputSchema: OutputSchema.dataTypes),
            Tool(
                name: "query_samples", title: "Samples of one type, aggregated",
                description:
                    "One type's samples aggregated per hour or per day: count, sum, mean, minimum, maximum in one unit. At most 14 days of hours or 366 days; never raw samples.",
                inputSchema: Schema.object(
                    range("the range").merging([
                        "type": Schema.string(
                            "The type: a short name (steps, heart_rate, sleep…) or a HealthKit identifier (HKQuantityTypeIdentifierHeartRate)."
                        ),
                        "bucket": Schema.string("hour or day (default day).", oneOf: ["hour", "day"]),
                        "unit": Schema.string("A HealthKit unit such as count/min, kg, kcal (default: the samples' own)."),
                    ]) { $1 }, required: ["type", "from", "to"]), annotations: readOnly,
                outputSchema: OutputSchema.querySamples),
        ]
        tools += Self.workoutTools
        tools.append(Self.trainingLoadTool)
        tools += Self.analysisTools
        if allowWrites {
            tools.append(
                Tool(
                    name: "log_subjective", title: "Log how the person feels",
                    description:
                        "Writes the person's own rating of energy, mood and stress (1–5) and a note into their daily log for a day (default today); what is not given stays as it was. The only tool that writes.",
                    inputSchema: Schema.object([
                        "date": Schema.date("The day (default today)."),
                        "energy": Schema.integer("Energy, 1 (drained) to 5 (full of energy).", 1...5),
                        "mood": Schema.integer("Mood, 1 (low) to 5 (great).", 1...5),
                        "stress": Schema.integer("Stress, 1 (calm) to 5 (very stressed).", 1...5),
                        "note": Schema.string("A short note, at most 500 characters."),
                    ]),
                    annotations: .init(readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false),
                    outputSchema: OutputSchema.logSubjective))
        }
        return tools
    }

    // MARK: Calling

    /// Answers a call; a bad argument, a withheld kind of data or a failure is a tool error
    /// with a hint, never a thrown error.
    public func call(_ name: String, arguments: [String: Value]?) async -> CallTool.Result {
        let arguments = ToolArguments(arguments, tool: name)
        do {
            try require(
                Self.kindsNeeded(tool: name, metric: try? arguments.string("metric"), type: try? arguments.string("type")))
            let answer: Answer
            switch name {
            case "get_coach_context": answer = try await coachContext(arguments)
            case "get_daily_metrics": answer = try await dailyMetrics(arguments)
            case "get_sleep": answer = try await sleep(arguments)
            case "get_readiness": answer = try await readiness(arguments)
            case "get_workouts": answer = try await workouts(arguments)
            case "get_workout_details": answer = try await workoutDetails(arguments)
            case "get_workout_route": answer = try await workoutRoute(arguments)
            case "get_training_load": answer = try await trainingLoad(arguments)
            case "correlate_metrics": answer = try await correlateMetrics(arguments)
            case "compare_around_event": answer = try await compareAroundEvent(arguments)
            case "get_trends": answer = try await trends(arguments)
            case "compare_periods": answer = try await comparePeriods(arguments)
            case "list_data_types": answer = try await dataTypes(arguments)
            case "query_samples": answer = try await querySamples(arguments)
            case "log_subjective" where source.allowWrites: answer = try await logSubjective(arguments)
            case "log_subjective":
                throw ToolError(
                    message: "log_subjective is off: this server is read-only",
                    hint: "Start it with --allow-writes to let the coach record ratings.")
            default:
                throw ToolError(
                    message: "no tool named '\(name.prefix(60))'",
                    hint: "List the tools; they start with get_, compare_, list_ or query_.")
            }
            let size = try JSONEncoder().encode(answer.structured).count
            guard size <= Self.answerCap else {
                throw ToolError(
                    message: "the answer would be \(size) bytes, over the \(Self.answerCap)-byte cap",
                    hint: "Ask for a shorter range.")
            }
            return CallTool.Result(
                content: [Self.text(answer.summary)], structuredContent: answer.structured as Value?, isError: false)
        } catch let error as ToolError {
            return CallTool.Result(content: [Self.text("Error: \(error.message). \(error.hint)")], isError: true)
        } catch let error as DataWithheld {
            return CallTool.Result(content: [Self.text("Error: \(error.description)")], isError: true)
        } catch {
            // No detail: an error's text could carry a path or a value.
            return CallTool.Result(
                content: [Self.text("Error: \(name) failed (\(type(of: error))). Try again, or a shorter range.")], isError: true)
        }
    }

    static func text(_ text: String) -> Tool.Content { .text(text: text, annotations: nil, _meta: nil) }

    /// What a tool answers.
    struct Answer {
        var structured: Value
        var summary: String
    }

    /// A tool needs kinds of data this reader may not see.
    struct DataWithheld: Error, CustomStringConvertible {
        let kinds: Set<HealthDataCategory>
        var description: String {
            "this reader may not see \(kinds.sorted().map(\.rawValue).joined(separator: ", ")) data. "
                + "The person has not allowed it (consent page) or the token does not include it."
        }
    }

    /// The kinds of data a call of `tool` needs all of (with its `metric` or `type` argument);
    /// empty for tools that leave out what the reader may not see instead.
    public static func kindsNeeded(tool: String, metric: String?, type: String?) -> Set<HealthDataCategory> {
        switch tool {
        case "get_sleep": [.sleep]
        case "get_readiness": NormalizedDailyMetrics.categories
        case "get_workouts", "get_workout_details", "get_training_load": [.workouts]
        // A route tells the distance and the pace: activity's.
        case "get_workout_route": [.workouts, .activity]
        case "get_trends" where metric == "weight": [.body]
        case "get_trends", "compare_periods":
            metric.flatMap { name in metrics.first { $0.name == name }.map { [$0.category] } } ?? []
        case "query_samples": type.map { [HealthDataCategory((try? SampleTypeNames.type(named: $0)) ?? SampleType($0))] } ?? []
        default: []
        }
    }

    func require(_ kinds: Set<HealthDataCategory>) throws {
        let missing = kinds.intersection(source.withheld)
        if !missing.isEmpty { throw DataWithheld(kinds: missing) }
    }
}

// MARK: - Values

extension Value {
    /// A number, or `null`.
    static func number(_ value: Double?) -> Value { value.map { .double($0) } ?? .null }
    static func number(_ value: Int?) -> Value { value.map { .int($0) } ?? .null }
    static func text(_ value: String?) -> Value { value.map { .string($0) } ?? .null }
}

/// ISO 8601 with the offset of `zone`: `2024-06-01T23:12:00+02:00`.
func localTime(_ instant: Date, _ zone: TimeZone) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = zone
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: instant)
}

/// `1 234.5`-free numbers for summaries: `8,034` / `7.4`.
func figure(_ value: Double?, _ digits: Int = 0) -> String {
    guard let value, value.isFinite else { return "—" }
    return String(format: "%.\(digits)f", value)
}

import Foundation
import HealthCore
import HealthDaily
import HealthMetrics
import HealthReadiness
import HealthSQLite
import HealthTestSupport
import HealthWeather
import MCP
import Testing

@testable import HealthMCP

/// A generated 60 days (Watch + iPhone, naps, a trip abroad, workouts), imported once.
enum CoachStore {
    static let shared = Task { () throws -> HealthDatabase in
        try await GeneratedStores.imported(days: 60, seed: 7, start: "2024-03-01", heartRatePerHour: 2)
    }

    static let first = LocalDate("2024-03-01")!
    static let last = LocalDate("2024-04-29")!

    static func tools(withheld: Set<HealthDataCategory> = [], allowWrites: Bool = false) async throws -> CoachTools {
        let database = try await shared.value
        var settings = DailyNormalizer.Configuration()
        settings.homeZone = TimeZone(identifier: "America/Los_Angeles")!
        let now = last.instant(hour: 20, in: settings.homeZone)
        return CoachTools(
            source: CoachSource(
                store: database.store, appData: database.appData, weather: OpenMeteoClient(configuration: .init()),
                daily: DailyNormalizer(store: database.store, configuration: settings, now: { now }), normalization: settings,
                withheld: withheld, allowWrites: allowWrites, now: { now }))
    }
}

@Suite struct CoachToolsTests {
    func answer(_ tools: CoachTools, _ name: String, _ arguments: [String: Value]) async throws -> [String: Value] {
        let result = await tools.call(name, arguments: arguments)
        #expect(result.isError == false, "\(name): \(text(result))")
        return try #require(result.structuredContent?.objectValue)
    }

    func text(_ result: CallTool.Result) -> String {
        result.content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }.joined()
    }

    @Test func dailyMetricsAreTheNormalizersAndPageAt120Days() async throws {
        let tools = try await CoachStore.tools()
        let days = try await tools.source.daily.metrics(from: CoachStore.first, through: CoachStore.last)
        let page = try await answer(tools, "get_daily_metrics", ["from": "2024-03-01", "to": "2024-04-29"])
        let rows = try #require(page["days"]?.arrayValue).compactMap(\.objectValue)
        #expect(rows.count == 60 && page["next_from"] == nil)
        for (row, day) in zip(rows, days) {
            #expect(row["local_date"]?.stringValue == day.localDate)
            #expect(row["steps"]?.intValue == day.stepsNormalized)
            #expect(row["sleep_hours"]?.doubleValue == day.sleepHours)
            #expect(row["resting_hr_bpm"]?.doubleValue == day.restingHRBpm)
            #expect(row["hrv_ms"]?.doubleValue == day.hrvMs)
            #expect(row["active_energy_kcal"]?.doubleValue == day.activeEnergyKcal)
        }
        #expect(rows.filter { $0["steps"]?.intValue != nil }.count >= 58)
        // 200 days: the first 120, then the next page from day 121.
        let long = try await answer(tools, "get_daily_metrics", ["from": "2024-01-01", "to": "2024-07-18"])
        #expect(long["days"]?.arrayValue?.count == 120)
        #expect(long["next_from"]?.stringValue == "2024-04-30")
    }

    @Test func trendsAndComparisonsAreMeansOfTheDays() async throws {
        let tools = try await CoachStore.tools()
        let days = try await tools.source.daily.metrics(from: CoachStore.last.adding(days: -66), through: CoachStore.last)
        let trend = try await answer(tools, "get_trends", ["metric": "steps", "period": 7, "date": "2024-04-29"])
        let week = days.suffix(7).compactMap(\.stepsNormalized).map(Double.init)
        let before = days.dropLast(7).compactMap(\.stepsNormalized).map(Double.init)
        let mean = week.reduce(0, +) / Double(week.count)
        let baseline = before.reduce(0, +) / Double(before.count)
        #expect(trend["mean"]?.doubleValue == mean)
        #expect(trend["baseline"]?.objectValue?["mean"]?.doubleValue == baseline)
        #expect(trend["change"]?.doubleValue == mean - baseline)
        let comparison = try await answer(
            tools, "compare_periods",
            ["a_from": "2024-04-16", "a_to": "2024-04-22", "b_from": "2024-04-23", "b_to": "2024-04-29", "metric": "steps"])
        let row = try #require(comparison["metrics"]?.arrayValue?.first?.objectValue)
        #expect(row["b_mean"]?.doubleValue == mean)
    }

    @Test func stepsBySampleQueryMatchTheDaysAndNeverCountTwice() async throws {
        let tools = try await CoachStore.tools()
        let days = try await tools.source.daily.metrics(from: CoachStore.first, through: CoachStore.last)
        let query = try await answer(
            tools, "query_samples", ["type": "HKQuantityTypeIdentifierStepCount", "from": "2024-03-01", "to": "2024-04-29"])
        let buckets = try #require(query["buckets"]?.arrayValue).compactMap(\.objectValue)
        let steps = Dictionary(uniqueKeysWithValues: days.map { ($0.localDate, $0.stepsNormalized) })
        for bucket in buckets {
            let sum = try #require(bucket["sum"]?.doubleValue)
            #expect(Int(sum.rounded()) == steps[bucket["date"]?.stringValue ?? ""] ?? nil)
            #expect((bucket["raw_sum"]?.doubleValue ?? 0) >= sum)
        }
        #expect(buckets.count >= 58)
    }

    @Test func everyAnswerStaysUnderTheCap() async throws {
        let tools = try await CoachStore.tools(allowWrites: true)
        #expect(tools.definitions.count == 15)
        let calls: [(String, [String: Value])] = [
            ("get_coach_context", ["at": "2024-04-29T20:00:00-07:00"]),
            ("get_daily_metrics", ["from": "2024-01-01", "to": "2024-12-31"]),
            ("get_sleep", ["from": "2024-03-01", "to": "2024-04-29"]),
            ("get_sleep", ["from": "2024-03-01", "to": "2024-04-29", "include_timeline": true]),
            ("get_readiness", ["from": "2024-03-01", "to": "2024-04-29"]),
            ("get_workouts", ["from": "2024-03-01", "to": "2024-04-29", "include_route": true]),
            ("get_trends", ["metric": "hrv", "period": 365]), ("list_data_types", [:]), ("get_training_load", [:]),
            ("correlate_metrics", ["metric_a": "sleep_hours", "metric_b": "hrv", "lag": 1]),
            ("compare_around_event", ["date": "2024-04-01", "days": 28]),
            (
                "query_samples",
                ["type": "HKQuantityTypeIdentifierHeartRate", "from": "2024-04-16", "to": "2024-04-29", "bucket": "hour"]
            ),
        ]
        for (name, arguments) in calls {
            let result = await tools.call(name, arguments: arguments)
            #expect(result.isError == false, "\(name): \(text(result))")
            let size = try JSONEncoder().encode(result.structuredContent).count
            #expect(size <= CoachTools.answerCap, "\(name): \(size) bytes")
            #expect(!text(result).isEmpty)
        }
    }

    @Test func withheldKindsAreToolErrorsOrLeftOut() async throws {
        let tools = try await CoachStore.tools(withheld: [.sleep, .heart])
        for name in ["get_sleep", "get_readiness"] {
            let result = await tools.call(name, arguments: ["from": "2024-04-01", "to": "2024-04-02"])
            #expect(result.isError == true && text(result).contains("may not see"), "\(name)")
        }
        let trend = await tools.call("get_trends", arguments: ["metric": "hrv", "period": 7])
        #expect(trend.isError == true && text(trend).contains("heart"))
        let page = try await answer(tools, "get_daily_metrics", ["from": "2024-04-01", "to": "2024-04-07"])
        #expect(page["withheld"] == ["heart", "sleep"])
        let rows = try #require(page["days"]?.arrayValue).compactMap(\.objectValue)
        #expect(rows.allSatisfy { $0["sleep_hours"] == .null && $0["hrv_ms"] == .null && $0["steps"]?.intValue != nil })
        let types = try await answer(tools, "list_data_types", [:])
        let names = try #require(types["types"]?.arrayValue).compactMap { $0.objectValue?["type"]?.stringValue }
        #expect(names.contains("HKQuantityTypeIdentifierStepCount") && !names.contains("HKCategoryTypeIdentifierSleepAnalysis"))
        let context = try await answer(tools, "get_coach_context", ["at": "2024-04-29T20:00:00-07:00"])
        #expect(context["last_night_sleep_duration_hours"] == nil || context["last_night_sleep_duration_hours"] == .null)
        #expect(
            CoachTools.kindsNeeded(tool: "query_samples", metric: nil, type: "HKCategoryTypeIdentifierSleepAnalysis") == [.sleep])
        #expect(CoachTools.kindsNeeded(tool: "get_trends", metric: "resting_hr", type: nil) == [.heart])
        #expect(CoachTools.kindsNeeded(tool: "get_daily_metrics", metric: nil, type: nil).isEmpty)
    }

    @Test func badArgumentsAreToolErrorsWithHints() async throws {
        let tools = try await CoachStore.tools()
        let cases: [(String, [String: Value], String)] = [
            ("get_daily_metrics", ["from": "yesterday", "to": "2024-04-01"], "YYYY-MM-DD"),
            ("get_daily_metrics", ["from": "2024-04-02", "to": "2024-04-01"], "after"),
            ("get_daily_metrics", ["to": "2024-04-01"], "from is required"),
            ("get_daily_metrics", ["from": 20_240_401, "to": "2024-04-01"], "string"),
            ("get_sleep", ["from": "2024-04-01", "to": "2024-04-02", "colour": "blue"], "'colour'"),
            ("get_trends", ["metric": "steps", "period": 8], "7, 30, 90 or 365"),
            ("get_trends", ["metric": "mood", "period": 7], "no metric"),
            ("query_samples", ["type": "stpes", "from": "2024-04-01", "to": "2024-04-02"], "did you mean steps"),
            (
                "query_samples",
                ["type": "HKQuantityTypeIdentifierHeartRate", "from": "2024-03-01", "to": "2024-04-01", "bucket": "hour"],
                "at most 14"
            ),
            ("get_coach_context", ["lat": 52.1], "together"),
            ("log_subjective", ["mood": 4], "--allow-writes"),
            ("no_such_tool", [:], "no tool"),
        ]
        for (name, arguments, words) in cases {
            let result = await tools.call(name, arguments: arguments)
            #expect(result.isError == true && text(result).contains(words), "\(name) \(arguments): \(text(result))")
        }
    }

    /// Issue 33 §5: query_samples takes the short names of every other way in; a wrong
    /// name (HeartRate, a typo) is a tool error naming the closest, never an empty answer.
    @Test func i33_names_querySamplesTakesShortNames() async throws {
        let tools = try await CoachStore.tools()
        let range: [String: Value] = ["from": "2024-04-01", "to": "2024-04-07"]
        let byName = try await answer(tools, "query_samples", range.merging(["type": "steps"]) { $1 })
        let byIdentifier = try await answer(
            tools, "query_samples", range.merging(["type": "HKQuantityTypeIdentifierStepCount"]) { $1 })
        #expect(byName == byIdentifier)
        #expect(try #require(byName["buckets"]?.arrayValue).count == 7)
        #expect(CoachTools.kindsNeeded(tool: "query_samples", metric: nil, type: "sleep") == [.sleep])
        for (name, closest) in [
            ("HeartRate", "heart_rate (HKQuantityTypeIdentifierHeartRate)"),
            ("StepCount", "steps (HKQuantityTypeIdentifierStepCount)"),
        ] {
            let result = await tools.call("query_samples", arguments: range.merging(["type": .string(name)]) { $1 })
            #expect(result.isError == true)
            #expect(text(result).hasPrefix("Error: unknown type '\(name)'; did you mean \(closest), or "), "\(text(result))")
        }
        let types = try await answer(tools, "list_data_types", [:])
        let rows = try #require(types["types"]?.arrayValue).compactMap(\.objectValue)
        let steps = try #require(rows.first { $0["type"]?.stringValue == "HKQuantityTypeIdentifierStepCount" })
        #expect(steps["name"]?.stringValue == "steps")
    }

    @Test func logSubjectiveWritesTheDailyLogOnlyWhenAllowed() async throws {
        let tools = try await CoachStore.tools(allowWrites: true)
        let logged = try await answer(tools, "log_subjective", ["date": "2024-04-20", "energy": 4, "note": "slept badly"])
        #expect(logged["energy"]?.intValue == 4 && logged["note"]?.stringValue == "slept badly")
        let entry = try await tools.source.appData.dailyLog(on: LocalDate("2024-04-20")!)
        #expect(entry?.energy == 4 && entry?.mood == nil)
        let bad = await tools.call("log_subjective", arguments: ["stress": 6])
        #expect(bad.isError == true && text(bad).contains("1 to 5"))
        #expect(!(try await CoachStore.tools()).definitions.contains { $0.name == "log_subjective" })
    }
}

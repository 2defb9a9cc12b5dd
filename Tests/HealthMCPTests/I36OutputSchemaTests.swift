import Foundation
import HealthCore
import HealthDaily
import HealthSQLite
import HealthTestSupport
import HealthWeather
import MCP
import Testing

@testable import HealthMCP

/// Issue 36 §2, typed answers: every tool lists an `outputSchema` and its annotations, and
/// the structured content of every answer validates against that schema — on the generated 60
/// days (where every key any schema declares appears in some answer, so none goes unchecked),
/// with kinds withheld, over a store whose data ended a year ago, and on an empty store.
@Suite struct I36OutputSchemaTests {
    /// Tools over `store` with writes allowed, the app data in memory holding today's log, a
    /// coach interaction 90 minutes ago, a workout under way and one planned for tonight (so
    /// the context's app fields have values of their types).
    static func tools(
        _ store: any HealthQuerying, zone: TimeZone, now: Date, withheld: Set<HealthDataCategory> = []
    ) async throws -> CoachTools {
        let appData = InMemoryAppData()
        let entry = try DailyLogEntry(date: LocalDate(now, in: zone), energy: 4, mood: 3, stress: 2, note: "fine")
        await appData.saveDailyLog(entry)
        await appData.recordCoachInteraction(CoachInteraction(at: now.addingTimeInterval(-5400)))
        let started = now.addingTimeInterval(-1800)
        _ = await appData.addPlannedWorkout(PlannedWorkout(name: "Tempo run", scheduledAt: started, startedAt: started))
        _ = await appData.addPlannedWorkout(PlannedWorkout(name: "Long ride", scheduledAt: now.addingTimeInterval(3600)))
        var settings = DailyNormalizer.Configuration()
        settings.homeZone = zone
        var source = CoachSource(
            store: store, appData: appData, weather: OpenMeteoClient(configuration: .init()),
            daily: DailyNormalizer(store: store, configuration: settings, now: { now }), normalization: settings,
            withheld: withheld, allowWrites: true, now: { now })
        // The whole suite runs at once on two cores: a part of the context may take longer than
        // the 1.5 s a live request gives it.
        source.providerTimeout = 60
        return CoachTools(source: source)
    }

    static func text(_ result: CallTool.Result) -> String {
        result.content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }.joined()
    }

    /// Makes each call, expects an answer (no tool error) and validates its structured content
    /// against the schema the tool lists; gives the key paths the answers held and the tools
    /// that answered.
    static func validate(
        _ tools: CoachTools, _ calls: [(String, [String: Value])], _ label: String
    ) async -> (paths: Set<String>, answered: Set<String>) {
        let schemas = Dictionary(
            uniqueKeysWithValues: tools.definitions.compactMap { tool in tool.outputSchema.map { (tool.name, $0) } })
        var paths: Set<String> = []
        var answered: Set<String> = []
        for (name, arguments) in calls {
            let result = await tools.call(name, arguments: arguments)
            #expect(result.isError == false, "\(label) \(name) \(arguments): \(text(result))")
            guard result.isError == false else { continue }
            guard let content = result.structuredContent, let schema = schemas[name] else {
                Issue.record("\(label) \(name): no structured content or no outputSchema")
                continue
            }
            #expect(SchemaValidator.errors(content, against: schema) == [], "\(label) \(name) \(arguments)")
            paths.formUnion(SchemaValidator.keyPaths(of: content, at: name))
            answered.insert(name)
        }
        return (paths, answered)
    }

    /// A generated run with a route: its id.
    static func run(_ tools: CoachTools) async throws -> Value {
        let listed = await tools.call(
            "get_workouts", arguments: ["from": "2024-03-01", "to": "2024-04-29", "include_route": true])
        let rows = try #require(listed.structuredContent?.objectValue?["workouts"]?.arrayValue).compactMap(\.objectValue)
        let row = try #require(rows.first { !($0["route"]?.arrayValue ?? []).isEmpty })
        return try #require(row["id"])
    }

    @Test func i36_everyToolsStructuredContentValidatesAgainstItsOutputSchema() async throws {
        let database = try await CoachStore.shared.value
        let zone = TimeZone(identifier: "America/Los_Angeles")!
        let now = CoachStore.last.instant(hour: 20, in: zone)
        let tools = try await Self.tools(database.store, zone: zone, now: now)
        let id = try await Self.run(tools)
        let range: [String: Value] = ["from": "2024-03-01", "to": "2024-04-29"]
        // Every optional part appears: next pages, timelines, routes, splits, zones, each kind of bucket.
        let reads: [(String, [String: Value])] = [
            ("get_coach_context", ["at": "2024-04-29T20:00:00-07:00"]), ("get_coach_context", [:]),
            ("get_daily_metrics", ["from": "2024-01-01", "to": "2024-07-18"]),
            ("get_daily_metrics", ["from": "2024-04-01", "to": "2024-04-07", "version": "norm_v2"]),
            ("get_sleep", range), ("get_sleep", ["from": "2024-04-01", "to": "2024-04-29"]),
            ("get_sleep", ["from": "2024-04-20", "to": "2024-04-29", "include_timeline": true]),
            ("get_readiness", range), ("get_readiness", ["date": "2024-04-29"]), ("get_readiness", [:]),
            ("get_workouts", range), ("get_workouts", ["from": "2024-03-01", "to": "2024-04-29", "include_route": true]),
            ("get_workout_details", ["id": id, "max_hr": 190]), ("get_workout_details", ["id": id, "split_unit": "mi"]),
            ("get_workout_route", ["id": id, "max_points": 50]), ("get_workout_route", ["id": id]),
        ]
        let analyses: [(String, [String: Value])] = [
            ("get_training_load", ["date": "2024-04-29"]), ("get_training_load", ["date": "2024-04-29", "basis": "duration"]),
            ("get_trends", ["metric": "steps", "period": 7]), ("get_trends", ["metric": "sleep_hours", "period": 30]),
            ("get_trends", ["metric": "hrv", "period": 90, "date": "2024-04-29"]),
            ("compare_periods", ["a_from": "2024-03-01", "a_to": "2024-03-31", "b_from": "2024-04-01", "b_to": "2024-04-29"]),
            (
                "compare_periods",
                [
                    "a_from": "2024-04-16", "a_to": "2024-04-22", "b_from": "2024-04-23", "b_to": "2024-04-29",
                    "metric": "resting_hr",
                ]
            ),
            ("list_data_types", [:]),
            ("query_samples", ["type": "steps", "from": "2024-04-01", "to": "2024-04-29"]),
            ("query_samples", ["type": "heart_rate", "from": "2024-04-28", "to": "2024-04-29", "bucket": "hour"]),
            ("query_samples", ["type": "sleep", "from": "2024-04-20", "to": "2024-04-29"]),
            ("log_subjective", ["date": "2024-04-20", "energy": 4, "note": "slept badly"]), ("log_subjective", ["mood": 2]),
            ("correlate_metrics", ["metric_a": "sleep_hours", "metric_b": "hrv", "lag": 1]),
            ("compare_around_event", ["date": "2024-04-10", "days": 7]),
            ("get_trends", ["metric": "steps", "period": 30, "exclude_travel_days": true]),
        ]
        let generated = await Self.validate(tools, reads + analyses, "generated")
        // Asked seven weeks after the data ends: the default range moves to its last day.
        let later = try await Self.tools(
            database.store, zone: zone, now: LocalDate("2024-06-15")!.instant(hour: 12, in: zone))
        let moved = await Self.validate(
            later, [("correlate_metrics", ["metric_a": "steps", "metric_b": "active_energy"])], "moved")

        // Kinds withheld: routes, splits, heart rate and energy left out or null.
        let limited = try await Self.tools(database.store, zone: zone, now: now, withheld: [.activity, .heart, .energy])
        let withheld = await Self.validate(
            limited,
            [
                ("get_coach_context", [:]), ("get_daily_metrics", ["from": "2024-04-01", "to": "2024-04-07"]),
                ("get_sleep", ["from": "2024-04-01", "to": "2024-04-07"]),
                ("get_workouts", ["from": "2024-03-01", "to": "2024-04-29", "include_route": true]),
                ("get_workout_details", ["id": id, "max_hr": 190]), ("get_training_load", [:]),
                ("get_trends", ["metric": "steps", "period": 30]),
                (
                    "compare_periods",
                    ["a_from": "2024-03-01", "a_to": "2024-03-31", "b_from": "2024-04-01", "b_to": "2024-04-29"]
                ),
                ("list_data_types", [:]), ("query_samples", ["type": "steps", "from": "2024-04-01", "to": "2024-04-07"]),
            ], "withheld")

        // Data that ended a year ago: the default days move to it and the answers say so.
        let old = try await Self.tools(
            InMemoryHealthStore(samples: YearOldStore.samples), zone: YearOldStore.utc, now: YearOldStore.now)
        let yearOld = await Self.validate(
            old,
            [
                ("get_coach_context", [:]), ("get_readiness", [:]), ("get_trends", ["metric": "steps", "period": 7]),
                ("get_training_load", [:]), ("get_daily_metrics", ["from": "2024-12-24", "to": "2024-12-30"]),
                ("get_sleep", ["from": "2024-12-24", "to": "2024-12-30"]), ("list_data_types", [:]),
                ("get_workouts", ["from": "2024-12-24", "to": "2024-12-30"]),
            ], "year-old")

        // No data at all: every tool answers, with nulls and empty lists, but the two that
        // need a workout's id.
        let nothing = try await Self.tools(
            InMemoryHealthStore(), zone: YearOldStore.utc,
            now: LocalDate(year: 2024, month: 6, day: 1).instant(hour: 12, in: YearOldStore.utc))
        let june: [String: Value] = ["from": "2024-05-01", "to": "2024-06-01"]
        let empty = await Self.validate(
            nothing,
            [
                ("get_coach_context", [:]), ("get_daily_metrics", june), ("get_sleep", june), ("get_readiness", [:]),
                ("get_readiness", june), ("get_workouts", june), ("get_training_load", [:]),
                ("get_trends", ["metric": "hrv", "period": 30]),
                (
                    "compare_periods",
                    ["a_from": "2024-04-01", "a_to": "2024-04-30", "b_from": "2024-05-01", "b_to": "2024-05-31"]
                ),
                ("list_data_types", [:]), ("query_samples", ["type": "steps", "from": "2024-05-25", "to": "2024-06-01"]),
                ("query_samples", ["type": "heart_rate", "from": "2024-05-31", "to": "2024-06-01", "bucket": "hour"]),
                ("log_subjective", ["stress": 3]), ("compare_around_event", ["date": "2024-05-20"]),
            ], "empty")
        for name in ["get_workout_details", "get_workout_route"] {
            let result = await nothing.call(name, arguments: ["id": .string(UUID().uuidString)])
            #expect(result.isError == true && result.structuredContent == nil, "\(name)")
        }

        // A night and an afternoon nap on 2 June (the generated days have no nap).
        let watch = Source(name: "Jane’s Apple Watch")
        func asleep(_ from: String, _ to: String) -> Sample {
            let parse = { (text: String) in ISO8601DateFormatter().date(from: text)! }
            return Sample(
                type: .sleepAnalysis, start: parse(from), end: parse(to),
                value: .category("HKCategoryValueSleepAnalysisAsleepCore"), source: watch)
        }
        let napping = try await Self.tools(
            InMemoryHealthStore(samples: [
                asleep("2024-06-01T23:00:00Z", "2024-06-02T07:00:00Z"), asleep("2024-06-02T14:00:00Z", "2024-06-02T14:45:00Z"),
            ]), zone: YearOldStore.utc, now: LocalDate(year: 2024, month: 6, day: 3).instant(hour: 12, in: YearOldStore.utc))
        let nap = await Self.validate(napping, [("get_sleep", ["from": "2024-06-02", "to": "2024-06-02"])], "nap")
        // Fewer than 14 paired days: a tool error, with nothing structured.
        let unpaired = await nothing.call("correlate_metrics", arguments: ["metric_a": "steps", "metric_b": "hrv"])
        #expect(unpaired.isError == true && unpaired.structuredContent == nil)

        let names = Set(tools.definitions.map(\.name))
        #expect(names.count == 15)
        #expect(generated.answered == names)
        #expect(empty.answered == names.subtracting(["get_workout_details", "get_workout_route", "correlate_metrics"]))
        // Every key a schema declares was in some answer: none is declared and never checked.
        let declared = tools.definitions.reduce(into: Set<String>()) { paths, tool in
            paths.formUnion(SchemaValidator.propertyPaths(of: tool.outputSchema ?? .null, at: tool.name))
        }
        let seen = generated.paths.union(withheld.paths).union(yearOld.paths).union(empty.paths).union(moved.paths).union(
            nap.paths)
        #expect(declared.subtracting(seen).sorted() == [])
        #expect(seen.subtracting(declared).sorted() == [])
    }

    @Test func i36_theValidatorRejectsAWrongTypeAMissingKeyAndAnExtraKey() async throws {
        let schema = OutputSchema.object(
            [
                "steps": OutputSchema.integer(nullable: true, in: 0...100_000), "hrv_ms": OutputSchema.number(nullable: true),
                "basis": OutputSchema.choice(of: ["watch_stages", "in_bed_only"], nullable: true),
                "weeks": OutputSchema.array(of: OutputSchema.object(["mean": OutputSchema.number()])),
            ], optional: ["weeks"])
        #expect(OutputSchema.number(nullable: true) == .object(["type": .array([.string("number"), .string("null")])]))
        let good: [String: Value] = [
            "steps": .int(8034), "hrv_ms": .double(51.5), "basis": .string("watch_stages"),
            "weeks": .array([.object(["mean": .double(7.5)])]),
        ]
        // Each change to the good value, and exactly what the validator says of it.
        let cases: [(change: [String: Value?], errors: [String])] = [
            ([:], []),
            (["steps": .null, "hrv_ms": .null, "basis": .null, "weeks": .none], []),
            (["hrv_ms": .int(52)], []),
            (["steps": .string("8034")], ["$.steps: expected integer or null, got string"]),
            (["steps": .double(8034)], ["$.steps: expected integer or null, got number"]),
            (["hrv_ms": .bool(true)], ["$.hrv_ms: expected number or null, got boolean"]),
            (["steps": .int(-1)], ["$.steps: below the minimum 0"]),
            (["steps": .int(100_001)], ["$.steps: above the maximum 100000"]),
            (["basis": .string("watch")], ["$.basis: not one of the enum"]),
            (["hrv_ms": .none], ["$: missing hrv_ms"]),
            (["hrv": .double(51.5)], ["$: unexpected key hrv"]),
            (["hrv_ms": .none, "hrv": .double(51.5)], ["$: missing hrv_ms", "$: unexpected key hrv"]),
            (["weeks": .array([.object(["mean": .string("high")])])], ["$.weeks[0].mean: expected number, got string"]),
            (["weeks": .array([.object([:])])], ["$.weeks[0]: missing mean"]),
            (["weeks": .object([:])], ["$.weeks: expected array, got object"]),
        ]
        for (change, expected) in cases {
            var value = good
            for (key, replacement) in change { value[key] = replacement }
            #expect(SchemaValidator.errors(.object(value), against: schema) == expected, "\(change)")
        }
        #expect(SchemaValidator.errors(.null, against: schema) == ["$: expected object, got null"])
        // A keyword it does not check is an error, never silently passed.
        let unchecked: Value = .object(["type": .string("string"), "pattern": .string("^[0-9]+$")])
        #expect(SchemaValidator.errors(.string("x"), against: unchecked) == ["$: unsupported keyword pattern"])

        // A real answer: a renamed key, a fraction where an Int belongs, a null where none may be.
        let tools = try await CoachStore.tools()
        let result = await tools.call("get_daily_metrics", arguments: ["from": "2024-04-01", "to": "2024-04-02"])
        let content = try #require(result.structuredContent)
        let daily = try #require(tools.definitions.first { $0.name == "get_daily_metrics" }?.outputSchema)
        #expect(SchemaValidator.errors(content, against: daily) == [])
        var answer = try #require(content.objectValue)
        var days = try #require(answer["days"]?.arrayValue)
        var day = try #require(days.first?.objectValue)
        let hrv = day.removeValue(forKey: "hrv_ms")
        day["hrv"] = hrv
        day["steps"] = .double(8034.5)
        days[0] = .object(day)
        answer["days"] = .array(days)
        answer["version"] = .null
        #expect(
            SchemaValidator.errors(.object(answer), against: daily) == [
                "$.days[0]: missing hrv_ms", "$.days[0]: unexpected key hrv",
                "$.days[0].steps: expected integer or null, got number", "$.version: expected string, got null",
            ])
    }

    @Test func i36_everyToolListsAnOutputSchemaAndItsAnnotations() async throws {
        let tools = try await CoachStore.tools(allowWrites: true)
        #expect(tools.definitions.count == 15)
        for tool in tools.definitions {
            let schema = try #require(tool.outputSchema, "\(tool.name) has no outputSchema")
            #expect(schema.objectValue?["type"] == .string("object"), "\(tool.name)")
            // Every object lists its keys and allows no other; what it requires, it lists.
            #expect(SchemaValidator.openObjects(in: schema, at: tool.name) == [])
            #expect(tool.title?.isEmpty == false, "\(tool.name)")
            let hints = tool.annotations
            if tool.name == "log_subjective" {
                #expect(hints.readOnlyHint == false && hints.destructiveHint == false && hints.openWorldHint == false)
                #expect(tool.description?.contains("The only tool that writes.") == true)
            } else {
                #expect(hints.readOnlyHint == true && hints.idempotentHint == true, "\(tool.name)")
                // Only the context goes out (to Open-Meteo, for the weather).
                #expect(hints.openWorldHint == (tool.name == "get_coach_context"), "\(tool.name)")
            }
        }
    }
}

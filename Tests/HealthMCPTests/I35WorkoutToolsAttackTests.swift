import Foundation
import HealthCore
import HealthDaily
import HealthSQLite
import HealthWeather
import MCP
import Testing

@testable import HealthMCP

/// Issue 35, found attacking the release build: `get_workouts` with `include_route` gave the
/// route to a reader without activity (every other route refuses it), placed a workout on the
/// home zone's day instead of its own (`HKTimeZone`), and answered an unknown activity with
/// nothing.
@Suite struct I35WorkoutToolsAttackTests {
    @Test func routesNeedActivityHere() async throws {
        let tools = try await CoachStore.tools(withheld: [.activity])
        let answer = try I35WorkoutToolsTests.structured(
            await tools.call("get_workouts", arguments: ["from": "2024-03-01", "to": "2024-04-29", "include_route": true]))
        let rows = try #require(answer["workouts"]?.arrayValue).compactMap(\.objectValue)
        #expect(!rows.isEmpty && rows.allSatisfy { $0["route"] == nil })
        #expect(answer["withheld"]?.arrayValue == [.string("activity")])
    }

    @Test func anUnknownActivityIsAnError() async throws {
        let tools = try await CoachStore.tools()
        let result = await tools.call("get_workouts", arguments: ["from": "2024-03-01", "to": "2024-04-29", "activity": "walk"])
        #expect(result.isError == true)
        let text = result.content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }.joined()
        #expect(text.contains("Walking"))
    }

    /// A run at 22:30 in Los Angeles on 31 July (05:30 UTC on 1 August), the home zone UTC.
    @Test func aWorkoutIsOnItsOwnDay() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mcp-zone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try HealthDatabase(path: folder.appendingPathComponent("health.sqlite").path)
        let start = ISO8601DateFormatter().date(from: "2022-08-01T05:30:00Z")!
        try await database.store.add([
            Sample(
                type: .workout, start: start, end: start + 1800, value: .category("HKWorkoutActivityTypeRunning"),
                source: Source(name: "Watch"), metadata: [MetadataEntry(key: "HKTimeZone", value: "America/Los_Angeles")])
        ])
        var settings = DailyNormalizer.Configuration()
        settings.homeZone = TimeZone(identifier: "UTC")!
        let now = start + 86_400
        let tools = CoachTools(
            source: CoachSource(
                store: database.store, appData: database.appData, weather: OpenMeteoClient(configuration: .init()),
                daily: DailyNormalizer(store: database.store, configuration: settings, now: { now }), normalization: settings,
                now: { now }))
        func rows(_ day: String) async throws -> [[String: Value]] {
            let answer = try I35WorkoutToolsTests.structured(
                await tools.call("get_workouts", arguments: ["from": .string(day), "to": .string(day)]))
            return try #require(answer["workouts"]?.arrayValue).compactMap(\.objectValue)
        }
        let july = try await rows("2022-07-31")
        #expect(july.count == 1)
        #expect(july.first?["start"]?.stringValue?.hasPrefix("2022-07-31T22:30:00") == true)
        #expect(try await rows("2022-08-01").isEmpty)
    }
}

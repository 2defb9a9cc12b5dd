import Foundation
import HealthCore
import HealthDaily
import MCP
import Testing

@testable import HealthMCP

/// Issue 33 §4: `get_workouts` gives what each workout recorded of itself and where each
/// figure comes from; a kind withheld stays out, recorded or not.
@Suite struct WorkoutSourcesTests {
    static func rows(_ tools: CoachTools) async throws -> [[String: Value]] {
        let result = await tools.call("get_workouts", arguments: ["from": "2024-03-01", "to": "2024-04-29"])
        #expect(result.isError == false)
        let answer = try #require(result.structuredContent?.objectValue)
        return try #require(answer["workouts"]?.arrayValue).compactMap(\.objectValue)
    }

    @Test func i33_workout_getWorkoutsSaysWhereEachFigureComesFrom() async throws {
        let tools = try await CoachStore.tools()
        let rows = try await Self.rows(tools)
        let zone = tools.source.normalization.homeZone
        let window = DateInterval(
            start: CoachStore.first.instant(hour: 0, in: zone), end: CoachStore.last.adding(days: 1).instant(hour: 0, in: zone))
        let workouts = try await WorkoutSummarizer(store: tools.source.store).workouts(in: window, limit: 50, routePoints: 0)
        #expect(!rows.isEmpty && rows.count == workouts.count)
        for (row, workout) in zip(rows, workouts) {
            // The generator writes each run's WorkoutStatistics: sums of energy and distance
            // (its steps × 0.045 Cal and × 0.00075 km) and a heart rate average="142".
            #expect(row["mean_heart_rate_bpm"]?.doubleValue == 142 && row["heart_rate_source"]?.stringValue == "workout")
            #expect(row["active_energy_kcal"]?.doubleValue == workout.energyKcal && workout.energySource == .workout)
            #expect(row["energy_source"]?.stringValue == "workout")
            #expect(row["distance_km"]?.doubleValue == workout.distanceKm && workout.distanceSource == .workout)
            #expect(row["distance_source"]?.stringValue == "workout")
        }

        // Heart withheld: no heart rate and no source, though every workout recorded one.
        let withheld = try await Self.rows(try await CoachStore.tools(withheld: [.heart]))
        #expect(withheld.count == rows.count)
        #expect(withheld.allSatisfy { $0["mean_heart_rate_bpm"] == .null && $0["heart_rate_source"] == .null })
        #expect(withheld.allSatisfy { $0["energy_source"]?.stringValue == "workout" })
    }
}

import Foundation
import HealthCore
import HealthDaily
import MCP
import Testing

@testable import HealthMCP

/// Issue 35 §5: `get_workouts` gives each workout's id and takes `min_minutes`;
/// `get_workout_details` opens one in full (statistics, events, splits from its route,
/// heart-rate zones) and `get_workout_route` gives its route thinned; a withheld kind stays out.
@Suite struct I35WorkoutToolsTests {
    static func structured(_ result: CallTool.Result) throws -> [String: Value] {
        #expect(result.isError == false, "\(result.content)")
        return try #require(result.structuredContent?.objectValue)
    }

    /// A generated run with a route, and the workout as the store holds it.
    static func run(_ tools: CoachTools) async throws -> (id: String, workout: Workout) {
        let listed = try structured(
            await tools.call("get_workouts", arguments: ["from": "2024-03-01", "to": "2024-04-29", "include_route": true]))
        let rows = try #require(listed["workouts"]?.arrayValue).compactMap(\.objectValue)
        let row = try #require(rows.first { !($0["route"]?.arrayValue ?? []).isEmpty })
        let id = try #require(row["id"]?.stringValue)
        let uuid = try #require(UUID(uuidString: id))
        let workout = try #require(try await tools.source.store.workout(uuid))
        return (id, workout)
    }

    @Test func detailsSplitsZonesAndRoute() async throws {
        let tools = try await CoachStore.tools()
        let (id, workout) = try await Self.run(tools)
        let details = try Self.structured(await tools.call("get_workout_details", arguments: ["id": .string(id), "max_hr": 190]))
        #expect(details["id"]?.stringValue == id)
        #expect(details["activity"]?.stringValue == "Running")
        let statistics = try #require(details["statistics"]?.arrayValue)
        #expect(statistics.count == workout.statistics.count && !statistics.isEmpty)
        // Splits as RouteSplits computes them from the stored route, to a tenth of a second.
        let expected = RouteSplits.splits(workout.routes.flatMap(\.points))
        let splits = try #require(details["splits"]?.arrayValue).compactMap(\.objectValue)
        #expect(!expected.isEmpty && splits.count == expected.count)
        #expect(splits.first?["seconds"]?.doubleValue == (expected[0].seconds * 10).rounded() / 10)
        let heart = try #require(details["heart_rate"]?.objectValue)
        let computed = try await WorkoutHeartRate.of(workout, in: tools.source.store, maximum: 190)
        #expect(heart["mean_bpm"]?.doubleValue == computed.meanBpm)
        #expect(heart["zones"]?.arrayValue?.count == 5)
        #expect(details["withheld"]?.arrayValue == [])

        let route = try Self.structured(await tools.call("get_workout_route", arguments: ["id": .string(id), "max_points": 20]))
        let points = try #require(route["points"]?.arrayValue)
        let recorded = workout.routes.flatMap(\.points)
        #expect(points.count == min(20, recorded.count))
        #expect(route["recorded_points"]?.intValue == recorded.count)
        let first = try #require(points.first?.arrayValue)
        #expect(first[0].doubleValue == (recorded[0].latitude * 100_000).rounded() / 100_000)
        #expect(route["length_km"] != nil)
    }

    @Test func withheldKindsStayOutAndUnknownIdsSaySo() async throws {
        let tools = try await CoachStore.tools(withheld: [.activity, .heart, .energy])
        // Found by an unrestricted reader: without activity, get_workouts gives no routes.
        let (id, _) = try await Self.run(try await CoachStore.tools())
        let details = try Self.structured(await tools.call("get_workout_details", arguments: ["id": .string(id), "max_hr": 190]))
        #expect(details["splits"] == nil && details["heart_rate"] == nil)
        #expect(details["statistics"]?.arrayValue == [])
        #expect(details["withheld"]?.arrayValue?.compactMap(\.stringValue) == ["energy", "activity", "heart"])
        // A route tells the distance: it needs activity.
        let route = await tools.call("get_workout_route", arguments: ["id": .string(id)])
        #expect(route.isError == true)

        let unknown = await tools.call("get_workout_details", arguments: ["id": .string(UUID().uuidString)])
        #expect(unknown.isError == true)
        let bad = await tools.call("get_workout_route", arguments: ["id": "nope"])
        #expect(bad.isError == true)
        let noWorkouts = await (try await CoachStore.tools(withheld: [.workouts])).call(
            "get_workout_details", arguments: ["id": .string(id)])
        #expect(noWorkouts.isError == true)
    }

    @Test func getWorkoutsTakesAMinimumLength() async throws {
        let tools = try await CoachStore.tools()
        let all = try Self.structured(await tools.call("get_workouts", arguments: ["from": "2024-03-01", "to": "2024-04-29"]))
        let long = try Self.structured(
            await tools.call("get_workouts", arguments: ["from": "2024-03-01", "to": "2024-04-29", "min_minutes": 10_000]))
        let every = all["workouts"]?.arrayValue ?? []
        #expect(every.count > 0)
        // The generated runs last 20 to 60 minutes: 45 keeps some, not all.
        let longer = try Self.structured(
            await tools.call("get_workouts", arguments: ["from": "2024-03-01", "to": "2024-04-29", "min_minutes": 45]))
        let kept = longer["workouts"]?.arrayValue ?? []
        #expect(kept.count < every.count)
        #expect(kept.allSatisfy { ($0.objectValue?["duration_minutes"]?.doubleValue ?? 0) >= 45 })
        #expect(long["workouts"]?.arrayValue?.count == 0)
    }
}

/// Issue 35 §5: `get_training_load` over the generated months, checked against the loads
/// read straight from the store (each workout's own active-energy statistic, its minutes).
@Suite struct I35TrainingLoadToolTests {
    @Test func theRatioFromTheWorkoutsOwnFigures() async throws {
        let tools = try await CoachStore.tools()
        let zone = tools.source.normalization.homeZone
        let through = CoachStore.last
        let first = through.adding(days: -27)
        let window = DateInterval(
            start: first.instant(hour: 0, in: zone), end: through.adding(days: 1).instant(hour: 0, in: zone))
        let workouts = try await tools.source.store.workouts(overlapping: window).filter { window.contains($0.start) }
        #expect(!workouts.isEmpty)
        for basis in ["energy", "duration"] {
            let answer = try I35WorkoutToolsTests.structured(
                await tools.call("get_training_load", arguments: ["date": .string(through.description), "basis": .string(basis)]))
            var days = [Double](repeating: 0, count: 28)
            for workout in workouts {
                let index = LocalDate(workout.start, in: zone).dayNumber - first.dayNumber
                if basis == "duration" {
                    days[index] += workout.end.timeIntervalSince(workout.start) / 60
                } else {
                    let energy = try #require(workout.statistics.first { $0.type == .activeEnergyBurned })
                    #expect(["kcal", "Cal"].contains(energy.unit))
                    days[index] += try #require(energy.sum)
                }
            }
            let acute = days.suffix(7).reduce(0, +) / 7
            let chronic = days.reduce(0, +) / 28
            #expect(answer["acute_daily_mean"]?.doubleValue == (acute * 10).rounded() / 10, "\(basis)")
            #expect(answer["chronic_daily_mean"]?.doubleValue == (chronic * 10).rounded() / 10, "\(basis)")
            #expect(answer["ratio"]?.doubleValue == (acute / chronic * 100).rounded() / 100, "\(basis)")
            #expect(answer["workouts"]?.intValue == workouts.count && answer["covered_days"]?.intValue == 28)
            #expect(answer["days"]?.arrayValue?.count == 28)
        }
    }

    @Test func withoutEnergyItCountsMinutes() async throws {
        let tools = try await CoachStore.tools(withheld: [.energy])
        let answer = try I35WorkoutToolsTests.structured(await tools.call("get_training_load", arguments: [:]))
        #expect(answer["basis"]?.stringValue == "duration" && answer["unit"]?.stringValue == "min")
        let refused = await tools.call("get_training_load", arguments: ["basis": "energy"])
        #expect(refused.isError == true)
        let none = try await CoachStore.tools(withheld: [.workouts])
        #expect(await none.call("get_training_load", arguments: [:]).isError == true)
    }
}

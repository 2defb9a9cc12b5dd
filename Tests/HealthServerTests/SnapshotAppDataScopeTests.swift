import Foundation
import HealthCore
import HealthServer
import HealthServerRecords
import Hummingbird
import HummingbirdTesting
import Testing

/// A probe of 2026-11-28: `GET /v1/snapshot` (and MCP's `get_coach_context`) gave a steps-only
/// coach the person's mood, stress and energy of the day and the name of their next planned
/// workout: the daily log and the app's records were read whatever the token's kinds. They
/// are `other` and `workouts` now, withheld with "not permitted" like every other kind.
@Suite struct SnapshotAppDataScopeTests {
    @Test(arguments: ServerBackend.enabled) func aStepsOnlyCoachDoesNotReadTheDailyLogOrThePlans(
        _ backend: ServerBackend
    ) async throws {
        // Each provider's deadline (1.5 s) would leave fields empty under the suite's load.
        let harness = try await ServerHarness(backend) { $0.snapshotProviderTimeout = 300 }
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        let (_, token) = try await harness.store.addToken(owner: "alice", name: "coach", readTypes: [.steps], writeTypes: [])
        try await harness.store.saveConsent(
            Consent(granted: Set(HealthDataCategory.allCases), denied: [], decidedAt: Date()), userID: alice)
        try await harness.app.test(.router) { client in
            try await harness.postSampleBatch(client, user: "alice")
            let store = try await harness.repositories.readableStore(alice)
            try await store.appData.saveDailyLog(try DailyLogEntry(date: LocalDate("2024-06-03")!, energy: 1, mood: 1, stress: 5))
            _ = try await store.appData.addPlannedWorkout(
                PlannedWorkout(name: "Therapy session", scheduledAt: ISO8601DateFormatter().date(from: "2024-06-04T16:00:00Z")!))
            try await store.appData.recordCoachInteraction(
                CoachInteraction(at: ISO8601DateFormatter().date(from: "2024-06-03T19:00:00Z")!))
            let uri = "/v1/snapshot?at=2024-06-03T20:00:00Z&tz=America/Los_Angeles"
            func snapshot(_ bearer: String) async throws -> [String: Any] {
                try await client.execute(uri: uri, method: .get, headers: [.authorization: "Bearer \(bearer)"]) { response in
                    #expect(response.status == .ok)
                    return ServerHarness.json(response.body)
                }
            }
            // The owner reads them.
            let own = try await snapshot(try #require(harness.tokens["alice"]))
            #expect(own["subjective_mood"] as? Int == 1 && own["subjective_stress"] as? Int == 5)
            #expect(own["upcoming_planned_workout_name"] as? String == "Therapy session")
            // The coach does not: each is missing, "not permitted".
            let coach = try await snapshot(token.text)
            for field in ["subjective_energy_level", "subjective_mood", "subjective_stress", "upcoming_planned_workout_name"] {
                #expect(coach[field] is NSNull, "\(field)")
            }
            let reasons = Dictionary(
                ((coach["missing"] as? [[String: Any]]) ?? []).map {
                    ($0["field"] as? String ?? "", $0["reason"] as? String ?? "")
                },
                uniquingKeysWith: { first, _ in first })
            #expect(reasons["subjective_mood"] == "not permitted: other not granted to this reader")
            #expect(reasons["upcoming_planned_workout_name"] == "not permitted: workouts not granted to this reader")
            #expect(!String(describing: coach).contains("Therapy"))
            // The coach's own interactions are no kind of the person's data (the review).
            #expect(coach["time_since_last_coach_interaction_minutes"] as? Int == 60)
        }
    }
}

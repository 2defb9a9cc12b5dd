import Foundation
import HealthCore
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import Testing

/// Finding M1 (issue 32): a person who denied heart and energy (or a `--types workouts`
/// token) got heart rate, energy and distance through the dashboard's workouts panel and
/// MCP `get_workouts`. A kind not granted is never read, let alone shown.
@Suite struct M1WorkoutKindsTests {
    /// A run with 152 bpm, 510 kcal and 8,230 m recorded during it.
    static let run = """
        {"samples": [
          {"type": "HKWorkoutTypeIdentifier", "start": "2024-06-01T07:00:00Z", "end": "2024-06-01T07:45:00Z",
           "value_text": "HKWorkoutActivityTypeRunning", "source": "Jane’s Apple Watch"},
          {"type": "HKQuantityTypeIdentifierHeartRate", "start": "2024-06-01T07:10:00Z", "end": "2024-06-01T07:10:00Z",
           "value": 152, "unit": "count/min", "source": "Jane’s Apple Watch"},
          {"type": "HKQuantityTypeIdentifierActiveEnergyBurned", "start": "2024-06-01T07:00:00Z", "end": "2024-06-01T07:45:00Z",
           "value": 510, "unit": "kcal", "source": "Jane’s Apple Watch"},
          {"type": "HKQuantityTypeIdentifierDistanceWalkingRunning", "start": "2024-06-01T07:00:00Z",
           "end": "2024-06-01T07:45:00Z", "value": 8230, "unit": "m", "source": "Jane’s Apple Watch"}
        ]}
        """

    @Test(arguments: ServerBackend.enabled) func m1_deniedKindsNeverReachTheWorkoutsPanelOrMCP(
        _ backend: ServerBackend
    )
        async throws
    {
        let harness = try await DashboardWebTests.harness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "m1-run"),
                body: ByteBuffer(string: Self.run)
            ) { response in #expect(response.status == .ok) }
            let browser = Browser(client)
            try await browser.signIn(
                token: harness.tokens["alice"]!, allow: [.steps, .sleep, .body, .workouts, .other],
                deny: [.heart, .energy, .activity])
            let page = try await browser.get("/dashboard?range=7")
            #expect(page.status == .ok)
            #expect(page.body.contains("Running"))
            for figure in ["152", "510", "8.23"] { #expect(!page.body.contains(figure), "the page shows \(figure)") }

            let call =
                #"{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_workouts", "arguments": {"from": "2024-05-30", "to": "2024-06-01"}}}"#
            let headers = harness.mcpHeaders("alice")
            try await client.execute(uri: "/mcp", method: .post, headers: headers, body: ByteBuffer(string: call)) { response in
                let body = String(buffer: response.body)
                #expect(response.status == .ok)
                #expect(body.contains("Running"))
                for figure in ["152", "510", "8.23"] { #expect(!body.contains(figure), "get_workouts shows \(figure)") }
            }
        }
    }
}

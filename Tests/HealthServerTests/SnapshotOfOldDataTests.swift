import Foundation
import HealthCore
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HealthServer

/// `GET /v1/snapshot` without `at` over data that ends months ago is taken as of the newest
/// sample, as `healthpipe snapshot` and MCP's `get_coach_context` take it, and says so in
/// `HealthPipe-Note`: it was taken now, every value null and nothing said why.
@Suite struct SnapshotOfOldDataTests {
    @Test(arguments: ServerBackend.enabled)
    func aSnapshotOfOldDataIsAsOfItsNewestSample(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await harness.postSampleBatch(client)
            try await client.execute(uri: "/v1/snapshot", method: .get, headers: harness.headers("alice")) { response in
                #expect(response.status == .ok)
                let body = ServerHarness.json(response.body)
                // The newest sample ends at 12:10 UTC on June 1 (steps).
                #expect(body["timestamp"] as? String == "2024-06-01T12:10:00+00:00", "\(body)")
                #expect(body["step_count_today"] as? Int == 1500, "\(body)")
                #expect(
                    response.headers[.init("HealthPipe-Note")!]
                        == "latest data 2024-06-01; the snapshot is as of its newest sample")
            }
            // With `at`, as asked, and no note.
            try await client.execute(
                uri: "/v1/snapshot?at=2024-06-03T12:00:00Z", method: .get, headers: harness.headers("alice")
            ) { response in
                #expect(ServerHarness.json(response.body)["timestamp"] as? String == "2024-06-03T12:00:00+00:00")
                #expect(response.headers[.init("HealthPipe-Note")!] == nil)
            }
        }
    }
}

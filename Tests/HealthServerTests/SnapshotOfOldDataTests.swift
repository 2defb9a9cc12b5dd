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
        // Each provider's deadline (1.5 s) would leave fields empty under the suite's load.
        let harness = try await ServerHarness(backend) { $0.snapshotProviderTimeout = 300 }
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

extension SnapshotOfOldDataTests {
    /// A probe of 2026-11-28: `at=0001-01-01T00:00:00Z` and `at=9999-…` were a 200 (a snapshot
    /// of year 1), though every query date is within 1900–2199. They are a 422 naming `at`.
    @Test func anInstantOutsideTheServedYearsIsRefused() async throws {
        let harness = try await ServerHarness(.sqlite)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            for (at, status) in [
                ("0001-01-01T00:00:00Z", HTTPResponse.Status.unprocessableContent),
                ("9999-12-31T23:59:59Z", .unprocessableContent), ("1900-01-01T00:00:00Z", .ok),
            ] {
                try await client.execute(uri: "/v1/snapshot?at=\(at)", method: .get, headers: harness.headers("alice")) {
                    #expect($0.status == status, "\(at)")
                    if status != .ok { #expect(String(buffer: $0.body).contains("at must be within the years 1900–2199")) }
                }
            }
        }
    }
}

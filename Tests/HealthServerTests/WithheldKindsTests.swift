import Foundation
import HealthCore
import HealthServerRecords
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HealthServer

/// `HealthPipe-Withheld` on `GET /v1/export.csv?metrics=all` names the kinds the token may
/// not read, whatever the person's store holds: it listed the kinds of the metrics stored,
/// so a steps-only coach learned that the person keeps sleep, heart or body data.
@Suite struct WithheldKindsTests {
    static func withheld(_ client: some TestClientProtocol, token: String) async throws -> String? {
        try await client.execute(
            uri: "/v1/export.csv?metrics=all&from=2024-05-25&to=2024-06-01", method: .get,
            headers: [.authorization: "Bearer \(token)"]
        ) { response in
            #expect(response.status == .ok)
            return response.headers[.init("HealthPipe-Withheld")!]
        }
    }

    @Test func theHeaderOfAnExportIsTheSameWhateverTheStoreHolds() async throws {
        let harness = try await ServerHarness(.sqlite)
        defer { harness.cleanUp() }
        let (_, token) = try await harness.store.addToken(
            owner: "alice", name: "coach", readTypes: [.steps], writeTypes: [])
        try await harness.store.saveConsent(
            Consent(granted: [.steps], denied: [], decidedAt: DashboardWebTests.now), userID: harness.ids["alice"]!)
        let everyOther = HealthDataCategory.list(Set(HealthDataCategory.allCases).subtracting([.steps]))
        try await harness.app.test(.router) { client in
            // Steps only in the store.
            try await I37DaysOffTheRequestPathTests.post(client, harness, steps: 100, minute: 0, key: "steps")
            #expect(try await Self.withheld(client, token: token.text) == everyOther)
            // Steps, a resting heart rate and a night in the store: the same answer.
            try await harness.postSampleBatch(client)
            #expect(try await Self.withheld(client, token: token.text) == everyOther)
        }
    }
}

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

extension WithheldKindsTests {
    /// A probe of 2026-11-28: `GET /v1/daily-metrics` with a steps-only token answered rows,
    /// every field `null`, for the days of a weight the person wrote: the coach learned that
    /// the day holds a kind it may not read. With kinds withheld, a day with no figure left is
    /// left out; the owner still reads every day.
    @Test(arguments: ServerBackend.enabled) func aDayOfAWithheldKindOnlyIsNoRowForTheCoach(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let (_, token) = try await harness.store.addToken(owner: "alice", name: "coach", readTypes: [.steps], writeTypes: [])
        try await harness.store.saveConsent(
            Consent(granted: Set(HealthDataCategory.allCases), denied: [], decidedAt: DashboardWebTests.now),
            userID: harness.ids["alice"]!)
        let weight =
            #"{"samples": [{"type": "HKQuantityTypeIdentifierBodyMass", "start": "2024-06-20T10:00:00Z", "end": "2024-06-20T10:00:00Z", "value": 70, "unit": "kg", "source": "Scale"}, {"type": "HKQuantityTypeIdentifierRestingHeartRate", "start": "2024-06-22T10:00:00Z", "end": "2024-06-22T10:00:00Z", "value": 50, "unit": "count/min", "source": "Watch"}, {"type": "HKQuantityTypeIdentifierStepCount", "start": "2024-06-23T10:00:00Z", "end": "2024-06-23T10:10:00Z", "value": 400, "unit": "count", "source": "Watch"}]}"#
        try await harness.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "w"),
                body: ByteBuffer(string: weight)
            ) { response in #expect(response.status == .ok) }
            func dates(_ bearer: String, types: String? = nil) async throws -> [String] {
                try await client.execute(
                    uri: "/v1/daily-metrics?from=2024-06-15&to=2024-06-25" + (types.map { "&types=\($0)" } ?? ""), method: .get,
                    headers: [.authorization: "Bearer \(bearer)"]
                ) { response in
                    #expect(response.status == .ok)
                    let days = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]]
                    return (days ?? []).compactMap { $0["local_date"] as? String }
                }
            }
            // The owner: the days around each write, empty ones too — also asking for steps only.
            #expect(try await dates(try #require(harness.tokens["alice"])).contains("2024-06-20"))
            #expect(try await dates(try #require(harness.tokens["alice"]), types: "steps").contains("2024-06-20"))
            // The coach: the day of steps only.
            #expect(try await dates(token.text) == ["2024-06-23"])
        }
    }
}

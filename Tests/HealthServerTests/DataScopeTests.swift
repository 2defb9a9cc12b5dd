import Foundation
import HealthCore
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import Testing

/// Per-type scopes: a scoped token (`users token add … --kinds`) reads a kind of the owner's
/// data only when its list names it and the owner granted it; the owner's full token reads
/// every kind the person has not denied. Every route that serves health data answers 403 for
/// a kind it may not read.
@Suite struct DataScopeTests {
    /// Every reading route, asked for sleep data.
    static let sleepReads = [
        "/v1/daily-metrics?from=2024-05-25&to=2024-06-01&types=sleep",
        "/v1/sleep?from=2024-05-25&to=2024-06-01",
        "/v1/readiness?date=2024-06-01",
        "/v1/changes?type=HKCategoryTypeIdentifierSleepAnalysis",
        "/v1/export.csv?metrics=sleep&from=2024-05-25&to=2024-06-01",
        "/v1/snapshot?at=2024-06-01T20:00:00Z&types=sleep",
    ]

    /// The same routes, asked for steps only (readiness has no steps-only form).
    static let stepsReads = [
        "/v1/daily-metrics?from=2024-05-25&to=2024-06-01&types=steps",
        "/v1/changes?type=HKQuantityTypeIdentifierStepCount",
        "/v1/export.csv?metrics=steps&from=2024-05-25&to=2024-06-01",
        "/v1/snapshot?at=2024-06-01T20:00:00Z&types=steps",
    ]

    func status(_ client: some TestClientProtocol, _ uri: String, token: String) async throws -> (HTTPResponse.Status, String) {
        try await client.execute(uri: uri, method: .get, headers: [.authorization: "Bearer \(token)"]) { response in
            (response.status, String(buffer: response.body))
        }
    }

    @Test(arguments: ServerBackend.enabled) func aCoachTokenReadsOnlyWhatItsListAndTheConsentAllow(
        _ backend: ServerBackend
    )
        async throws
    {
        let harness = try await ServerHarness(backend) { $0.clock = { DashboardWebTests.now } }
        defer { harness.cleanUp() }
        // A scoped token of Alice's data (issue 32 M2: no longer a user of its own).
        let (_, token) = try await harness.store.addToken(
            owner: "alice", name: "coach", readTypes: [.steps, .sleep], writeTypes: [])
        let listed = try await harness.store.tokens(owner: "alice")
        #expect(listed.first { $0.name == "coach" }?.readTypes == [.steps, .sleep])
        try await harness.app.test(.router) { client in
            try await DashboardWebTests.seed(harness, client, user: "alice", base: 5_000)
            // Nothing granted yet: the coach's token reads nothing, not even steps.
            for uri in Self.sleepReads + Self.stepsReads + ["/v1/daily-metrics?from=2024-05-25&to=2024-06-01"] {
                let (status, body) = try await status(client, uri, token: token.text)
                #expect(status == .forbidden, "\(uri)")
                #expect(body.contains("not granted on the consent page") || body.contains("not in this token's types"))
            }

            try await harness.store.saveConsent(
                Consent(granted: [.steps, .heart], denied: [.sleep], decidedAt: DashboardWebTests.now),
                userID: harness.ids["alice"]!)
            for uri in Self.sleepReads {
                let (status, body) = try await status(client, uri, token: token.text)
                #expect(status == .forbidden, "\(uri)")
                #expect(body.contains("denied on the consent page") || uri.contains("readiness"), "\(uri)")
            }
            for uri in Self.stepsReads {
                #expect(try await status(client, uri, token: token.text).0 == .ok, "\(uri)")
            }
            // Heart is granted by the person but not on the token's list.
            let (heart, why) = try await status(
                client, "/v1/daily-metrics?from=2024-05-25&to=2024-06-01&types=heart", token: token.text)
            #expect(heart == .forbidden && why.contains("heart (not in this token's types)"))

            // Bundles without types: what may be read, the rest null and named.
            try await client.execute(
                uri: "/v1/daily-metrics?from=2024-05-25&to=2024-06-01", method: .get,
                headers: [.authorization: "Bearer \(token.text)"]
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.init("HealthPipe-Withheld")!] == "energy,heart,sleep")
                let days = try #require(
                    try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]])
                // 2024-05-31 has no steps, only withheld kinds: no row (WithheldKindsTests).
                #expect(days.count == 7)
                #expect(days.filter { $0["steps_normalized"] is Int }.count == 7)
                for field in ["sleep_hours", "resting_hr_bpm", "hrv_ms", "active_energy_kcal"] {
                    #expect(days.allSatisfy { $0[field] == nil || $0[field] is NSNull }, "\(field)")
                }
            }
            try await client.execute(
                uri: "/v1/export.csv?metrics=all&from=2024-05-25&to=2024-06-01", method: .get,
                headers: [.authorization: "Bearer \(token.text)"]
            ) { response in
                #expect(response.status == .ok)
                let csv = String(buffer: response.body)
                #expect(csv.contains(",Steps,") || csv.contains("Steps"))
                #expect(!csv.contains("Sleep") && !csv.contains("Resting"))
                #expect(response.headers[.init("HealthPipe-Withheld")!]?.contains("sleep") == true)
            }
            try await client.execute(
                uri: "/v1/snapshot?at=2024-06-01T20:00:00Z", method: .get, headers: [.authorization: "Bearer \(token.text)"]
            ) { response in
                #expect(response.status == .ok)
                let body = String(buffer: response.body)
                #expect(body.contains(#""field":"last_night_sleep_duration_hours""#))
                #expect(body.contains("not permitted: sleep not granted to this reader"))
                #expect(ServerHarness.json(response.body)["step_count_today"] != nil)
            }
            // The coach's token is read-only (issue 32 M3: it used to write with the write scope).
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers(token.text, idempotencyKey: "coach"),
                body: ByteBuffer(string: SamplesRouteTests.batch)
            ) { response in
                #expect(response.status == .forbidden)
            }
        }
    }

    @Test(arguments: ServerBackend.enabled) func aFullTokenReadsEverythingThePersonHasNotDenied(
        _ backend: ServerBackend
    )
        async throws
    {
        let harness = try await ServerHarness(backend) { $0.clock = { DashboardWebTests.now } }
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await DashboardWebTests.seed(harness, client, user: "alice", base: 5_000)
            // No consent recorded: the owner's token reads everything, as before consent existed.
            for uri in Self.sleepReads + Self.stepsReads {
                #expect(try await status(client, uri, token: harness.tokens["alice"]!).0 == .ok, "\(uri)")
            }
            try await harness.store.saveConsent(
                Consent(granted: [], denied: [.sleep], decidedAt: DashboardWebTests.now), userID: harness.ids["alice"]!)
            for uri in Self.sleepReads {
                let (status, body) = try await status(client, uri, token: harness.tokens["alice"]!)
                #expect(status == .forbidden, "\(uri)")
                #expect(body.contains("sleep (denied on the consent page)"), "\(uri)")
            }
            for uri in Self.stepsReads {
                #expect(try await status(client, uri, token: harness.tokens["alice"]!).0 == .ok, "\(uri)")
            }
            // Bob's consent is not Alice's: he denied nothing.
            #expect(try await status(client, Self.sleepReads[1], token: harness.tokens["bob"]!).0 == .ok)
        }
    }

    @Test func categoriesCoverEveryTypeAndParse() {
        #expect(HealthDataCategory(.stepCount) == .steps)
        #expect(HealthDataCategory(.heartRateVariabilitySDNN) == .heart)
        #expect(HealthDataCategory(.restingHeartRate) == .heart)
        #expect(HealthDataCategory(.sleepAnalysis) == .sleep)
        #expect(HealthDataCategory(.bodyMass) == .body)
        #expect(HealthDataCategory(.workout) == .workouts)
        #expect(HealthDataCategory(SampleType("HKQuantityTypeIdentifierDistanceCycling")) == .activity)
        #expect(HealthDataCategory(.appleStandHour) == .activity)
        #expect(HealthDataCategory(.bloodGlucose) == .other)
        #expect(HealthDataCategory(SampleType("HKQuantityTypeIdentifierSomethingNew")) == .other)
        #expect(HealthDataCategory.parse("sleep, steps") == [.steps, .sleep])
        #expect(HealthDataCategory.parse("all") == Set(HealthDataCategory.allCases))
        #expect(HealthDataCategory.parse("steps,lungs") == nil && HealthDataCategory.parse("") == nil)
        #expect(HealthDataCategory.list([.sleep, .steps, .other]) == "steps,sleep,other")
    }
}

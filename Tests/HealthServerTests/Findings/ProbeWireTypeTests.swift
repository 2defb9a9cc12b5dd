import Foundation
import HealthCore
import HealthMetrics
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import Testing

/// Found by the attack probe of 2026-11-25 (issues 32 and 33): `POST /v1/samples` (and a sync
/// batch) stored `"type": "steps"` as a type named `steps`, of kind other — the day's steps
/// stayed empty, the plausible ranges did not apply (a `heart_rate` of 4,000 was stored),
/// a typo (`StepCount`) was accepted and later offered as a suggestion. And a sample of
/// year 0 was stored where no query reaches it, recomputing 3,660 empty days.
@Suite struct ProbeWireTypeTests {
    static func post(
        _ sample: String, key: String, _ client: some TestClientProtocol, _ harness: ServerHarness
    )
        async throws -> (HTTPResponse.Status, [String: Any])
    {
        try await client.execute(
            uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: key),
            body: ByteBuffer(string: #"{"samples": [\#(sample)]}"#)
        ) { ($0.status, ServerHarness.json($0.body)) }
    }

    @Test(arguments: ServerBackend.enabled) func probe_shortNamesAreTheirTypesAndOtherNamesAreRefused(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let steps =
                #"{"type": "steps", "start": "2024-06-01T10:00:00Z", "end": "2024-06-01T10:30:00Z", "value": 1234, "unit": "count", "source": "iPhone"}"#
            let (stored, _) = try await Self.post(steps, key: "a", client, harness)
            #expect(stored == .ok)
            try await client.execute(
                uri: "/v1/daily-metrics?from=2024-06-01&to=2024-06-01", method: .get, headers: harness.headers("alice")
            ) { response in
                let days = try NormalizedDailyMetrics.backendDecoder().decode(
                    [NormalizedDailyMetrics].self, from: Data(response.body.readableBytesView))
                #expect(days.map(\.stepsNormalized) == [1234])
            }
            try await client.execute(
                uri: "/v1/changes?type=HKQuantityTypeIdentifierStepCount", method: .get, headers: harness.headers("alice")
            ) { response in
                #expect((ServerHarness.json(response.body)["changes"] as? [Any])?.count == 1)
            }
            // A short name gets its type's plausible range.
            let (absurd, answer) = try await Self.post(
                #"{"type": "heart_rate", "start": "2024-06-01T10:00:00Z", "end": "2024-06-01T10:00:00Z", "value": 4000, "unit": "count/min", "source": "iPhone"}"#,
                key: "b", client, harness)
            #expect(absurd == .unprocessableContent && answer["pointer"] as? String == "/samples/0/value")
            // A name of no type: refused with the closest names, nothing stored.
            let (typo, refusal) = try await Self.post(
                steps.replacingOccurrences(of: #""steps""#, with: #""StepCount""#), key: "c", client, harness)
            #expect(typo == .unprocessableContent && refusal["pointer"] as? String == "/samples/0/type")
            #expect((refusal["detail"] as? String)?.contains("did you mean steps (HKQuantityTypeIdentifierStepCount)") == true)
            // An identifier beyond the table is kept as sent.
            let (newer, _) = try await Self.post(
                #"{"type": "HKQuantityTypeIdentifierSomethingNew", "start": "2024-06-01T10:00:00Z", "end": "2024-06-01T10:00:00Z", "value": 1, "unit": "count", "source": "iPhone"}"#,
                key: "d", client, harness)
            #expect(newer == .ok)
            // Year 0: refused, no day computed.
            try await harness.settleDays(client, user: "alice")
            let rowsBefore = try await harness.store.dailyRowCounts()
            let (ancient, why) = try await Self.post(
                #"{"type": "steps", "start": "0000-01-01T00:00:00Z", "end": "0000-01-01T00:10:00Z", "value": 5, "unit": "count", "source": "b"}"#,
                key: "e", client, harness)
            #expect(ancient == .unprocessableContent && why["pointer"] as? String == "/samples/0/start")
            #expect(try await harness.store.dailyRowCounts() == rowsBefore)
        }
    }

    /// The probe's second finding: a coach's token (steps, sleep) learnt the names of every
    /// kind of the person's data from a typo — `export.csv`'s "this store has …" and the
    /// change feed's suggestions listed them — and told a stored type of another kind (403)
    /// from one the person never had (422).
    @Test(arguments: ServerBackend.enabled) func probe_aScopedTokensTypoNamesOnlyWhatItMayRead(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        let (_, coach) = try await harness.store.addToken(
            owner: "alice", name: "coach", readTypes: [.steps, .sleep], writeTypes: [])
        try await harness.store.saveConsent(
            Consent(granted: Set(HealthDataCategory.allCases), denied: [], decidedAt: Date()), userID: alice)
        try await harness.app.test(.router) { client in
            for (key, type, value, unit) in [
                ("s", "steps", 100, "count"), ("m", "HAE:sertraline_dose", 50, "mg"), ("g", "blood_glucose", 90, "mg/dL"),
            ] {
                let (status, _) = try await Self.post(
                    #"{"type": "\#(type)", "start": "2024-06-01T10:00:00Z", "end": "2024-06-01T10:00:00Z", "value": \#(value), "unit": "\#(unit)", "source": "iPhone"}"#,
                    key: key, client, harness)
                #expect(status == .ok, "\(type)")
            }
            let (csv, detail) = try await M2ScopedTokenTests.get(
                client, "/v1/export.csv?from=2024-06-01&to=2024-06-01&metrics=xyz", token: coach.text)
            #expect(csv == .unprocessableContent)
            #expect(!detail.contains("glucose") && !detail.contains("sertraline"), "\(detail)")
            let (typo, suggestions) = try await M2ScopedTokenTests.get(
                client, "/v1/changes?type=HAE:sertraline_dos", token: coach.text)
            #expect(typo == .unprocessableContent && !suggestions.contains("sertraline_dose"), "\(suggestions)")
            // A stored type of another kind and a type the person never had: the same answer.
            let (stored, _) = try await M2ScopedTokenTests.get(client, "/v1/changes?type=HAE:sertraline_dose", token: coach.text)
            let (never, _) = try await M2ScopedTokenTests.get(client, "/v1/changes?type=HAE:foo", token: coach.text)
            #expect(stored == never)
            // The owner still gets the store's names.
            let (_, owners) = try await M2ScopedTokenTests.get(
                client, "/v1/changes?type=HAE:sertraline_dos", token: harness.tokens["alice"]!)
            #expect(owners.contains("HAE:sertraline_dose"))
        }
    }
}

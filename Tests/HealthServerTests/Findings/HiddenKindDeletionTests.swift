import Foundation
import HealthCore
import HealthServer
import HealthServerRecords
import HealthWire
import Hummingbird
import HummingbirdTesting
import Testing

/// A probe of 2026-11-28: `DELETE /v1/samples` with a scoped token answered a UUID of a kind
/// the token may not read with a 403 naming the kind (`this request writes sleep`), while an
/// unknown UUID was a 200: the token learnt that the person has that sample, and its kind. A
/// sample of a kind the token may neither write nor read is now answered as unknown, and stays.
@Suite struct HiddenKindDeletionTests {
    typealias M3 = M3WriteScopeTests

    /// The answer's `deleted` and `unknown`, for a 200.
    static func answer(_ body: ByteBuffer) -> (deleted: [String], unknown: [String]) {
        let json = ServerHarness.json(body)
        return (json["deleted"] as? [String] ?? [], json["unknown"] as? [String] ?? [])
    }

    static func delete(
        _ client: some TestClientProtocol, _ uuids: [String], token: String, key: String
    ) async throws -> (HTTPResponse.Status, deleted: [String], unknown: [String], detail: String) {
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(token)"
        headers[.contentType] = "application/json"
        headers[.init("Idempotency-Key")!] = key
        return try await client.execute(
            uri: "/v1/samples", method: .delete, headers: headers, body: ByteBuffer(string: M3.deletion(uuids))
        ) { response in
            let (deleted, unknown) = Self.answer(response.body)
            return (response.status, deleted, unknown, ServerHarness.json(response.body)["detail"] as? String ?? "")
        }
    }

    @Test(arguments: ServerBackend.enabled) func aSampleOfAKindTheTokenMayNotReadIsUnknownToIt(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        // Steps to read and write; sleep in its list but not granted on the consent page.
        let (_, token) = try await harness.store.addToken(
            owner: "alice", name: "tracker", readTypes: [.steps, .sleep], writeTypes: [.steps])
        let tracker = token.text
        try await harness.store.saveConsent(
            Consent(granted: [.steps], denied: [], decidedAt: Date()), userID: alice)
        try await harness.app.test(.router) { client in
            try await harness.postSampleBatch(client, user: "alice")
            let sleep = try await M3.uuids(client, harness, M3.sleepType)
            let steps = try await M3.uuids(client, harness, M3.stepsType)
            #expect(sleep.count == 1 && steps.count == 2)
            let never = "6F1C2A8E-3B5D-4E0A-9C7B-2D4E6F8A0B1C"

            // The sleep sample answers as a UUID never stored does (old code: 403 "writes sleep").
            let unknown = try await Self.delete(client, [never], token: tracker, key: "never")
            #expect(unknown.0 == .ok && unknown.deleted.isEmpty && unknown.unknown == [never])
            let hidden = try await Self.delete(client, sleep, token: tracker, key: "sleep")
            #expect(hidden.0 == .ok && hidden.deleted.isEmpty && hidden.unknown == sleep, "\(hidden.detail)")
            #expect(try await M3.uuids(client, harness, M3.sleepType) == sleep)

            // With its own kind in the same request: the steps go, the rest is unknown, in the order asked.
            let mixed = try await Self.delete(client, [sleep[0], steps[0], never], token: tracker, key: "mixed")
            #expect(mixed.0 == .ok && mixed.deleted == [steps[0]] && mixed.unknown == [sleep[0], never])
            #expect(try await M3.uuids(client, harness, M3.sleepType) == sleep)
            #expect(try await M3.uuids(client, harness, M3.stepsType) == [steps[1]])

            // Once sleep is granted the token may read it: deleting it is the 403 naming sleep.
            try await harness.store.saveConsent(
                Consent(granted: [.steps, .sleep], denied: [], decidedAt: Date()), userID: alice)
            let seen = try await Self.delete(client, sleep, token: tracker, key: "granted")
            #expect(seen.0 == .forbidden && seen.detail.contains("writes sleep"), "\(seen.detail)")
            #expect(try await M3.uuids(client, harness, M3.sleepType) == sleep)

            // Alice's own token deletes it.
            let own = try await Self.delete(client, sleep, token: try #require(harness.tokens["alice"]), key: "own")
            #expect(own.0 == .ok && own.deleted == sleep)
        }
    }
}

extension HiddenKindDeletionTests {
    /// The same oracle in a sync batch: a tombstone of a kind the token may not write was a
    /// 403 when such a sample was stored and `unknown` when it was not. The kinds the
    /// tombstones name are checked before anything is looked up: a 403 either way.
    @Test(arguments: ServerBackend.enabled) func aSyncTombstoneOfAKindTheTokenMayNotWriteIsRefusedAlike(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let (_, token) = try await harness.store.addToken(
            owner: "alice", name: "tracker", readTypes: [.steps], writeTypes: [.steps])
        try await harness.app.test(.router) { client in
            let device = try await SyncRouteTests.enrol(client, harness)
            let night = Sample(
                type: .sleepAnalysis, start: SyncRouteTests.start.addingTimeInterval(-8 * 3600), end: SyncRouteTests.start,
                value: .category("HKCategoryValueSleepAnalysisAsleepCore"), source: Source(name: "Jane’s Apple Watch"),
                uuid: UUID())
            let first = try SyncRouteTests.envelope([.add(SampleWire(night))], device: device, sequence: 1)
            #expect(try await SyncRouteTests.post(client, harness, first).0 == .ok)
            var answers: [HTTPResponse.Status] = []
            for (sequence, uuid) in [(2, night.uuid), (3, UUID())] {
                let tombstone = try SyncRouteTests.envelope(
                    [.delete(uuid: uuid, type: SampleType.sleepAnalysis.identifier)], device: device, sequence: Int64(sequence))
                answers.append(try await SyncRouteTests.post(client, harness, tombstone, user: token.text).0)
            }
            // Before: [403, 200].
            #expect(answers == [.forbidden, .forbidden])
            let stored = try await M3WriteScopeTests.uuids(client, harness, M3WriteScopeTests.sleepType)
            #expect(stored == [night.uuid.uuidString])
        }
    }
}

extension HiddenKindDeletionTests {
    /// The review of 1ff07af: a correlation's members are deleted with it and not asked, so a
    /// hidden blood pressure (`other`, members `heart`) was still the 403 of the first fix.
    @Test(arguments: ServerBackend.enabled) func aHiddenCorrelationIsUnknownToo(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let (_, token) = try await harness.store.addToken(
            owner: "alice", name: "tracker", readTypes: [.steps], writeTypes: [.steps])
        let correlation = UUID()
        let reading = { (type: String, value: Int) in
            #"{"uuid": "\#(UUID().uuidString)", "type": "HKQuantityTypeIdentifierBloodPressure\#(type)", "start": "2024-06-01T07:00:00Z", "end": "2024-06-01T07:00:00Z", "value": \#(value), "unit": "mmHg", "source": "Cuff"}"#
        }
        let body =
            #"{"samples": [{"uuid": "\#(correlation.uuidString)", "type": "HKCorrelationTypeIdentifierBloodPressure", "start": "2024-06-01T07:00:00Z", "end": "2024-06-01T07:00:00Z", "source": "Cuff", "members": [\#(reading("Systolic", 121)), \#(reading("Diastolic", 79))]}]}"#
        try await harness.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "bp"),
                body: ByteBuffer(string: body)
            ) { response in #expect(response.status == .ok) }
            let answer = try await Self.delete(client, [correlation.uuidString], token: token.text, key: "bp")
            #expect(answer.0 == .ok && answer.deleted.isEmpty && answer.unknown == [correlation.uuidString], "\(answer.detail)")
            let stored = try await M3WriteScopeTests.uuids(client, harness, "HKCorrelationTypeIdentifierBloodPressure")
            #expect(stored == [correlation.uuidString])
        }
    }
}

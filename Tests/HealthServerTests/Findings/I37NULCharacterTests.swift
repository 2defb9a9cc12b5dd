import Foundation
import HealthCore
import HealthWire
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import HealthServer
@testable import HealthServerRecords
@testable import HealthServerStorage

/// Found by this session's attack on the PostgreSQL write (issue 37): a string with the NUL
/// character (`\u0000`) in a sample — a metadata value, a source, a unit — was a 500 on
/// PostgreSQL, which cannot keep it in text and wrote the JSON around it, health metadata,
/// into its own log; SQLite stored the string cut at the NUL. Every JSON body, and a sync
/// batch's decrypted items, is now refused with a 422 naming the place, never the value.
@Suite struct I37NULCharacterTests {
    @Test func i37_aNULCharacterIsFoundWhereverItIs() {
        func first(_ json: String) -> String? {
            guard case (.nulCharacter, let pointer)? = JSONDuplicateKeys.firstProblem(in: Data(json.utf8)) else {
                return nil
            }
            return pointer
        }
        #expect(first(#"{"a": "x\u0000y"}"#) == "/a")
        #expect(first(#"{"a": {"b": ["ok", "\u0000"]}}"#) == "/a/b/1")
        #expect(first(#"{"s": [{"m": {"k\u0000": "v"}}]}"#) == #"/s/0/m/k\u0000"#)
        #expect(first(#""\u0000""#) == "")
        // An escaped backslash before `u0000`, other escapes, other control characters: no NUL.
        #expect(first(#"{"a": "\\u0000", "b": "\u0001\n\"\u00e9"}"#) == nil)
        #expect(first(#"{"a": "\\\u0000"}"#) == "/a")
        // Duplicate keys are still found, whichever comes first.
        #expect(JSONDuplicateKeys.firstProblem(in: Data(#"{"a": 1, "a": "\u0000"}"#.utf8))?.0 == .duplicateKey)
        #expect(JSONDuplicateKeys.first(in: Data(#"{"a": "\u0000", "b": 1, "b": 2}"#.utf8)) == "/b")
    }

    @Test(arguments: ServerBackend.enabled)
    func i37_aSampleWithANULCharacterIsRefusedOnEveryStore(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            for (index, (field, value)) in [
                ("metadata/HKDiagnosis", #""metadata": {"HKDiagnosis": "secret\u0000"}"#),
                ("source", #""source": "Ph\u0000one""#), ("unit", #""unit": "count\u0000""#),
            ].enumerated() {
                var sample = #"{"type": "steps", "start": "2024-07-09T02:00:00Z", "end": "2024-07-09T02:01:00Z", "value": 12"#
                sample += field == "unit" ? "" : #", "unit": "count""#
                sample += field == "source" ? "" : #", "source": "Phone""#
                let body = #"{"samples": ["# + sample + ", " + value + "}]}"
                try await client.execute(
                    uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "nul\(index)"),
                    body: ByteBuffer(string: body)
                ) { response in
                    #expect(response.status == .unprocessableContent, "\(field)")
                    let problem = ServerHarness.json(response.body)
                    #expect(problem["pointer"] as? String == "/samples/0/" + field)
                    #expect(!(problem["detail"] as? String ?? "").contains("secret"))
                }
            }
            try await client.execute(
                uri: "/v1/changes?type=steps&since=0", method: .get, headers: harness.headers("alice")
            ) { response in
                #expect(response.status == .ok)
                #expect((ServerHarness.json(response.body)["changes"] as? [Any])?.isEmpty == true)
            }
        }
    }

    @Test(arguments: ServerBackend.enabled)
    func i37_aSyncBatchWithANULCharacterIsRefused(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let alice = try #require(try await harness.store.authenticate(BearerToken(harness.tokens["alice"]!)!))
        let key = SyncKey.generate()
        let device = SyncDevice(id: UUID().uuidString.lowercased(), userID: alice.id, name: "Phone", createdAt: Date())
        try await harness.repositories.devices.addDevice(device, key: key)
        let intake = SyncBatchIntake(
            configuration: ServerConfiguration(), repositories: harness.repositories, days: DayQueue(),
            once: RequestOnce(
                remembered: harness.repositories.idempotency, slots: harness.repositories.inFlight, clock: { Date() }),
            logger: Logger(label: "test"))
        var samples = SyncRouteTests.samples(2)
        samples[1].source = Source(name: "Ph\u{0}one")
        let refusal = await #expect(throws: Problem.self) {
            try await intake.receive(
                try SyncRouteTests.envelope(
                    samples.map { .add(SampleWire($0)) }, device: .init(id: device.id, userID: alice.id, key: key),
                    sequence: 1),
                user: alice, zone: .gmt)
        }
        #expect(refusal?.status == .unprocessableContent)
        #expect(refusal?.pointer?.hasPrefix("/ciphertext/items/1") == true)
        #expect(try await harness.repositories.devices.device(id: device.id)?.lastSequence == 0)
    }
}

import Foundation
import HealthCore
import HealthWire
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HealthServer

/// The bytes of a device's last batch sent again — to `/v1/sync/batches/`, or with its key
/// in capitals, past the remembered answer — were applied again: a sample deleted since came
/// back (helper-62). And a new body under the last batch's id and sequence was applied too.
/// The last batch again is acknowledged now, never applied twice.
@Suite struct SyncReplayTests {
    /// The step feed's entries: (uuid, deleted).
    static func feed(_ client: some TestClientProtocol, _ harness: ServerHarness) async throws -> [(String, Bool)] {
        let page = try await ChangesAndDeletionRouteTests.changes(client, harness)
        return (page["changes"] as? [[String: Any]] ?? []).map {
            (($0["uuid"] as? String ?? "").lowercased(), $0["deleted"] as? Bool ?? false)
        }
    }

    static func post(
        _ client: some TestClientProtocol, _ harness: ServerHarness, _ body: Data, path: String, key: String
    ) async throws -> (HTTPResponse.Status, [String: Any]) {
        try await client.execute(
            uri: path, method: .post, headers: harness.headers("alice", idempotencyKey: key), body: ByteBuffer(bytes: body)
        ) { ($0.status, ServerHarness.json($0.body)) }
    }

    @Test(arguments: ServerBackend.enabled)
    func theLastBatchReplayedElsewhereBringsNoDeletedSampleBack(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let device = try await SyncRouteTests.enrol(client, harness)
            let samples = SyncRouteTests.samples(2)
            let batch = try SyncRouteTests.envelope(samples.map { .add(SampleWire($0)) }, device: device, sequence: 1)
            let bytes = try batch.encoded()
            let id = batch.batchID.uuidString.lowercased()
            #expect(try await Self.post(client, harness, bytes, path: "/v1/sync/batches", key: id).0 == .ok)
            let gone = samples[0].uuid.uuidString.lowercased()
            try await client.execute(
                uri: "/v1/samples", method: .delete, headers: harness.headers("alice", idempotencyKey: "delete"),
                body: ByteBuffer(string: #"{"uuids": ["\#(gone)"]}"#)
            ) { #expect($0.status == .ok) }
            let before = try await Self.feed(client, harness)
            for (path, key) in [
                ("/v1/sync/batches/", id), ("//v1/sync/batches", id), ("/v1/sync/batches", id.uppercased()),
            ] {
                // The first answer replayed (it added 2 then); nothing applied now.
                let (status, answer) = try await Self.post(client, harness, bytes, path: path, key: key)
                #expect(status == .ok && (answer["batch_id"] as? String)?.lowercased() == id, "\(path) \(key)")
                #expect(try await Self.feed(client, harness).map(\.0) == before.map(\.0), "\(path) \(key)")
            }
            // The key's answer forgotten (24 hours on): acknowledged, not applied.
            try await harness.forgetIdempotencyKeys()
            let (status, answer) = try await Self.post(client, harness, bytes, path: "/v1/sync/batches", key: id)
            #expect(status == .ok && answer["already_applied"] as? Bool == true && answer["added"] as? Int == 0)
            #expect(try await Self.feed(client, harness).map(\.0) == before.map(\.0))
            #expect(try await Self.feed(client, harness).last! == (gone, true))
        }
    }

    @Test(arguments: ServerBackend.enabled)
    func anotherBodyUnderTheLastBatchsIdIsNotApplied(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let device = try await SyncRouteTests.enrol(client, harness)
            let first = try SyncRouteTests.envelope(
                SyncRouteTests.samples(1).map { .add(SampleWire($0)) }, device: device, sequence: 1)
            #expect(try await SyncRouteTests.post(client, harness, first).0 == .ok)
            let other = try SyncRouteTests.envelope(
                SyncRouteTests.samples(1, from: 5).map { .add(SampleWire($0)) }, device: device, sequence: 1,
                batchID: first.batchID)
            let (status, answer) = try await Self.post(
                client, harness, try other.encoded(), path: "/v1/sync/batches", key: first.batchID.uuidString.uppercased())
            // The key is the batch id in any letters: another body under it is a 422.
            #expect(status == .unprocessableContent, "\(answer)")
            try await harness.forgetIdempotencyKeys()
            let (later, again) = try await Self.post(
                client, harness, try other.encoded(), path: "/v1/sync/batches", key: first.batchID.uuidString.lowercased())
            #expect(later == .ok && again["already_applied"] as? Bool == true && again["added"] as? Int == 0)
            #expect(try await Self.feed(client, harness).count == 1)
        }
    }
}

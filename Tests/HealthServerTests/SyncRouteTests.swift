import Crypto
import Foundation
import GRDB
import HealthCore
import HealthMetrics
import HealthServer
import HealthServerRecords
import HealthServerStorage
import HealthWire
import Hummingbird
import HummingbirdTesting
import Testing

/// Devices, keys and `POST /v1/sync/batches`, on both backends: what is applied, and every
/// refusal — a 4xx that names the check and leaves everything as it was.
@Suite struct SyncRouteTests {
    /// A device enrolled through the API, with its key.
    struct EnrolledDevice {
        var id: String
        var userID: String
        var key: SyncKey
    }

    static func enrol(
        _ client: some TestClientProtocol, _ harness: ServerHarness, user: String = "alice"
    ) async throws
        -> EnrolledDevice
    {
        try await client.execute(
            uri: "/v1/devices", method: .post, headers: harness.headers(user),
            body: ByteBuffer(string: #"{"name": "Jane’s iPhone"}"#)
        ) { response in
            #expect(response.status == .created)
            let json = ServerHarness.json(response.body)
            let device = try #require(json["device"] as? [String: Any])
            let key = try #require(json["key"] as? [String: Any])
            #expect(key["algorithm"] as? String == "AES-256-GCM")
            #expect(device["name"] as? String == "Jane’s iPhone" && device["last_sequence"] as? Int == 0)
            return EnrolledDevice(
                id: try #require(device["id"] as? String), userID: try #require(device["user_id"] as? String),
                key: try Self.key(key))
        }
    }

    /// A key as the server hands it out.
    static func key(_ json: [String: Any]) throws -> SyncKey {
        let secret = try #require(json["secret"] as? String)
        return try SyncKey(id: try #require(json["id"] as? String), secret: try #require(Data(base64Encoded: secret)))
    }

    static let start = Date(timeIntervalSince1970: 1_717_228_800)  // 2024-06-01T08:00:00Z

    /// `count` step samples of the Watch from `start`, ten minutes apart.
    static func samples(_ count: Int, from offset: Int = 0) -> [Sample] {
        (offset..<offset + count).map { index in
            let begin = start.addingTimeInterval(Double(index) * 600)
            return Sample(
                type: .stepCount, start: begin, end: begin + 300, value: .quantity(Double(100 + index), unit: "count"),
                source: Source(name: "Jane’s Apple Watch"), device: Device(name: "Apple Watch", model: "Watch"),
                metadata: [MetadataEntry(key: "HKTimeZone", value: "Europe/Paris")])
        }
    }

    static func envelope(
        _ items: [SyncItem], device: EnrolledDevice, sequence: Int64, key: SyncKey? = nil, batchID: UUID = UUID()
    ) throws -> SyncEnvelope {
        try SyncEnvelope.seal(
            try SampleWire.encoder().encode(SyncBatchContent(items: items)), userID: device.userID, deviceID: device.id,
            key: key ?? device.key, batchID: batchID, sequence: sequence, createdAt: Date())
    }

    /// Posts `body` as a batch (Idempotency-Key: `key`, default the envelope's batch id).
    static func post(
        _ client: some TestClientProtocol, _ harness: ServerHarness, _ body: Data, key: String, user: String = "alice"
    ) async throws -> (HTTPResponse.Status, [String: Any], Bool) {
        try await client.execute(
            uri: "/v1/sync/batches?tz=Europe/Paris", method: .post, headers: harness.headers(user, idempotencyKey: key),
            body: ByteBuffer(bytes: body)
        ) { response in
            (response.status, ServerHarness.json(response.body), response.headers[.init("Idempotent-Replayed")!] == "true")
        }
    }

    static func post(
        _ client: some TestClientProtocol, _ harness: ServerHarness, _ envelope: SyncEnvelope, user: String = "alice"
    ) async throws -> (HTTPResponse.Status, [String: Any], Bool) {
        try await post(client, harness, try envelope.encoded(), key: envelope.batchID.uuidString.lowercased(), user: user)
    }

    /// The user's stored samples and tombstones, as text.
    static func healthStore(_ harness: ServerHarness, user: String = "alice") throws -> [String] {
        let path = harness.folder.appendingPathComponent("users/\(harness.ids[user]!).sqlite").path
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM sample").map { "sample \($0)" }
                + Row.fetchAll(db, sql: "SELECT * FROM tombstone").map { "tombstone \($0)" }
        }
    }

    @Test(arguments: ServerBackend.enabled) func aBatchAddsAndDeletesInOrderAndIsIdempotent(_ backend: ServerBackend) async throws
    {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let device = try await Self.enrol(client, harness)
            let samples = Self.samples(3)
            let first = try Self.envelope(samples.map { .add(SampleWire($0)) }, device: device, sequence: 1)
            let (status, answer, replayed) = try await Self.post(client, harness, first)
            #expect(status == .ok && !replayed)
            #expect(answer["batch_id"] as? String == first.batchID.uuidString)
            #expect(answer["added"] as? Int == 3 && answer["duplicates"] as? Int == 0 && answer["deleted"] as? Int == 0)
            // Answered once committed: the days follow (a read computes them first).
            #expect(answer["days_pending"] as? Bool == true && answer["days_recomputed"] as? Int == 0)
            // The batch's day and the day after (Paris): 100 + 101 + 102 steps, then none.
            try await client.execute(
                uri: "/v1/daily-metrics?from=2024-06-01&to=2024-06-02", method: .get, headers: harness.headers("alice")
            ) { response in
                let days = try NormalizedDailyMetrics.backendDecoder().decode(
                    [NormalizedDailyMetrics].self, from: Data(response.body.readableBytesView))
                #expect(days.map(\.localDate) == ["2024-06-01", "2024-06-02"])
                #expect(days.map(\.stepsNormalized) == [303, nil])
            }
            // The same batch again: the first answer, replayed; nothing written.
            let before = try Self.healthStore(harness)
            let (again, replay, wasReplayed) = try await Self.post(client, harness, first)
            #expect(again == .ok && wasReplayed && replay["added"] as? Int == 3)
            #expect(try Self.healthStore(harness) == before)
            // Deletions are data: a tombstone, an addition re-sent, an unknown UUID, in order.
            let second = try Self.envelope(
                [
                    .delete(uuid: samples[0].uuid, type: SampleType.stepCount.identifier), .add(SampleWire(samples[1])),
                    .add(SampleWire(Self.samples(1, from: 3)[0])), .delete(uuid: UUID(), type: SampleType.stepCount.identifier),
                ], device: device, sequence: 2)
            let (status2, answer2, _) = try await Self.post(client, harness, second)
            #expect(status2 == .ok)
            #expect(answer2["added"] as? Int == 1 && answer2["duplicates"] as? Int == 1)
            #expect(answer2["deleted"] as? Int == 1 && answer2["unknown"] as? Int == 1)
            let feed = try await ChangesAndDeletionRouteTests.changes(client, harness)
            let entries = try #require(feed["changes"] as? [[String: Any]])
            #expect(entries.compactMap { $0["deleted"] as? Bool } == [false, false, true, false])
            #expect(
                entries.compactMap { $0["uuid"] as? String }.prefix(2) == [
                    samples[1].uuid.uuidString, samples[2].uuid.uuidString,
                ])
            let kept = try #require(entries.first?["sample"] as? [String: Any])
            #expect(kept["source"] as? String == "Jane’s Apple Watch" && kept["value"] as? Double == 101)
            #expect((kept["metadata"] as? [String: String])?["HKTimeZone"] == "Europe/Paris")
            // The device's sequence moved; the list shows it.
            try await client.execute(uri: "/v1/devices", method: .get, headers: harness.headers("alice")) { response in
                let devices = try #require(ServerHarness.json(response.body)["devices"] as? [[String: Any]])
                #expect(devices.count == 1 && devices.first?["last_sequence"] as? Int == 2)
                #expect(devices.first?["last_batch_id"] as? String == second.batchID.uuidString)
            }
        }
    }

    /// Every refusal of the acceptance list: its status, a detail naming the check, and
    /// the server's tables and the user's store exactly as before.
    @Test(arguments: ServerBackend.enabled) func refusalsChangeNothing(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend) { $0.maxEnvelopeBytes = 64 << 10 }
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let device = try await Self.enrol(client, harness)
            let bobs = try await Self.enrol(client, harness, user: "bob")
            let revoked = try await Self.enrol(client, harness)
            try await client.execute(uri: "/v1/devices/\(revoked.id)", method: .delete, headers: harness.headers("alice")) {
                #expect($0.status == .ok)
                #expect(ServerHarness.json($0.body)["revoked_at"] is String)
            }
            let items = Self.samples(2).map { SyncItem.add(SampleWire($0)) }
            let accepted = try Self.envelope(items, device: device, sequence: 5)
            #expect(try await Self.post(client, harness, accepted).0 == .ok)
            try await harness.settleDays(client, user: "alice")
            let tables = try await harness.dumpTables()
            let store = try Self.healthStore(harness)

            var tampered = try Self.envelope(items, device: device, sequence: 6)
            tampered.ciphertext[tampered.ciphertext.startIndex + 5] ^= 0x40
            var wrongKeyID = try Self.envelope(items, device: device, sequence: 6)
            wrongKeyID.keyID = "k-not-this-one"
            let otherKey = SyncKey.generate()
            let sealedWithAnotherKey = try Self.envelope(
                items, device: device, sequence: 6, key: try SyncKey(id: device.key.id, secret: otherKey.secret))
            let truncated = try Self.envelope(items, device: device, sequence: 6)
            let huge = try Self.envelope(
                (0..<4000).map { _ in .delete(uuid: UUID(), type: "HKQuantityTypeIdentifierStepCount") }, device: device,
                sequence: 6)
            let cases: [(String, Data, String, String?, HTTPResponse.Status, String)] = [
                (
                    "tampered ciphertext", try tampered.encoded(), tampered.batchID.uuidString, "alice", .unprocessableContent,
                    "altered"
                ),
                (
                    "truncated envelope", try truncated.encoded().prefix(120), truncated.batchID.uuidString, "alice", .badRequest,
                    "JSON"
                ),
                (
                    "wrong key id", try wrongKeyID.encoded(), wrongKeyID.batchID.uuidString, "alice", .forbidden,
                    "is not a key of device"
                ),
                (
                    "another key", try sealedWithAnotherKey.encoded(), sealedWithAnotherKey.batchID.uuidString, "alice",
                    .unprocessableContent, "altered"
                ),
                (
                    "revoked device", try Self.envelope(items, device: revoked, sequence: 1).encoded(), "", "alice", .forbidden,
                    "revoked"
                ),
                (
                    "Bob's device, Alice's token", try Self.envelope(items, device: bobs, sequence: 1).encoded(), "", "alice",
                    .forbidden, "not enrolled"
                ),
                (
                    "Alice's device, Bob's token", try Self.envelope(items, device: device, sequence: 6).encoded(), "", "bob",
                    .forbidden, "not enrolled"
                ),
                (
                    "replayed sequence", try Self.envelope(items, device: device, sequence: 5).encoded(), "", "alice",
                    .unprocessableContent, "replayed"
                ),
                ("larger than the limit", try huge.encoded(), huge.batchID.uuidString, "alice", .contentTooLarge, "larger"),
                (
                    "key is not the batch id", try Self.envelope(items, device: device, sequence: 6).encoded(), UUID().uuidString,
                    "alice", .unprocessableContent, "batch_id"
                ),
                (
                    "checksum of other bytes", try Self.wrongChecksum(items, device: device), "", "alice", .unprocessableContent,
                    "checksum"
                ),
            ]
            for (name, body, given, user, status, words) in cases {
                let key =
                    given.isEmpty
                    ? ((try? JSONDecoder().decode(SyncEnvelope.self, from: body))?.batchID.uuidString ?? UUID().uuidString)
                    : given
                let (answer, json, _) = try await Self.post(client, harness, body, key: key, user: user ?? "alice")
                #expect(answer == status, "\(name)")
                let detail = json["detail"] as? String ?? ""
                #expect(detail.contains(words), "\(name): \(detail)")
                // Ids in the detail (UUIDs, device ids) are random hex and may hold "100" by chance.
                let text = detail.replacingOccurrences(of: "[0-9A-Fa-f-]{8,}", with: "<id>", options: .regularExpression)
                #expect(!text.contains("Jane") && !text.contains("100"), "\(name) names no value: \(text)")
            }
            #expect(try await harness.dumpTables() == tables)
            #expect(try Self.healthStore(harness) == store)
        }
    }

    /// An envelope whose checksum is of other bytes, sealed correctly otherwise.
    static func wrongChecksum(_ items: [SyncItem], device: EnrolledDevice) throws -> Data {
        var envelope = try envelope(items, device: device, sequence: 6)
        envelope.checksum = SyncEnvelope.checksum(Data("other".utf8))
        let box = try AES.GCM.seal(
            try Deflate.compress(try SampleWire.encoder().encode(SyncBatchContent(items: items))), using: device.key.key,
            authenticating: envelope.associatedData(userID: device.userID))
        envelope.nonce = Data(box.nonce)
        envelope.ciphertext = box.ciphertext + box.tag
        return try envelope.encoded()
    }

    /// Rotation: new batches under the new key; the old key for the grace period, then not;
    /// an old sequence under the new key is a replay.
    @Test(arguments: ServerBackend.enabled) func rotationKeepsTheOldKeyForItsGracePeriod(_ backend: ServerBackend) async throws {
        let clock = MutableClock(Date(timeIntervalSince1970: 1_900_000_000))
        let harness = try await ServerHarness(backend) { configuration in
            configuration.clock = { clock.now }
            configuration.keyGracePeriod = 3600
        }
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            var device = try await Self.enrol(client, harness)
            let old = device.key
            let items = Self.samples(1).map { SyncItem.add(SampleWire($0)) }
            #expect(try await Self.post(client, harness, try Self.envelope(items, device: device, sequence: 1)).0 == .ok)
            try await client.execute(uri: "/v1/devices/\(device.id)/keys", method: .post, headers: harness.headers("alice")) {
                response in
                #expect(response.status == .created)
                let json = ServerHarness.json(response.body)
                let key = try #require(json["key"] as? [String: Any])
                device.key = try Self.key(key)
                #expect(json["previous_key_valid_until"] as? String == "2030-03-17T18:46:40Z")
            }
            #expect(device.key.id != old.id)
            // A replayed sequence under the new key.
            let (replayed, json, _) = try await Self.post(client, harness, try Self.envelope(items, device: device, sequence: 1))
            #expect(replayed == .unprocessableContent && (json["detail"] as? String)?.contains("replayed") == true)
            // The old key within the grace period, the new one always.
            #expect(
                try await Self.post(client, harness, try Self.envelope(items, device: device, sequence: 2, key: old)).0 == .ok)
            #expect(try await Self.post(client, harness, try Self.envelope(items, device: device, sequence: 3)).0 == .ok)
            clock.advance(3601)
            let (late, lateJSON, _) = try await Self.post(
                client, harness, try Self.envelope(items, device: device, sequence: 4, key: old))
            #expect(late == .forbidden && (lateJSON["detail"] as? String)?.contains("replaced") == true)
            #expect(try await Self.post(client, harness, try Self.envelope(items, device: device, sequence: 4)).0 == .ok)
        }
    }

    /// The last batch again under its own id after its answer was lost: acknowledged, not
    /// refused as a replay, and not applied again (`SyncReplayTests`).
    @Test(arguments: ServerBackend.enabled) func theLastBatchResentIsNotAReplay(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let device = try await Self.enrol(client, harness)
            let batch = try Self.envelope(Self.samples(2).map { .add(SampleWire($0)) }, device: device, sequence: 1)
            #expect(try await Self.post(client, harness, batch).0 == .ok)
            // The remembered answer is gone (a crash between the write and remembering it).
            try await harness.forgetIdempotencyKeys()
            let (status, answer, replayed) = try await Self.post(client, harness, batch)
            #expect(status == .ok && !replayed && answer["already_applied"] as? Bool == true)
            #expect(answer["duplicates"] as? Int == 0 && answer["added"] as? Int == 0)
        }
    }
}

/// A clock tests move by hand.
final class MutableClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date) { current = start }

    var now: Date { lock.withLock { current } }

    func advance(_ seconds: Double) { lock.withLock { current += seconds } }
}

import Crypto
import Foundation
import HealthCore
import HealthWire
import Testing

/// The sealed batch: what it binds, what opens it, what does not.
@Suite struct EnvelopeTests {
    static let key = try! SyncKey(id: "k-1", secret: Data(repeating: 7, count: 32))
    static let plaintext = Data(
        #"{"items":[{"op":"delete","type":"HKQuantityTypeIdentifierStepCount","uuid":"6F1C2A8E-3B5D-4E0A-9C7B-2D4E6F8A0B1C"}]}"#
            .utf8)

    static func sealed() throws -> SyncEnvelope {
        try SyncEnvelope.seal(
            plaintext, userID: "alice", deviceID: "d-1", key: key,
            batchID: UUID(uuidString: "00000000-0000-4000-8000-000000000001")!,
            sequence: 7, createdAt: Date(timeIntervalSince1970: 1_800_000_000.75))
    }

    @Test func aSealedBatchOpensToItsPlaintext() throws {
        let envelope = try Self.sealed()
        #expect(try envelope.open(userID: "alice", key: Self.key, limit: 1 << 20) == Self.plaintext)
        #expect(envelope.nonce.count == 12)
        #expect(envelope.checksum == SHA256.hash(data: Self.plaintext).map { String(format: "%02x", $0) }.joined())
        #expect(envelope.createdAt == Date(timeIntervalSince1970: 1_800_000_000))
        // The JSON round-trips to the same envelope, and the same envelope to the same bytes.
        let decoded = try JSONDecoder().decode(SyncEnvelope.self, from: try envelope.encoded())
        #expect(decoded == envelope)
        #expect(try decoded.encoded() == envelope.encoded())
        let json = try #require(try JSONSerialization.jsonObject(with: envelope.encoded()) as? [String: Any])
        #expect(
            Set(json.keys) == [
                "v", "device_id", "key_id", "batch_id", "sequence", "created_at", "compression", "nonce", "ciphertext",
                "checksum",
            ])
        #expect(json["created_at"] as? String == "2027-01-15T08:00:00Z")
    }

    @Test func everyNonceIsFresh() throws {
        let nonces = try (0..<200).map { _ in try Self.sealed().nonce }
        #expect(Set(nonces).count == 200)
    }

    @Test func everyFieldInClearIsBound() throws {
        let envelope = try Self.sealed()
        var changes: [(String, SyncEnvelope)] = []
        var copy = envelope
        copy.deviceID = "d-2"
        changes.append(("device", copy))
        copy = envelope
        copy.batchID = UUID()
        changes.append(("batch", copy))
        copy = envelope
        copy.sequence = 8
        changes.append(("sequence", copy))
        copy = envelope
        copy.createdAt = envelope.createdAt.addingTimeInterval(1)
        changes.append(("created", copy))
        copy = envelope
        copy.checksum = String(repeating: "0", count: 64)
        changes.append(("checksum", copy))
        copy = envelope
        copy.ciphertext[copy.ciphertext.startIndex + 3] ^= 1
        changes.append(("ciphertext", copy))
        copy = envelope
        copy.nonce[copy.nonce.startIndex] ^= 1
        changes.append(("nonce", copy))
        for (field, changed) in changes {
            #expect(throws: SyncEnvelopeError(.authenticationFailed), "\(field)") {
                try changed.open(userID: "alice", key: Self.key, limit: 1 << 20)
            }
        }
        // Opened as another user: the user is bound too.
        #expect(throws: SyncEnvelopeError(.authenticationFailed)) {
            try envelope.open(userID: "bob", key: Self.key, limit: 1 << 20)
        }
        // Another key under the same id.
        let other = try SyncKey(id: "k-1", secret: Data(repeating: 8, count: 32))
        #expect(throws: SyncEnvelopeError(.authenticationFailed)) {
            try envelope.open(userID: "alice", key: other, limit: 1 << 20)
        }
        // A key with another id is not even tried.
        let renamed = try SyncKey(id: "k-2", secret: Data(repeating: 7, count: 32))
        #expect(throws: SyncEnvelopeError(.wrongKey)) { try envelope.open(userID: "alice", key: renamed, limit: 1 << 20) }
    }

    /// A client that seals a checksum of other bytes is caught after decryption.
    @Test func aChecksumOfOtherBytesIsCaught() throws {
        let envelope = try Self.sealedWithChecksum(of: Data("other".utf8))
        #expect(throws: SyncEnvelopeError(.checksumMismatch)) {
            try envelope.open(userID: "alice", key: Self.key, limit: 1 << 20)
        }
    }

    /// An envelope sealed by hand, as another client would, with `checksum` over `bytes`.
    static func sealedWithChecksum(of bytes: Data) throws -> SyncEnvelope {
        var envelope = try sealed()
        envelope.checksum = SyncEnvelope.checksum(bytes)
        let box = try AES.GCM.seal(
            try Deflate.compress(plaintext), using: key.key, authenticating: envelope.associatedData(userID: "alice"))
        envelope.nonce = Data(box.nonce)
        envelope.ciphertext = box.ciphertext + box.tag
        return envelope
    }

    @Test func inflationStopsAtTheLimit() throws {
        // 8 MiB of zeros deflate to ~8 KiB: a limit of 1 MiB refuses it without inflating it all.
        let bomb = Data(count: 8 << 20)
        let compressed = try Deflate.compress(bomb)
        #expect(compressed.count < 10_000)
        #expect(throws: Deflate.Failure.self) { try Deflate.decompress(compressed, limit: 1 << 20) }
        #expect(try Deflate.decompress(compressed, limit: 8 << 20) == bomb)
        // Cut short, or followed by junk.
        #expect(throws: Deflate.Failure.self) { try Deflate.decompress(compressed.dropLast(4), limit: 8 << 20) }
        #expect(throws: Deflate.Failure.self) { try Deflate.decompress(compressed + Data([1, 2, 3]), limit: 8 << 20) }
    }

    @Test func itemsAreWrittenAsTheWireSays() throws {
        let sample = Sample(
            type: .stepCount, start: Date(timeIntervalSince1970: 1_700_000_000),
            end: Date(timeIntervalSince1970: 1_700_000_300.5), value: .quantity(412, unit: "count"),
            source: Source(name: "Jane’s iPhone"), metadata: [MetadataEntry(key: "HKTimeZone", value: "Europe/Paris")])
        let content = SyncBatchContent(items: [
            .add(SampleWire(sample)), .delete(uuid: sample.uuid, type: "HKQuantityTypeIdentifierStepCount"),
        ])
        let data = try SampleWire.encoder().encode(content)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""op":"add""#) && text.contains(#""op":"delete""#))
        #expect(text.contains(#""end":"2023-11-14T22:18:20.500Z""#))
        #expect(text.contains(#""uuid":"\#(sample.uuid.uuidString)""#))
    }
}

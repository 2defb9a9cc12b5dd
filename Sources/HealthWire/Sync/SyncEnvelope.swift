import Crypto
import Foundation
import HealthMetrics

/// A sealed sync batch, the body of `POST /v1/sync/batches` (docs/sync.md §Envelope).
///
/// The plaintext (``SyncBatchContent`` as JSON) is deflated, then sealed with AES-256-GCM
/// under the device's key with a fresh random 96-bit nonce. The fields in clear — device,
/// key id, batch id, sequence, creation time, SHA-256 checksum of the plaintext — and the
/// user the device belongs to are the associated data: changing any of them, or opening
/// the batch as another user, fails authentication.
///
/// ```swift
/// let envelope = try SyncEnvelope.seal(
///     plaintext, userID: user, deviceID: device, key: key, batchID: UUID(), sequence: 7, createdAt: Date())
/// let opened = try envelope.open(userID: user, key: key, limit: 64 << 20)  // == plaintext
/// ```
public struct SyncEnvelope: Codable, Sendable, Hashable {
    /// The envelope format; this is version 1.
    public var version: Int
    public var deviceID: String
    public var keyID: String
    /// The batch's id: also its `Idempotency-Key`.
    public var batchID: UUID
    /// The device's batch counter: every batch it seals has a larger one.
    public var sequence: Int64
    /// When the batch was sealed, whole seconds.
    public var createdAt: Date
    /// `deflate` (raw, RFC 1951).
    public var compression: String
    /// The 12-byte AES-GCM nonce.
    public var nonce: Data
    /// The ciphertext followed by the 16-byte tag.
    public var ciphertext: Data
    /// Lowercase hex SHA-256 of the plaintext JSON.
    public var checksum: String

    enum CodingKeys: String, CodingKey {
        case version = "v"
        case deviceID = "device_id"
        case keyID = "key_id"
        case batchID = "batch_id"
        case sequence
        case createdAt = "created_at"
        case compression, nonce, ciphertext, checksum
    }

    /// Seals `plaintext` (a ``SyncBatchContent``'s JSON).
    public static func seal(
        _ plaintext: Data, userID: String, deviceID: String, key: SyncKey, batchID: UUID, sequence: Int64, createdAt: Date,
        compressionLevel: Int32 = 6
    ) throws -> SyncEnvelope {
        var envelope = SyncEnvelope(
            version: 1, deviceID: deviceID, keyID: key.id, batchID: batchID, sequence: sequence,
            createdAt: Date(timeIntervalSince1970: createdAt.timeIntervalSince1970.rounded(.down)), compression: "deflate",
            nonce: Data(), ciphertext: Data(), checksum: Self.checksum(plaintext))
        let sealed = try AES.GCM.seal(
            try Deflate.compress(plaintext, level: compressionLevel), using: key.key, nonce: AES.GCM.Nonce(),
            authenticating: envelope.associatedData(userID: userID))
        envelope.nonce = Data(sealed.nonce)
        envelope.ciphertext = sealed.ciphertext + sealed.tag
        return envelope
    }

    /// The plaintext, at most `limit` bytes of it, when every check holds: format, key id,
    /// authentication of the ciphertext and of every field in clear, inflation, checksum.
    public func open(userID: String, key: SyncKey, limit: Int) throws -> Data {
        guard version == 1 else { throw SyncEnvelopeError(.unsupported("version \(version) (this server reads 1)"), field: "v") }
        guard compression == "deflate" else {
            throw SyncEnvelopeError(.unsupported("compression '\(compression.prefix(40))'"), field: "compression")
        }
        guard keyID == key.id else { throw SyncEnvelopeError(.wrongKey) }
        guard nonce.count == 12 else { throw SyncEnvelopeError(.malformed, field: "nonce") }
        guard ciphertext.count >= 16 else { throw SyncEnvelopeError(.malformed, field: "ciphertext") }
        let compressed: Data
        do {
            let box = try AES.GCM.SealedBox(
                nonce: try AES.GCM.Nonce(data: nonce), ciphertext: ciphertext.dropLast(16), tag: ciphertext.suffix(16))
            compressed = try AES.GCM.open(box, using: key.key, authenticating: associatedData(userID: userID))
        } catch {
            throw SyncEnvelopeError(.authenticationFailed)
        }
        let plaintext: Data
        do {
            plaintext = try Deflate.decompress(compressed, limit: limit)
        } catch let failure as Deflate.Failure {
            throw SyncEnvelopeError(.notInflatable(failure.description))
        }
        guard Self.checksum(plaintext) == checksum else { throw SyncEnvelopeError(.checksumMismatch) }
        return plaintext
    }

    /// The associated data: every field in clear, and the user, in one canonical text.
    public func associatedData(userID: String) -> Data {
        Data(
            """
            healthpipe-sync/\(version)
            user=\(userID)
            device=\(deviceID)
            key=\(keyID)
            batch=\(batchID.uuidString.lowercased())
            sequence=\(sequence)
            created=\(Int64(createdAt.timeIntervalSince1970.rounded(.down)))
            compression=\(compression)
            checksum=\(checksum)
            """.utf8)
    }

    /// Lowercase hex SHA-256.
    public static func checksum(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    public init(
        version: Int, deviceID: String, keyID: String, batchID: UUID, sequence: Int64, createdAt: Date, compression: String,
        nonce: Data, ciphertext: Data, checksum: String
    ) {
        self.version = version
        self.deviceID = deviceID
        self.keyID = keyID
        self.batchID = batchID
        self.sequence = sequence
        self.createdAt = createdAt
        self.compression = compression
        self.nonce = nonce
        self.ciphertext = ciphertext
        self.checksum = checksum
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        deviceID = try container.decode(String.self, forKey: .deviceID)
        keyID = try container.decode(String.self, forKey: .keyID)
        batchID = try container.decode(UUID.self, forKey: .batchID)
        sequence = try container.decode(Int64.self, forKey: .sequence)
        let created = try container.decode(String.self, forKey: .createdAt)
        guard let date = RFC3339.parse(created) else {
            throw DecodingError.dataCorruptedError(
                forKey: .createdAt, in: container,
                debugDescription: "created_at must be an RFC 3339 instant such as 2026-11-23T08:00:00Z")
        }
        createdAt = date
        compression = try container.decode(String.self, forKey: .compression)
        nonce = try container.decode(Data.self, forKey: .nonce)
        ciphertext = try container.decode(Data.self, forKey: .ciphertext)
        checksum = try container.decode(String.self, forKey: .checksum)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(deviceID, forKey: .deviceID)
        try container.encode(keyID, forKey: .keyID)
        try container.encode(batchID, forKey: .batchID)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(ISO8601DateFormatter().string(from: createdAt), forKey: .createdAt)
        try container.encode(compression, forKey: .compression)
        try container.encode(nonce, forKey: .nonce)
        try container.encode(ciphertext, forKey: .ciphertext)
        try container.encode(checksum, forKey: .checksum)
    }

    /// The envelope's JSON, as sent (sorted keys: the same envelope, the same bytes).
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

/// Why an envelope does not open. The description names the check that failed, never a
/// byte of the content.
public struct SyncEnvelopeError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case unsupported(String)
        case wrongKey
        case malformed
        case authenticationFailed
        case notInflatable(String)
        case checksumMismatch
    }

    public let kind: Kind
    /// The envelope's field the check is about (`compression`, `nonce`…), when one is.
    public let field: String?

    public init(_ kind: Kind, field: String? = nil) {
        self.kind = kind
        self.field = field
    }

    public var description: String {
        switch kind {
        case .unsupported(let what): "unsupported \(what)"
        case .wrongKey: "the envelope is sealed with another key than the one named"
        case .malformed: "the nonce must be 12 bytes and the ciphertext at least its 16-byte tag"
        case .authenticationFailed:
            "the ciphertext or a field in clear was altered, or it was sealed with another key or for another user"
        case .notInflatable(let reason): "the decrypted batch does not inflate: \(reason)"
        case .checksumMismatch: "the checksum does not match the decrypted batch"
        }
    }
}

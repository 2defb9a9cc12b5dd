import Foundation

// The answers and bodies of the device and sync routes, as the server writes them and the
// sync client reads them: one definition for both sides (docs/sync.md, docs/api.md).

/// A device enrolled for sync.
public struct SyncDevice: Codable, Hashable, Sendable {
    public var id: String
    public var userID: String
    public var name: String
    public var createdAt: Date
    /// When it was revoked: its batches are refused from then on.
    public var revokedAt: Date?
    /// The sequence number of the last batch accepted from it (0: none yet).
    public var lastSequence: Int64
    /// The id of that batch: the one batch that may come again with the same sequence
    /// (a retry of a batch whose answer was lost).
    public var lastBatchID: UUID?
    public var lastBatchAt: Date?

    public init(
        id: String, userID: String, name: String, createdAt: Date, revokedAt: Date? = nil, lastSequence: Int64 = 0,
        lastBatchID: UUID? = nil, lastBatchAt: Date? = nil
    ) {
        self.id = id
        self.userID = userID
        self.name = name
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.lastSequence = lastSequence
        self.lastBatchID = lastBatchID
        self.lastBatchAt = lastBatchAt
    }

    enum CodingKeys: String, CodingKey {
        case id, name
        case userID = "user_id"
        case createdAt = "created_at"
        case revokedAt = "revoked_at"
        case lastSequence = "last_sequence"
        case lastBatchID = "last_batch_id"
        case lastBatchAt = "last_batch_at"
    }
}

/// The body of `POST /v1/devices`.
public struct DeviceEnrolmentRequest: Codable, Sendable {
    public var name: String

    public init(name: String) { self.name = name }
}

/// A key as enrolment and rotation answer it, the only time its secret travels.
public struct DeviceKeyWire: Codable, Sendable {
    public var id: String
    /// The 32 bytes, base64.
    public var secret: Data
    public var algorithm = "AES-256-GCM"

    public init(_ key: SyncKey) {
        id = key.id
        secret = key.secret
    }
}

/// The answer of `POST /v1/devices` and `POST /v1/devices/{id}/keys`.
public struct DeviceKeyAnswer: Codable, Sendable {
    public var device: SyncDevice
    public var key: DeviceKeyWire
    /// After a rotation: until when the server still accepts batches sealed with the
    /// previous key.
    public var previousKeyValidUntil: Date?

    public init(device: SyncDevice, key: DeviceKeyWire, previousKeyValidUntil: Date?) {
        self.device = device
        self.key = key
        self.previousKeyValidUntil = previousKeyValidUntil
    }

    enum CodingKeys: String, CodingKey {
        case device, key
        case previousKeyValidUntil = "previous_key_valid_until"
    }
}

/// The answer of `POST /v1/sync/batches`: the batch acknowledged, and what it did.
public struct SyncBatchAnswer: Codable, Sendable, Equatable {
    public var batchID: UUID
    public var sequence: Int64
    public var added = 0
    public var duplicates = 0
    /// Records stored before that the batch completed (a workout's route points); absent
    /// when none.
    public var updated: Int?
    public var deleted = 0
    /// Deletions of UUIDs the server does not hold (never sent, or deleted already).
    public var unknown = 0
    public var daysRecomputed = 0
    /// `true` when the batch added or deleted samples: their days are computed after the
    /// answer (absent when it changed none); ``daysRecomputed`` is then 0.
    public var daysPending: Bool?
    /// `true` for the device's last batch sent again once its remembered answer is gone (or
    /// under another form of its key): acknowledged, not applied again — what was deleted
    /// since it must not come back (docs/sync.md §3).
    public var alreadyApplied: Bool?

    public init(batchID: UUID, sequence: Int64) {
        self.batchID = batchID
        self.sequence = sequence
    }

    enum CodingKeys: String, CodingKey {
        case batchID = "batch_id"
        case sequence, added, duplicates, updated, deleted, unknown
        case daysRecomputed = "days_recomputed"
        case daysPending = "days_pending"
        case alreadyApplied = "already_applied"
    }
}

import Foundation

// The bodies the server takes and answers (besides the sync's, in Sync/, and the
// samples', in Samples/): one definition for the server that writes them and any client
// that reads them (issue 34 §3).

/// What an ingest did, as answered (`POST /v1/samples`, `POST /v1/health-auto-export`).
public struct IngestReport: Codable, Sendable {
    public var records: Int
    public var added: Int
    public var duplicates: Int
    /// Records stored before that this write completed (a workout's route points); absent
    /// when none.
    public var updated: Int?
    public var ignoredKeys: [String]
    public var unknownMetrics: [String]
    /// 0 from the server: the days are computed after the answer (``daysPending``); kept for
    /// older clients.
    public var daysRecomputed: Int
    /// All zeros from the server, as ``daysRecomputed``.
    public var daily: UpsertCounts
    /// `true` when samples were added: their days are computed after the answer, and a read
    /// of days computes them first (absent when nothing was added).
    public var daysPending: Bool?

    public init(
        records: Int, added: Int, duplicates: Int, ignoredKeys: [String], unknownMetrics: [String], daysRecomputed: Int,
        daily: UpsertCounts, daysPending: Bool? = nil
    ) {
        self.records = records
        self.added = added
        self.duplicates = duplicates
        self.ignoredKeys = ignoredKeys
        self.unknownMetrics = unknownMetrics
        self.daysRecomputed = daysRecomputed
        self.daily = daily
        self.daysPending = daysPending
    }

    enum CodingKeys: String, CodingKey {
        case records, added, duplicates, updated
        case ignoredKeys = "ignored_keys"
        case unknownMetrics = "unknown_metrics"
        case daysRecomputed = "days_recomputed"
        case daily
        case daysPending = "days_pending"
    }
}

/// The body of `DELETE /v1/samples`.
public struct DeletionRequest: Codable, Sendable {
    public var uuids: [String]

    public init(uuids: [String]) { self.uuids = uuids }
}

/// The answer of `DELETE /v1/samples`.
public struct DeletionAnswer: Codable, Sendable {
    public var deleted: [UUID]
    public var unknown: [UUID]
    public var deletedByType: [String: Int]
    public var daysRecomputed: Int
    public var daily: UpsertCounts
    /// `true` when samples were deleted: the days they were on are computed after the
    /// answer (absent when nothing was deleted).
    public var daysPending: Bool?

    public init(
        deleted: [UUID], unknown: [UUID], deletedByType: [String: Int], daysRecomputed: Int, daily: UpsertCounts,
        daysPending: Bool? = nil
    ) {
        self.deleted = deleted
        self.unknown = unknown
        self.deletedByType = deletedByType
        self.daysRecomputed = daysRecomputed
        self.daily = daily
        self.daysPending = daysPending
    }

    enum CodingKeys: String, CodingKey {
        case deleted, unknown
        case deletedByType = "deleted_by_type"
        case daysRecomputed = "days_recomputed"
        case daily
        case daysPending = "days_pending"
    }
}

/// What `DELETE /v1/me` and `healthpipe users delete` removed.
public struct UserDeletionReport: Codable, Sendable {
    public var user: String
    public var id: String
    /// Rows deleted per server table (`user` holds the token).
    public var rows: [String: Int]
    /// Samples in the user's health store, and the bytes of its files, now gone.
    public var samples: Int
    public var healthStoreBytes: Int64

    public init(user: String, id: String, rows: [String: Int], samples: Int, healthStoreBytes: Int64) {
        self.user = user
        self.id = id
        self.rows = rows
        self.samples = samples
        self.healthStoreBytes = healthStoreBytes
    }

    enum CodingKeys: String, CodingKey {
        case user, id, rows, samples
        case healthStoreBytes = "health_store_bytes"
    }
}

/// What an upsert did.
public struct UpsertCounts: Hashable, Sendable, Codable {
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0

    public init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
    }
}

/// `PUT /v1/me/zone`'s body: the person's new home zone (docs/api.md §Home zone).
public struct HomeZoneRequest: Codable, Sendable {
    /// An IANA zone, such as `Europe/Paris`.
    public var tz: String

    public init(tz: String) { self.tz = tz }
}

/// The person's home zone, as `GET` and `PUT /v1/me/zone` answer it.
public struct HomeZoneAnswer: Codable, Sendable, Equatable {
    /// The zone their days are counted in; `nil` before any write named one (UTC's days).
    public var zone: String?
    /// After a change: the zone before it (`nil` when there was none).
    public var previous: String?
    /// After a change: every day is computed again in the new zone, after the answer.
    public var daysPending: Bool?

    public init(zone: String?, previous: String? = nil, daysPending: Bool? = nil) {
        self.zone = zone
        self.previous = previous
        self.daysPending = daysPending
    }

    enum CodingKeys: String, CodingKey {
        case zone, previous
        case daysPending = "days_pending"
    }

    /// `zone` always (`null` when none), `previous` with `days_pending` after a change.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(zone, forKey: .zone)
        if daysPending != nil || previous != nil { try container.encode(previous, forKey: .previous) }
        try container.encodeIfPresent(daysPending, forKey: .daysPending)
    }
}

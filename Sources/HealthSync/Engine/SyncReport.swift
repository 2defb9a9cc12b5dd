import Foundation
import HealthCore

/// What a sync run did, for its summary (counts only, never a value).
public struct SyncReport: Sendable, Hashable, Codable {
    /// Items read from the store into batches, and the batches they made.
    public var itemsRead = 0
    public var batchesQueued = 0
    /// Batches the server acknowledged, and their items.
    public var batchesSent = 0
    public var itemsSent = 0
    /// Request bodies put on the wire, every attempt counted.
    public var bytesSent = 0
    public var retries = 0
    /// Batches moved to the dead letters in this run.
    public var deadLetters = 0
    /// What the server did with the acknowledged batches.
    public var added = 0
    public var duplicates = 0
    public var deleted = 0

    public init() {}

    enum CodingKeys: String, CodingKey {
        case itemsRead = "items_read"
        case batchesQueued = "batches_queued"
        case batchesSent = "batches_sent"
        case itemsSent = "items_sent"
        case bytesSent = "bytes_sent"
        case retries
        case deadLetters = "dead_letters"
        case added, duplicates, deleted
    }
}

/// What happens during a sync, as it happens: for a progress line and for loud reports.
public enum SyncEvent: Sendable {
    /// Backfill of `type` has read back to `cursor` (from `floor`, if any): `items` so far.
    case backfill(type: SampleType, cursor: Date, floor: Date?, items: Int)
    /// A batch was acknowledged.
    case acknowledged(sequence: Int64, items: Int)
    /// An attempt failed and will be retried after `delay` seconds.
    case retrying(sequence: Int64, attempt: Int, delay: Double, reason: String)
    /// The server refused a batch for good: it is in the dead letters.
    case deadLettered(sequence: Int64, status: Int, reason: String)
}

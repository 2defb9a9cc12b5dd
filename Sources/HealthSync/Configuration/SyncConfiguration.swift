import Foundation
import HealthCore

/// How a device syncs: batch size, backfill, retries, and the conditions uploads wait for.
/// Reading into the outbox never waits for conditions; uploading does (docs/sync.md).
public struct SyncConfiguration: Sendable {
    /// How much history — the samples stored before a type's first sync — is sent, newest
    /// first. A wider backfill given later sends the newly covered part; a narrower one
    /// changes nothing.
    public enum Backfill: Sendable, Hashable, CustomStringConvertible {
        /// The last `n` days of each type's data: back from its newest sample's end (from
        /// now when that lies ahead), so a store whose data ended long ago still sends its
        /// last days. Samples dated after now are sent whatever `n` (the feed cannot carry
        /// them: they were stored before it starts).
        case days(Int)
        /// Everything the store holds.
        case all

        public var description: String {
            switch self {
            case .days(let n): "\(n) days"
            case .all: "all"
            }
        }
    }

    /// Items (additions and deletions) per batch.
    public var batchSize = 500
    /// The types to sync; `nil`: every type the store holds and every type the state
    /// follows (a type whose every sample was deleted still sends its deletions). The
    /// engine's `types` gives the store's types; when this is set, the engine reads only
    /// the types that gives (these).
    public var types: [SampleType]?
    public var backfill = Backfill.days(90)
    /// The date window backfill reads at a time, in days.
    public var backfillWindowDays = 7
    /// Attempts of one batch before a run gives up on it for now (it stays in the outbox).
    public var maxAttempts = 6
    /// The first retry waits up to this many seconds, each next one up to twice as long
    /// (full jitter), never more than ``maxBackoff``.
    public var initialBackoff = 1.0
    public var maxBackoff = 60.0
    /// The longest `Retry-After` honoured, in seconds (a longer one ends the run for now).
    public var maxRetryAfter = 3600.0
    /// Seconds one request may take, answer included.
    public var requestTimeout = 30.0
    /// Seconds between syncs in `--watch` when the store does not change.
    public var interval = 3600.0
    /// Upload only on an unmetered network (Wi-Fi, Ethernet).
    public var requiresUnmeteredNetwork = false
    /// Upload only with at least this battery level (0…1) or while charging.
    public var minimumBattery = 0.2
    /// Do not upload in low power mode.
    public var pausesInLowPowerMode = false
    /// zlib level of the batches (1 fastest … 9 smallest).
    public var compressionLevel: Int32 = 6
    /// Sent as `?tz=`: the server counts the person's days in it when they have no home zone yet
    /// (docs/api.md §Home zone).
    public var dayZone = TimeZone.current

    public init() {}

    /// Seed 003's presets. Batch sizes are larger than the seed's 50/100/200 metrics: a
    /// batch here is one request of up to that many samples, and a year of data is
    /// ~300,000 of them (docs/sync.md §Configurations).
    public static func preset(_ name: String) -> SyncConfiguration? {
        var configuration = SyncConfiguration()
        switch name {
        case "conservative":
            configuration.batchSize = 100
            configuration.interval = 2 * 3600
            configuration.requiresUnmeteredNetwork = true
            configuration.minimumBattery = 0.3
            configuration.pausesInLowPowerMode = true
            configuration.maxBackoff = 300
        case "default":
            break
        case "aggressive":
            configuration.batchSize = 2000
            configuration.interval = 15 * 60
            configuration.minimumBattery = 0.1
            configuration.maxAttempts = 10
            configuration.maxBackoff = 30
        default:
            return nil
        }
        return configuration
    }

    public static let presetNames = ["conservative", "default", "aggressive"]
}

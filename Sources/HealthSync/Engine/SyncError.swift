import Foundation

/// Why a sync stopped or could not upload, each with its recovery (docs/sync.md §Errors).
/// Descriptions name what happened and what to do, never a health value.
public struct SyncError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Battery under the configuration's minimum and not charging. Recovery: the batches
        /// wait in the outbox; the next sync on power or above the level sends them.
        case lowBattery(level: Double, minimum: Double)
        /// The configuration wants an unmetered network and there is none. Recovery: wait.
        case wifiRequired
        /// Low power mode with a configuration that pauses in it. Recovery: wait.
        case lowPowerMode
        /// No network at all. Recovery: wait; nothing is lost.
        case offline
        /// A batch failed every attempt of this run (network, timeouts, 5xx, 409, 429).
        /// Recovery: it stays in the outbox and is sent again, byte for byte, next run.
        case uploadFailed(batch: Int64, attempts: Int, lastError: String)
        /// The server refused the token (401). Recovery: enrol again with a new token
        /// (`healthpipe devices enrol`); the outbox and anchors are kept.
        case reauthenticationRequired
        /// Some batches were refused (4xx other than 401) and moved to the dead-letter list
        /// with the server's reason; the rest went through. Recovery: read
        /// `healthpipe sync status`, fix the cause, and re-queue them.
        case partialFailure(deadLetters: Int)
        /// Not enrolled: no device, key or token in the state folder. Recovery: enrol.
        case notEnrolled(String)
        /// The state folder or its database cannot be used. Recovery: as the reason says.
        case state(String)
        /// The server's answer was not what the protocol says. Recovery: retried like a 5xx.
        case invalidResponse(String)
    }

    public let kind: Kind

    public init(_ kind: Kind) { self.kind = kind }

    public var description: String {
        switch kind {
        case .lowBattery(let level, let minimum):
            "battery at \(Int(level * 100))%, under the \(Int(minimum * 100))% this configuration uploads at; "
                + "the batches wait in the outbox"
        case .wifiRequired: "this configuration uploads on Wi-Fi or Ethernet only; the batches wait in the outbox"
        case .lowPowerMode: "low power mode is on and this configuration pauses in it; the batches wait in the outbox"
        case .offline: "no network; the batches wait in the outbox"
        case .uploadFailed(let batch, let attempts, let lastError):
            "batch \(batch) failed \(attempts) attempts (last: \(lastError)); it stays in the outbox and is sent again next run"
        case .reauthenticationRequired:
            "the server refused the token (401): re-authenticate with `healthpipe devices enrol`; nothing queued is lost"
        case .partialFailure(let count):
            "\(count) batch\(count == 1 ? " was" : "es were") refused by the server and moved to the dead letters; "
                + "see `healthpipe sync status`"
        case .notEnrolled(let reason): "not enrolled: \(reason); run `HEALTHPIPE_TOKEN=… healthpipe devices enrol --server URL`"
        case .state(let reason): "sync state: \(reason)"
        case .invalidResponse(let reason): "the server's answer does not follow the protocol: \(reason)"
        }
    }

    public static func == (lhs: SyncError, rhs: SyncError) -> Bool { lhs.kind == rhs.kind }
}

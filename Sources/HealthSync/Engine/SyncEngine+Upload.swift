import Foundation
import HealthCore
import HealthWire

extension SyncEngine {
    /// Sends the outbox, oldest batch first, one at a time, until it is empty. Each batch is
    /// acknowledged (it leaves the outbox and its anchor is saved), retried, or refused for
    /// good (dead letters). Throws the ``SyncError`` that stops the upload: conditions, a
    /// batch that failed every attempt, a refused token.
    public func upload() async throws {
        while !stopRequested(), let batch = try state.nextBatch() {
            try await checkConditions()
            try await send(batch)
        }
    }

    /// The request of `batch`: the same bytes and the same `Idempotency-Key` every time.
    func request(_ batch: OutboxBatch) -> SyncRequest {
        let zone = configuration.dayZone.identifier.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? "UTC"
        return SyncRequest(
            method: "POST", path: "/v1/sync/batches?tz=\(zone)",
            headers: ["Content-Type": "application/json", "Idempotency-Key": batch.batchID.uuidString.lowercased()],
            body: batch.envelope)
    }

    private func send(_ batch: OutboxBatch) async throws {
        var attempt = 0
        while true {
            attempt += 1
            let outcome: UploadOutcome
            do {
                report.bytesSent += batch.envelope.count
                outcome = UploadOutcome(try await transport.send(request(batch)), batch: batch, now: environment.now())
            } catch let error as SyncTransportError {
                outcome = .retry(reason: error.reason, after: nil)
            }
            switch outcome {
            case .acknowledged(let answer):
                try state.acknowledge(batch, at: environment.now())
                report.batchesSent += 1
                report.itemsSent += batch.items
                report.added += answer.added
                report.duplicates += answer.duplicates
                report.deleted += answer.deleted
                onEvent(.acknowledged(sequence: batch.sequence, items: batch.items))
                return
            case .deadLetter(let status, let reason):
                try state.deadLetter(batch, status: status, reason: reason, at: environment.now())
                report.deadLetters += 1
                onEvent(.deadLettered(sequence: batch.sequence, status: status, reason: reason))
                return
            case .reauthenticate:
                throw SyncError(.reauthenticationRequired)
            case .retry(let reason, let retryAfter):
                try state.recordAttempt(batch, error: reason)
                if let retryAfter, retryAfter > configuration.maxRetryAfter {
                    // Saturating: a server's `Retry-After: 1e300` (or `inf`) must not trap.
                    let wait = Int(truncatingSaturating: retryAfter) ?? 0
                    throw SyncError(
                        .uploadFailed(
                            batch: batch.sequence, attempts: attempt,
                            lastError: "\(reason); the server asks to wait \(wait) s"))
                }
                guard attempt < configuration.maxAttempts, !stopRequested() else {
                    throw SyncError(.uploadFailed(batch: batch.sequence, attempts: attempt, lastError: reason))
                }
                let delay = retryAfter ?? backoff(attempt: attempt)
                report.retries += 1
                onEvent(.retrying(sequence: batch.sequence, attempt: attempt, delay: delay, reason: reason))
                try await environment.sleep(delay)
            }
        }
    }

    /// The wait after failed attempt `attempt` (1, 2, …): full jitter, uniformly random up
    /// to `initialBackoff × 2^(attempt−1)`, capped at `maxBackoff`.
    func backoff(attempt: Int) -> Double {
        let ceiling = min(configuration.maxBackoff, configuration.initialBackoff * pow(2, Double(min(attempt - 1, 40))))
        return environment.random(0...ceiling)
    }

    /// Throws when the configuration says not to upload now.
    func checkConditions() async throws {
        let conditions = await environment.conditions()
        if conditions.network == .offline { throw SyncError(.offline) }
        if configuration.requiresUnmeteredNetwork && conditions.network == .metered { throw SyncError(.wifiRequired) }
        if configuration.pausesInLowPowerMode && conditions.isLowPowerMode { throw SyncError(.lowPowerMode) }
        if let level = conditions.batteryLevel, !conditions.isCharging, level < configuration.minimumBattery {
            throw SyncError(.lowBattery(level: level, minimum: configuration.minimumBattery))
        }
    }
}

/// What an answer means for the batch (docs/sync.md §Errors).
enum UploadOutcome {
    case acknowledged(SyncBatchAnswer)
    /// Network errors, timeouts, 408, 409 (the first attempt still running), 429, 5xx and
    /// answers that do not follow the protocol.
    case retry(reason: String, after: Double?)
    case reauthenticate
    /// Any other 4xx: the server will never take this batch.
    case deadLetter(status: Int, reason: String)

    init(_ response: SyncResponse, batch: OutboxBatch, now: Date) {
        let status = response.status
        let detail = response.problemDetail
        switch status {
        case 200..<300:
            guard let answer = try? JSONDecoder().decode(SyncBatchAnswer.self, from: response.body),
                answer.batchID == batch.batchID
            else {
                self = .retry(reason: "HTTP \(status) without the batch's acknowledgement", after: nil)
                return
            }
            self = .acknowledged(answer)
        case 401:
            self = .reauthenticate
        case 408, 409, 425, 429:
            self = .retry(reason: "HTTP \(status)" + (detail.map { ": \($0)" } ?? ""), after: response.retryAfter(now: now))
        case 400..<500:
            self = .deadLetter(status: status, reason: detail ?? "HTTP \(status)")
        default:
            self = .retry(reason: "HTTP \(status)" + (detail.map { ": \($0)" } ?? ""), after: response.retryAfter(now: now))
        }
    }
}

import Foundation
import HealthCore
import HealthServerRecords
import Logging
import ServiceLifecycle

/// The server's imports as a service of its service group: runs the imports uploads hand
/// to the ``ImportRunner`` and, with several servers on one database, claims queued jobs
/// from the shared queue — this server's and others', a dead server's too —
/// ``ImportRunner/Limits/concurrency`` at a time.
///
/// Nothing polls in a loop: the service waits for the runner's doorbells — an upload
/// handed over, a job this server queued — and a claimer that finds the queue empty looks
/// again after `claims.poll` at the latest (another server's job, or a dead server's). At
/// graceful shutdown it takes no more work and returns once the imports under way have
/// ended (each is one transaction: a process stopped mid-import leaves nothing
/// half-written either way). A runner may be run again after a shutdown, and by two
/// services at once (a test driving one application twice): each job is taken once.
struct ImportService: Service {
    /// Where and how often to look for queued jobs.
    struct Claims: Sendable {
        let queue: any SharedImportQueue
        /// Longest wait between two looks at an empty queue when no doorbell rings.
        var poll: Duration = .seconds(1)
        /// Each job's recomputation of days for its user.
        let recompute: @Sendable (_ userID: String) -> ImportRunner.RecomputeDays
    }

    let runner: ImportRunner
    /// `nil`: one server on its own database; uploads hand their jobs over directly.
    let claims: Claims?
    /// At shutdown, how long the imports under way may take to end before the service
    /// returns without them.
    var shutdownGrace: Duration = .seconds(30)

    func run() async throws {
        let (runner, claims) = (runner, claims)
        let stopped = Locked(false)
        let ended = Doorbell()
        // The work in a task of its own: at shutdown the service waits for the imports under
        // way for `shutdownGrace` at most (an import cannot be stopped halfway).
        let seenEnd = ended.rings
        let work = Task {
            await runner.work(claims, until: stopped)
            ended.ring()
        }
        // Until the service group shuts down gracefully, or the task is cancelled.
        try? await gracefulShutdown()
        stopped.withLock { $0 = true }
        runner.arrivals.ring()
        runner.doorbell.ring()
        await ended.wait(after: seenEnd, atMost: shutdownGrace)
        // Past the grace (or cancelled): the imports still under way end with the process.
        work.cancel()
    }
}

extension ImportRunner {
    /// Runs the imports handed over and, with `claims`, claims jobs from the shared queue,
    /// until `stopped`; returns once the imports started have ended. Every import handed
    /// over before `stopped` is started: the HTTP server stops before this service does.
    func work(_ claims: ImportService.Claims?, until stopped: Locked<Bool>) async {
        await withDiscardingTaskGroup { group in
            if let claims {
                for _ in 0..<limits.concurrency {
                    group.addTask { await self.claimJobs(claims, until: stopped) }
                }
            }
            while !Task.isCancelled {
                let seen = arrivals.rings
                for work in takeHandedOver() {
                    group.addTask {
                        await self.run(
                            work.job, file: work.file, userID: work.userID, zone: work.zone, recompute: work.recompute)
                    }
                }
                if stopped.withLock({ $0 }) { break }
                // An upload rings; the bound is only a safety net.
                await arrivals.wait(after: seen, atMost: .seconds(60))
            }
        }
    }

    /// One claimer: a job at a time, until `stopped` or the task is cancelled. A user whose
    /// job this server is importing is skipped: their next job waits for another claim, not
    /// in one of this server's.
    func claimJobs(_ claims: ImportService.Claims, until stopped: Locked<Bool>) async {
        let (logger, folder, claimedHere) = (logger, repositories.uploadFolder, claimedHere)
        while !Task.isCancelled {
            let seen = doorbell.rings
            if stopped.withLock({ $0 }) { return }
            do {
                let busy = claimedHere.withLock { Set($0.keys) }
                let claimed = try await claims.queue.claimNextImport(into: folder, skippingUsers: busy) { claimed in
                    let userID = claimed.userID
                    claimedHere.withLock { $0[userID, default: 0] += 1 }
                    // "": the upload named no zone (the person's home zone decides).
                    let zone = claimed.zone.isEmpty ? nil : TimeZone(identifier: claimed.zone)
                    await self.run(
                        claimed.job, file: claimed.file, userID: userID, zone: zone,
                        recompute: claims.recompute(userID))
                    claimedHere.withLock { counts in
                        let left = counts[userID, default: 1] - 1
                        counts[userID] = left > 0 ? left : nil
                    }
                }
                if claimed { continue }
            } catch is CancellationError {
                return
            } catch {
                logger.warning("import queue: \(type(of: error)); trying again")
            }
            await doorbell.wait(after: seen, atMost: claims.poll)
        }
    }
}

/// Wakes the tasks waiting at it. It counts its rings: a task reads ``rings`` before it
/// looks for work and waits ``wait(after:atMost:)`` past that count, so a ring between the
/// look and the wait is never lost, whoever else waits at the same bell.
final class Doorbell: Sendable {
    private struct State {
        var rings: UInt64 = 0
        var waiting: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var next: UInt64 = 0
    }

    private let state = Locked(State())

    /// How many times it has rung.
    var rings: UInt64 { state.withLock { $0.rings } }

    /// Ends every wait in progress, and any wait past a count before this ring.
    func ring() {
        let waiting = state.withLock { state in
            defer { state.waiting = [:] }
            state.rings &+= 1
            return state.waiting.values
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Returns once it has rung more than `seen` times (at once if it has already), after
    /// `timeout`, or when the task is cancelled, whichever comes first.
    func wait(after seen: UInt64, atMost timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: timeout) }
            group.addTask { await self.waitForRing(after: seen) }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitForRing(after seen: UInt64) async {
        let id = state.withLock { state in
            defer { state.next &+= 1 }
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.rings != seen || Task.isCancelled { return true }
                    state.waiting[id] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiting.removeValue(forKey: id) }?.resume()
        }
    }
}

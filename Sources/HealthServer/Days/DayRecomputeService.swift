import Foundation
import HealthCore
import HealthServerRecords
import Logging
import ServiceLifecycle

/// The people whose days a write left dirty, waiting for ``DayRecomputeService``: each once,
/// however many writes marked them meanwhile, in the order of their first mark.
final class DayQueue: Sendable {
    private let pending = Locked<[String]>([])
    /// Rung by each ``add(_:)``.
    let doorbell = Doorbell()

    /// `userID`'s days are dirty (their spans were marked in the write's transaction).
    func add(_ userID: String) {
        pending.withLock { if !$0.contains(userID) { $0.append(userID) } }
        doorbell.ring()
    }

    /// Everyone waiting, in order; the queue is empty after.
    func take() -> [String] { take(atMost: .max) }

    /// The first `count` waiting, in order; the others stay.
    func take(atMost count: Int) -> [String] {
        pending.withLock { users in
            let taken = Array(users.prefix(max(0, count)))
            users.removeFirst(taken.count)
            return taken
        }
    }
}

/// Computes the days of writes off the request path (issue 37 §4): ingest, sync batches and
/// deletions answer once their samples commit — their spans marked dirty in the same
/// transaction — and this service of the server's service group computes those days
/// afterwards, a person at a time, the spans of many writes at once. A read of stored days
/// never waits for it and is never stale: it computes what is still dirty first
/// (``DayRecomputer/computeDirtyDaysBeforeReading(userID:)``), under the same per-person
/// lock, so each day is computed once whichever comes first.
///
/// `concurrency` people at a time (each person's computations are serialised by their days
/// lock anyway): by default half the cores, at least one, so that requests keep the other
/// half of the cooperative pool. A person whose days are still queued behind another's long
/// computation loses nothing: a read of their days computes them first.
///
/// At a graceful shutdown the computations under way end and the service returns (at once
/// when it is cancelled); days of people still waiting stay dirty in their stores (the
/// spans are stored, not kept in memory) and the service queues them when a server starts
/// again (``DayRecomputer/queueLeftovers(into:)``), unless a read or write computed them first.
struct DayRecomputeService: Service {
    let queue: DayQueue
    let recomputer: DayRecomputer
    var concurrency = max(1, ProcessInfo.processInfo.activeProcessorCount / 2)

    func run() async throws {
        let (queue, recomputer, concurrency) = (queue, recomputer, max(1, concurrency))
        let stopped = Locked(false)
        let work = Task {
            await recomputer.queueLeftovers(into: queue)
            while !Task.isCancelled {
                let seen = queue.doorbell.rings
                if stopped.withLock({ $0 }) { return }
                let waiting = queue.take()
                if waiting.isEmpty {
                    // A write rings; the bound is only a safety net.
                    await queue.doorbell.wait(after: seen, atMost: .seconds(60))
                    continue
                }
                // `concurrency` at a time; at a shutdown, no one more is started.
                await withTaskGroup(of: Void.self) { group in
                    for (index, userID) in waiting.enumerated() {
                        if stopped.withLock({ $0 }) { break }
                        if index >= concurrency { await group.next() }
                        group.addTask { await recomputer.computeQueuedDays(userID: userID) }
                    }
                }
            }
        }
        try? await gracefulShutdown()
        stopped.withLock { $0 = true }
        queue.doorbell.ring()
        await withTaskCancellationHandler {
            await work.value
        } onCancel: {
            work.cancel()
        }
    }
}

extension DayRecomputer {
    /// Queues the people whose stores hold dirty spans when the service starts: writes a
    /// stopped server answered without computing their days (a crash, a kill, a shutdown
    /// with people still queued) and imports it failed at its start. Without it they would
    /// wait for their next read or write.
    func queueLeftovers(into queue: DayQueue) async {
        do {
            for userID in try await repositories.healthStores.usersWithDirtySpans() { queue.add(userID) }
        } catch {
            logger.error(
                "people with days left to compute not listed; their next read computes them",
                metadata: ["error.type": "\(type(of: error))"])
        }
    }

    /// The days a write left dirty, computed by ``DayRecomputeService`` under the person's
    /// lock; a failure is logged (the spans stay dirty for the next read), a person deleted
    /// meanwhile is nothing to compute.
    func computeQueuedDays(userID: String) async {
        do {
            _ = try await repositories.writing(userID) { database in
                try await computeDirtyDays(userID: userID, database: database)
            }
        } catch {
            // Deleted meanwhile (here, or on another server of the database): their days went
            // with them.
            if let problem = await repositories.explaining(error, userID: userID) as? Problem,
                problem.status == .unauthorized
            {
                return
            }
            logger.error(
                "days not computed after a write; the next read computes them",
                metadata: ["user": "\(userID)", "error.type": "\(type(of: error))"])
        }
    }
}

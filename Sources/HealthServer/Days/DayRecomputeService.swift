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
    func take() -> [String] {
        pending.withLock { users in
            defer { users = [] }
            return users
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
/// At a graceful shutdown the computation under way ends and the service returns; days of
/// people still waiting stay dirty in their stores and are computed by the next read or
/// write (the spans are stored, not kept in memory).
struct DayRecomputeService: Service {
    let queue: DayQueue
    let recomputer: DayRecomputer

    func run() async throws {
        let (queue, recomputer) = (queue, recomputer)
        let stopped = Locked(false)
        let work = Task {
            while !Task.isCancelled {
                let seen = queue.doorbell.rings
                for userID in queue.take() {
                    if stopped.withLock({ $0 }) { return }
                    await recomputer.computeQueuedDays(userID: userID)
                }
                if stopped.withLock({ $0 }) { return }
                // A write rings; the bound is only a safety net.
                await queue.doorbell.wait(after: seen, atMost: .seconds(60))
            }
        }
        try? await gracefulShutdown()
        stopped.withLock { $0 = true }
        queue.doorbell.ring()
        await work.value
    }
}

extension DayRecomputer {
    /// The days a write left dirty, computed by ``DayRecomputeService`` under the person's
    /// lock; a failure is logged (the spans stay dirty for the next read), a person deleted
    /// meanwhile is nothing to compute.
    func computeQueuedDays(userID: String) async {
        do {
            _ = try await repositories.writing(userID) { database in
                try await computeDirtyDays(userID: userID, database: database)
            }
        } catch let problem as Problem where problem.status == .unauthorized {
            // Deleted meanwhile: their days went with them.
        } catch {
            logger.error(
                "days not computed after a write; the next read computes them",
                metadata: ["user": "\(userID)", "error.type": "\(type(of: error))"])
        }
    }
}

import Foundation
import HealthCore

extension SyncEngine {
    /// Syncs now, then each time `changes` tells of a commit to the store or the
    /// configuration's interval passes, until ``stopRequested`` says so (checked between
    /// batches: the batch in flight is finished) or the task is cancelled.
    ///
    /// A ``SyncError`` that means "not now" — conditions, a batch that failed every
    /// attempt — goes to `onError` and is waited out until the next wake-up; a refused
    /// token (``SyncError/Kind/reauthenticationRequired``) ends the watch.
    public func watch(changes: ChangeNotices?, onError: @escaping @Sendable (SyncError) -> Void) async throws {
        let (wakeups, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        wakeup = continuation
        let listener = Task {
            guard let changes else { return }
            for await _ in changes { continuation.yield() }
        }
        let ticker = Task { [environment, configuration] in
            while !Task.isCancelled {
                try await environment.sleep(configuration.interval)
                continuation.yield()
            }
        }
        defer {
            listener.cancel()
            ticker.cancel()
            continuation.finish()
            wakeup = nil
        }
        continuation.yield()
        for await _ in wakeups {
            if stopRequested() || Task.isCancelled { return }
            do {
                try await runOnce()
            } catch let error as SyncError {
                if case .reauthenticationRequired = error.kind { throw error }
                onError(error)
            }
            if stopRequested() { return }
        }
    }

    /// Wakes a ``watch(changes:onError:)`` now: to sync, or to notice a stop request.
    public func wake() {
        wakeup?.yield()
    }
}

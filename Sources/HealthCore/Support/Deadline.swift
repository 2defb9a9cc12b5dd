import Foundation

/// Runs work under a deadline that holds even when the work ignores cancellation: the
/// caller resumes at the deadline at the latest; the work is cancelled and left to finish
/// on its own.
///
/// ```swift
/// let weather = try await Deadline.run(seconds: 1.5) { try await client.currentWeather(at: here) }
/// ```
public enum Deadline {
    /// The deadline passed before the work finished.
    public struct Expired: Error, CustomStringConvertible {
        public let seconds: Double
        public var description: String { "timed out after \(seconds) s" }
    }

    /// The work's result, or ``Expired`` after `seconds` (fractions count: not rounded).
    public static func run<Value: Sendable>(
        seconds: Double, _ work: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let gate = Gate<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                gate.install(continuation)
                let worker = Task {
                    do { gate.finish(.success(try await work())) } catch { gate.finish(.failure(error)) }
                }
                // The timer runs on Dispatch, not on the cooperative pool, so busy async work
                // cannot delay it; after the work finishes first it fires as a no-op.
                DispatchQueue.global().asyncAfter(deadline: .now() + max(0, seconds)) {
                    if gate.finish(.failure(Expired(seconds: seconds))) { worker.cancel() }
                }
                gate.whenFinished { worker.cancel() }
            }
        } onCancel: {
            gate.finish(.failure(CancellationError()))
        }
    }

    /// Resumes the continuation exactly once, whichever side gets there first.
    private final class Gate<Value: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Value, any Error>?
            var pending: Result<Value, any Error>?
            var done = false
            var onFinish: (@Sendable () -> Void)?
        }

        private let state = Locked(State())

        /// Runs `cleanup` when the gate finishes, or now if it already has.
        func whenFinished(_ cleanup: @escaping @Sendable () -> Void) {
            let finished = state.withLock { state in
                state.onFinish = cleanup
                return state.done
            }
            if finished { cleanup() }
        }

        func install(_ continuation: CheckedContinuation<Value, any Error>) {
            let early = state.withLock { state in
                state.continuation = continuation
                return state.pending
            }
            if let early { continuation.resume(with: early) }
        }

        /// `true` when this call was the one that finished.
        @discardableResult
        func finish(_ result: Result<Value, any Error>) -> Bool {
            let (won, continuation, cleanup) = state.withLock { state in
                guard !state.done else {
                    return (false, CheckedContinuation<Value, any Error>?.none, (@Sendable () -> Void)?.none)
                }
                state.done = true
                if state.continuation == nil { state.pending = result }
                let taken = state.continuation
                state.continuation = nil
                return (true, taken, state.onFinish)
            }
            continuation?.resume(with: result)
            if won { cleanup?() }
            return won
        }
    }
}

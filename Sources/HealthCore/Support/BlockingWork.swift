import Foundation

/// Runs long synchronous work — an import, generating an export — on a thread of its own,
/// and awaits it without holding a thread of Swift's cooperative pool.
///
/// The cooperative pool has one thread per core: two on a two-core machine. Synchronous
/// work of several seconds called straight from `async` code holds one of them for that
/// long, and two such calls stall every other task in the process — deadlines, timers,
/// request handlers. (The server has its own `NIOThreadPool` for this; this is for callers
/// without one: the command line, the tests, embedding apps.)
///
/// ```swift
/// let summary = try await BlockingWork.run("import") { try importer.run(path: path) }
/// ```
package enum BlockingWork {
    /// The result of `work`, run on a new thread named `name`; its error is rethrown.
    /// Cancelling the awaiting task does not stop `work`: it has no way to be told.
    package static func run<Value: Sendable>(
        _ name: String, _ work: @escaping @Sendable () throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try work() })
            }
            thread.name = name
            // Imports recurse little, but parsers and SQLite like a roomy stack.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// The reverse: waits on the calling thread for async `work`. Only for a thread that
    /// may block — one of ``run(_:_:)``'s, a Dispatch or `NIOThreadPool` worker — never a
    /// thread of the cooperative pool or an event loop (`work` may need them).
    package static func wait<Value: Sendable>(for work: @escaping @Sendable () async throws -> Value) throws -> Value {
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<Value, any Error>?>(nil)
        Task {
            let result = await Result(catching: work)
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }
}

extension Result where Failure == any Error {
    /// The outcome of async `body`.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}

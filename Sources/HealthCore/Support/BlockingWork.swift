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
}

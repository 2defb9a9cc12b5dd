/// Mutual exclusion per key for async work: `withLock(key)` bodies with the same key run
/// one at a time, in the order they asked; other keys do not wait.
///
/// ```swift
/// try await KeyedMutex.shared.withLock("alice") { try await recomputeDays() }
/// ```
public actor KeyedMutex {
    /// One for the process.
    public static let shared = KeyedMutex()

    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    private var held: Set<String> = []

    public init() {}

    private func acquire(_ key: String) async {
        if held.insert(key).inserted { return }
        await withCheckedContinuation { waiting[key, default: []].append($0) }
    }

    private func release(_ key: String) {
        if var queue = waiting[key], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[key] = queue.isEmpty ? nil : queue
            next.resume()  // the key stays held, handed to the next in line
        } else {
            held.remove(key)
        }
    }

    /// Runs `body` holding `key`, released however it ends.
    public nonisolated func withLock<T: Sendable>(_ key: String, _ body: @Sendable () async throws -> T) async throws -> T {
        await acquire(key)
        do {
            let result = try await body()
            await release(key)
            return result
        } catch {
            await release(key)
            throw error
        }
    }
}

/// At most `count` bodies at once; the others wait, in the order they asked (an async
/// semaphore: a waiter holds no thread).
///
/// ```swift
/// let slots = ImportSlots(2)
/// await slots.withSlot { await importOne() }
/// ```
actor ImportSlots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// `count` slots (at least one).
    init(_ count: Int) {
        free = max(1, count)
    }

    private func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()  // the slot goes to the next in line
        }
    }

    /// Runs `body` in a slot, released when it returns.
    nonisolated func withSlot<T: Sendable>(_ body: @Sendable () async -> T) async -> T {
        await acquire()
        let result = await body()
        await release()
        return result
    }
}

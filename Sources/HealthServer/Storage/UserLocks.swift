/// Per user, a lock that writers share and a deletion holds alone (issue 32, H1): a
/// deletion waits for the writers inside, and from the moment it asks no new writer of
/// that user starts until it has ended. Writers of other users never wait.
///
/// In this process only: PostgreSQL adds the same rule inside its transactions (the
/// user's row `FOR KEY SHARE` in every write, `FOR UPDATE` in the deletion), which covers
/// other servers and the CLI; a SQLite data folder has one server (``DataFolderLock``).
///
/// Never take the shared lock of a user twice in one task: a deletion asking in between
/// would wait for the outer holder, and the inner one for the deletion.
public actor UserLocks {
    private struct State {
        var writers = 0
        var deleting = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private var states: [String: State] = [:]

    public init() {}

    /// Suspends until the next change of `id`'s state.
    private func park(_ id: String) async {
        await withCheckedContinuation { continuation in
            states[id, default: State()].waiters.append(continuation)
        }
    }

    /// Wakes every waiter of `id` (each checks its condition again); drops an idle entry.
    private func wakeAll(_ id: String) {
        let waiters = states[id]?.waiters ?? []
        states[id]?.waiters = []
        for waiter in waiters { waiter.resume() }
        if let state = states[id], state.writers == 0, !state.deleting, state.waiters.isEmpty { states[id] = nil }
    }

    func lockShared(_ id: String) async {
        while states[id]?.deleting == true { await park(id) }
        states[id, default: State()].writers += 1
    }

    func unlockShared(_ id: String) {
        guard var state = states[id], state.writers > 0 else { return }
        state.writers -= 1
        states[id] = state
        if state.writers == 0 { wakeAll(id) }
    }

    /// Marks a deletion of `id` pending (after any other deletion of `id` has ended):
    /// from here new writers wait. Writers already inside go on; see ``awaitWritersGone(_:)``.
    public func beginExclusive(_ id: String) async {
        while states[id]?.deleting == true { await park(id) }
        states[id, default: State()].deleting = true
    }

    /// Returns once no writer of `id` is inside (after ``beginExclusive(_:)``).
    public func awaitWritersGone(_ id: String) async {
        while (states[id]?.writers ?? 0) > 0 { await park(id) }
    }

    /// Ends the deletion of `id`: the writers waiting go on.
    public func unlockExclusive(_ id: String) {
        states[id]?.deleting = false
        wakeAll(id)
    }

    /// Runs `body` under the shared lock of `id`, released on every path (a thrown
    /// `CancellationError` included).
    public nonisolated func shared<T>(_ id: String, _ body: () async throws -> T) async throws -> T {
        await lockShared(id)
        do {
            let value = try await body()
            await unlockShared(id)
            return value
        } catch {
            await unlockShared(id)
            throw error
        }
    }
}

import Foundation

/// "Samples of these types changed": what an observer is told after a committed write
/// (`HKObserverQuery` says only *that* a type changed; follow the change feed to learn what).
public struct ChangeNotice: Hashable, Sendable {
    /// The types added to or deleted from (of those observed).
    public var types: Set<SampleType>
    /// The store's last anchor after the write.
    public var lastAnchor: QueryAnchor

    public init(types: Set<SampleType>, lastAnchor: QueryAnchor) {
        self.types = types
        self.lastAnchor = lastAnchor
    }

    /// Two notices not yet taken, as one.
    func merged(with other: ChangeNotice) -> ChangeNotice {
        ChangeNotice(types: types.union(other.types), lastAnchor: max(lastAnchor, other.lastAnchor))
    }
}

/// The notices of one observer, as an async sequence. Writers never wait for it: a notice
/// the observer has not taken yet is merged with the next one (the types united, the newest
/// anchor kept), so the buffer holds one notice whatever the observer's pace. Ends when the
/// iterating task is cancelled or the store stops it.
public final class ChangeNotices: AsyncSequence, Sendable {
    public typealias Element = ChangeNotice

    private struct State {
        var pending: ChangeNotice?
        var waiter: CheckedContinuation<ChangeNotice?, Never>?
        var finished = false
    }

    /// The observed types (`nil`: all).
    public let types: Set<SampleType>?
    private let state = Locked(State())
    private let onTermination: @Sendable () -> Void

    /// A sequence fed by ``deliver(_:)``; `onTermination` runs once when it ends.
    public init(types: Set<SampleType>?, onTermination: @escaping @Sendable () -> Void = {}) {
        self.types = types
        self.onTermination = onTermination
    }

    /// Hands a notice to the observer if it concerns an observed type. Never blocks.
    public func deliver(_ notice: ChangeNotice) {
        let relevant = types.map { notice.types.intersection($0) } ?? notice.types
        guard !relevant.isEmpty else { return }
        let filtered = ChangeNotice(types: relevant, lastAnchor: notice.lastAnchor)
        let waiter = state.withLock { state -> CheckedContinuation<ChangeNotice?, Never>? in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.pending = state.pending.map { $0.merged(with: filtered) } ?? filtered
            return nil
        }
        waiter?.resume(returning: filtered)
    }

    /// The notice waiting to be taken, if any, without waiting: for an observer that looks
    /// when it needs to (a cache before it answers) instead of iterating. Don't mix with
    /// iterating the same sequence: a waiting iterator takes a notice before it is pending.
    public func takePending() -> ChangeNotice? {
        state.withLock { state in
            defer { state.pending = nil }
            return state.pending
        }
    }

    deinit {
        // Dropped without being finished: leave the store's observers (and stop its polling).
        if !state.withLock({ $0.finished }) { onTermination() }
    }

    /// Ends the sequence: a waiting `next()` returns `nil`.
    public func finish() {
        let (waiter, first) = state.withLock { state in
            let first = !state.finished
            state.finished = true
            defer { state.waiter = nil }
            return (state.waiter, first)
        }
        waiter?.resume(returning: nil)
        if first { onTermination() }
    }

    fileprivate func next() async -> ChangeNotice? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> ChangeNotice?? in
                    if let pending = state.pending {
                        state.pending = nil
                        return .some(pending)
                    }
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            finish()
        }
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let notices: ChangeNotices
        public mutating func next() async -> ChangeNotice? { await notices.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(notices: self) }
}

/// The observers of one store. It holds them weakly: an observer whose sequence nobody
/// holds any more leaves by itself.
public final class ChangeObservers: Sendable {
    private struct Weak {
        weak var notices: ChangeNotices?
    }

    private let observers = Locked<[ObjectIdentifier: Weak]>([:])

    public init() {}

    /// A new observer of `types`; `onCountChange` is told the number of observers after it
    /// is added and after it ends.
    public func add(_ types: Set<SampleType>?, onCountChange: @escaping @Sendable (Int) -> Void = { _ in }) -> ChangeNotices {
        let box = Locked<ObjectIdentifier?>(nil)
        let notices = ChangeNotices(types: types) { [weak self] in
            guard let self, let id = box.withLock({ $0 }) else { return }
            let count = observers.withLock { observers in
                observers[id] = nil
                return observers.count
            }
            onCountChange(count)
        }
        let id = ObjectIdentifier(notices)
        box.withLock { $0 = id }
        let count = observers.withLock { observers in
            observers[id] = Weak(notices: notices)
            return observers.count
        }
        onCountChange(count)
        return notices
    }

    /// Tells every observer of a changed type.
    public func notify(_ notice: ChangeNotice) {
        guard !notice.types.isEmpty else { return }
        for observer in observers.withLock({ $0.values.compactMap(\.notices) }) { observer.deliver(notice) }
    }

    /// The number of observers.
    public var count: Int { observers.withLock { $0.count } }

    /// Ends every observer's sequence.
    public func finishAll() {
        for observer in observers.withLock({ $0.values.compactMap(\.notices) }) { observer.finish() }
    }
}

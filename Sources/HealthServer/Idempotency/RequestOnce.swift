import Foundation
import HealthCore
import HealthServerRecords

/// The server's one policy for requests that must not run twice: a request named by an
/// `Idempotency-Key` runs once and is replayed after (for ``lifetime``), and work that must
/// not overlap — a key's first run, one device's sync batch — holds a slot while it runs.
/// Transport-free: it answers with the work's bytes or a ``Refusal``; the HTTP layer says
/// what each means (issue 34 §3).
struct RequestOnce: Sendable {
    /// Why a request was not run.
    enum Refusal: Error, Equatable {
        /// Another request holds the slot (the same key's first run, or the same device's batch).
        case inProgress
        /// The key was used before with another body.
        case reusedWithAnotherBody
    }

    /// A request's answer: run now, or the one remembered from its first run.
    enum Answer: Equatable {
        case ran(Data)
        case replayed(RememberedResponse)
    }

    /// How long a key's answer is replayed (docs/api.md).
    static let lifetime: TimeInterval = 24 * 3600

    let remembered: any IdempotencyRepository
    let slots: any InFlightSlots
    let clock: @Sendable () -> Date
    /// The same steps in one round trip before the work and one after, when the answers and
    /// the slots are one store that can (``ServerRepositories/onceInOneStatement``).
    var inOneStatement: (any OnceInOneStatement)? = nil

    /// Runs `work` once for (`userID`, `key`): the remembered answer when the key was used
    /// with the same body (`requestHash`) within ``lifetime``; ``Refusal/reusedWithAnotherBody``
    /// for another body; ``Refusal/inProgress`` while the key's first run is still running.
    /// The answer is looked up again once the key's slot is taken, so two requests racing
    /// with one key run it once (finding L1 of issue 32). An answer is remembered only when
    /// `work` succeeds.
    func run(userID: String, key: String, requestHash: Data, _ work: () async throws -> Data) async throws -> Answer {
        let since = clock().addingTimeInterval(-Self.lifetime)
        if let store = inOneStatement {
            return try await run(in: store, userID: userID, key: key, since: since, requestHash: requestHash, work)
        }
        if let answer = try await remembered.remembered(userID: userID, key: key, since: since) {
            return try Self.replay(answer, requestHash)
        }
        return try await exclusively(Self.slot(userID: userID, key: key)) {
            // Another request with the key may have finished between the look-up and the slot.
            if let answer = try await remembered.remembered(userID: userID, key: key, since: since) {
                return try Self.replay(answer, requestHash)
            }
            let data = try await work()
            try await remembered.remember(
                userID: userID, key: key, response: RememberedResponse(requestHash: requestHash, status: 200, body: data),
                at: clock())
            return .ran(data)
        }
    }

    /// ``run(userID:key:requestHash:_:)`` with the slot taken and the answer looked up in
    /// one statement, and the answer remembered and the slot given back in another.
    private func run(
        in store: any OnceInOneStatement, userID: String, key: String, since: Date, requestHash: Data,
        _ work: () async throws -> Data
    ) async throws -> Answer {
        let slot = Self.slot(userID: userID, key: key)
        switch try await store.beginOnce(slot: slot, userID: userID, key: key, since: since) {
        case .remembered(let answer): return try Self.replay(answer, requestHash)
        case .held: throw Refusal.inProgress
        case .taken: break
        }
        do {
            let data = try await work()
            try await store.remember(
                userID: userID, key: key, response: RememberedResponse(requestHash: requestHash, status: 200, body: data),
                at: clock(), ending: slot)
            return .ran(data)
        } catch {
            await slots.end(slot)
            throw error
        }
    }

    /// The in-flight slot of (`userID`, `key`): the same in both ways of running, so servers
    /// that run them differently on one database still exclude each other.
    static func slot(userID: String, key: String) -> String { userID + "\u{0}" + key }

    /// Runs `work` holding `slot`, given back however `work` ends; ``Refusal/inProgress``
    /// when another request holds it.
    func exclusively<T>(_ slot: String, _ work: () async throws -> T) async throws -> T {
        guard try await slots.begin(slot) else { throw Refusal.inProgress }
        do {
            let result = try await work()
            await slots.end(slot)
            return result
        } catch {
            await slots.end(slot)
            throw error
        }
    }

    private static func replay(_ answer: RememberedResponse, _ requestHash: Data) throws -> Answer {
        guard answer.requestHash == requestHash else { throw Refusal.reusedWithAnotherBody }
        return .replayed(answer)
    }
}

/// Slots held in this process: enough for one server on its database.
public final class LocalInFlightSlots: InFlightSlots {
    private let keys = Locked<Set<String>>([])

    public init() {}

    public func begin(_ slot: String) -> Bool { keys.withLock { $0.insert(slot).inserted } }

    public func end(_ slot: String) { _ = keys.withLock { $0.remove(slot) } }
}

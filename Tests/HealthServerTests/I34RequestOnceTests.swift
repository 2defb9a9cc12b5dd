import Foundation
import HealthCore
import Testing

@testable import HealthServer
@testable import HealthServerRecords
@testable import HealthServerStorage

/// Issue 34 §3: idempotency keys and in-flight slots are one policy object, `RequestOnce`,
/// tested here without HTTP (the routes' answers for it are pinned by L1L2IdempotencyTests).
@Suite struct I34RequestOnceTests {
    /// Answers remembered in memory.
    final class Memory: IdempotencyRepository {
        let answers = Locked<[String: (RememberedResponse, Date)]>([:])
        func remembered(userID: String, key: String, since: Date) -> RememberedResponse? {
            answers.withLock { $0[userID + "|" + key] }.flatMap { $0.1 >= since ? $0.0 : nil }
        }
        func remember(userID: String, key: String, response: RememberedResponse, at: Date) {
            answers.withLock { $0[userID + "|" + key] = (response, at) }
        }
    }

    let now = Locked(Date(timeIntervalSince1970: 1_750_000_000))
    let memory = Memory()
    let slots = LocalInFlightSlots()
    var once: RequestOnce {
        let now = now
        return RequestOnce(remembered: memory, slots: slots, clock: { now.withLock { $0 } })
    }
    let runs = Locked(0)

    func work(_ text: String) -> () async throws -> Data {
        { [runs] in
            runs.withLock { $0 += 1 }
            return Data(text.utf8)
        }
    }

    @Test func aKeyRunsOnceThenReplaysItsAnswer() async throws {
        let hash = Data([1, 2, 3])
        #expect(try await once.run(userID: "u", key: "k", requestHash: hash, work("first")) == .ran(Data("first".utf8)))
        let again = try await once.run(userID: "u", key: "k", requestHash: hash, work("second"))
        #expect(again == .replayed(RememberedResponse(requestHash: hash, status: 200, body: Data("first".utf8))))
        #expect(runs.withLock { $0 } == 1)
        // Another user's key of the same name is theirs.
        #expect(try await once.run(userID: "v", key: "k", requestHash: hash, work("v")) == .ran(Data("v".utf8)))
    }

    @Test func aKeyWithAnotherBodyIsRefused() async throws {
        _ = try await once.run(userID: "u", key: "k", requestHash: Data([1]), work("first"))
        await #expect(throws: RequestOnce.Refusal.reusedWithAnotherBody) {
            try await once.run(userID: "u", key: "k", requestHash: Data([2]), work("second"))
        }
        #expect(runs.withLock { $0 } == 1)
    }

    @Test func aKeyStillRunningIsInProgress() async throws {
        try await once.exclusively("u\u{0}k") {
            await #expect(throws: RequestOnce.Refusal.inProgress) {
                try await once.run(userID: "u", key: "k", requestHash: Data([1]), work("second"))
            }
        }
        // The slot is given back: the key runs now.
        #expect(try await once.run(userID: "u", key: "k", requestHash: Data([1]), work("now")) == .ran(Data("now".utf8)))
    }

    /// A failed run is not remembered and gives its slot back: the same key runs again.
    @Test func aFailedRunIsNotRemembered() async throws {
        struct Broken: Error {}
        await #expect(throws: Broken.self) {
            try await once.run(userID: "u", key: "k", requestHash: Data([1])) { throw Broken() }
        }
        #expect(try await once.run(userID: "u", key: "k", requestHash: Data([1]), work("ok")) == .ran(Data("ok".utf8)))
        #expect(try await slots.begin("u\u{0}k"))
    }

    /// After the key's lifetime (24 h) the same key is a new request.
    @Test func aKeyIsForgottenAfterItsLifetime() async throws {
        _ = try await once.run(userID: "u", key: "k", requestHash: Data([1]), work("first"))
        now.withLock { $0 += RequestOnce.lifetime + 1 }
        #expect(try await once.run(userID: "u", key: "k", requestHash: Data([2]), work("later")) == .ran(Data("later".utf8)))
        #expect(runs.withLock { $0 } == 2)
    }
}

import Foundation
import HealthCore
import HealthSync
import HealthWire
import Testing

/// The engine as a state machine: scripted answers, a clock that moves only when the engine
/// waits, an in-memory store. No network, no sleeping.
@Suite struct SyncEngineTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func engine(
        _ store: InMemoryHealthStore, _ state: SyncState, _ transport: ScriptedTransport, clock: TestClock,
        configure: (inout SyncConfiguration) -> Void = { _ in }, conditions: DeviceConditions = DeviceConditions(),
        events: EventLog? = nil
    ) -> SyncEngine {
        var configuration = SyncConfiguration()
        configuration.batchSize = 10
        configure(&configuration)
        return SyncEngine(
            source: store, state: state, transport: transport, configuration: configuration,
            environment: clock.environment(conditions: conditions), types: { [.stepCount] },
            onEvent: { event in events?.append(event) })
    }

    @Test func retriesWaitWithFullJitterAndHonourRetryAfter() async throws {
        let store = InMemoryHealthStore()
        let state = try enrolledState()
        let clock = TestClock(Self.now)
        let transport = ScriptedTransport()
        let dateHeader = "Fri, 15 Jan 2027 08:00:30 GMT"  // 30 s after `now` plus the waits so far
        transport.append([
            .fail(SyncTransportError(.connectionLost, "connection reset")),
            transport.problem(500, "Internal error"),
            transport.problem(429, "Too many requests", headers: ["Retry-After": "7"]),
            transport.problem(409, "Request in progress"),
            transport.problem(503, "Not ready", headers: ["Retry-After": dateHeader]),
        ])
        let engine = Self.engine(store, state, transport, clock: clock)
        try await engine.read()  // starts following: nothing to backfill yet
        try await store.add(steps(5, endingAt: Self.now, spacing: 600))
        let report = try await engine.runOnce()
        // Full jitter (the test's randomness takes half the ceiling of 1 s, 2 s); the server's
        // 7 s; half of 8 s; then the date: 30 s after start less the 12.5 s waited so far.
        #expect(clock.sleeps == [0.5, 1, 7, 4, 17.5])
        #expect(report.retries == 5 && report.batchesSent == 1 && report.itemsSent == 5)
        let bodies = Set(transport.requests.map(\.body))
        let keys = Set(transport.requests.map { $0.headers["Idempotency-Key"] })
        #expect(transport.requests.count == 6 && bodies.count == 1 && keys.count == 1)
        #expect(report.bytesSent == 6 * (transport.requests[0].body?.count ?? 0))
        #expect(try state.outbox().isEmpty)
    }

    @Test func aRefusedBatchIsDeadLetteredWithItsReasonAndTheNextGoesOn() async throws {
        let store = InMemoryHealthStore()
        let state = try enrolledState()
        let clock = TestClock(Self.now)
        let transport = ScriptedTransport()
        transport.append([transport.problem(422, "sequence 1 is not after 4, the last this device sent")])
        let events = EventLog()
        let engine = Self.engine(store, state, transport, clock: clock, events: events)
        try await engine.read()
        try await store.add(steps(15, endingAt: Self.now, spacing: 600))
        let report = try await engine.runOnce()
        #expect(report.deadLetters == 1 && report.batchesSent == 1 && report.itemsSent == 5)
        let dead = try state.deadLetters()
        #expect(dead.map(\.sequence) == [1] && dead.map(\.items) == [10] && dead.map(\.status) == [422])
        #expect(dead.first?.reason == "sequence 1 is not after 4, the last this device sent")
        #expect(events.deadLettered == [1])
        // Accounted for: the saved anchor moved past both batches; nothing waits.
        let type = try #require(try state.typeStates()[.stepCount])
        let latest = await store.latestAnchor()
        #expect(type.saved == type.proposed && type.proposed == latest)
        #expect(try state.outbox().isEmpty)
    }

    @Test func aRefusedTokenStopsAndKeepsTheOutbox() async throws {
        let store = InMemoryHealthStore()
        let state = try enrolledState()
        let transport = ScriptedTransport()
        transport.append([transport.problem(401, "Unauthorized")])
        let engine = Self.engine(store, state, transport, clock: TestClock(Self.now))
        try await engine.read()
        try await store.add(steps(15, endingAt: Self.now, spacing: 600))
        await #expect(throws: SyncError(.reauthenticationRequired)) { try await engine.runOnce() }
        #expect(try state.outbox().map(\.items) == [10, 5])
        let type = try #require(try state.typeStates()[.stepCount])
        let latest = await store.latestAnchor()
        #expect(type.saved == .initial && type.proposed == latest)
    }

    @Test func aBatchThatFailsEveryAttemptStaysForTheNextRun() async throws {
        let store = InMemoryHealthStore()
        let state = try enrolledState()
        let clock = TestClock(Self.now)
        let transport = ScriptedTransport(
            Array(repeating: .fail(SyncTransportError(.timedOut, "no answer within 30.0 s")), count: 3))
        let engine = Self.engine(store, state, transport, clock: clock) { $0.maxAttempts = 3 }
        try await engine.read()
        try await store.add(steps(3, endingAt: Self.now, spacing: 600))
        await #expect(throws: SyncError(.uploadFailed(batch: 1, attempts: 3, lastError: "no answer within 30.0 s"))) {
            try await engine.runOnce()
        }
        #expect(clock.sleeps == [0.5, 1])
        let waiting = try #require(try state.outbox().first)
        #expect(waiting.attempts == 3 && waiting.lastError == "no answer within 30.0 s")
        // The next run (a new process: a new engine on the same state) sends the same bytes.
        let next = ScriptedTransport()
        let report = try await Self.engine(store, state, next, clock: clock).runOnce()
        #expect(report.batchesSent == 1 && next.requests.map(\.body) == [transport.requests[0].body])
        #expect(next.requests[0].headers["Idempotency-Key"] == transport.requests[0].headers["Idempotency-Key"])
    }

    @Test(arguments: [
        (DeviceConditions(batteryLevel: 0.15), SyncError(.lowBattery(level: 0.15, minimum: 0.3))),
        (DeviceConditions(network: .metered), SyncError(.wifiRequired)),
        (DeviceConditions(isLowPowerMode: true), SyncError(.lowPowerMode)),
        (DeviceConditions(network: .offline), SyncError(.offline)),
    ])
    func conditionsHoldUploadsButNotReading(_ conditions: DeviceConditions, _ error: SyncError) async throws {
        let store = InMemoryHealthStore()
        let state = try enrolledState()
        let transport = ScriptedTransport()
        let engine = Self.engine(
            store, state, transport, clock: TestClock(Self.now),
            configure: { $0 = SyncConfiguration.preset("conservative")! }, conditions: conditions)
        try await engine.read()
        try await store.add(steps(3, endingAt: Self.now, spacing: 600))
        await #expect(throws: error) { try await engine.runOnce() }
        #expect(transport.requests.isEmpty)
        #expect(try state.outbox().map(\.items) == [3])
        // Charging lifts the battery rule.
        var charging = conditions
        charging.isCharging = true
        if conditions.batteryLevel != nil {
            let report = try await Self.engine(
                store, state, transport, clock: TestClock(Self.now),
                configure: { $0 = SyncConfiguration.preset("conservative")! }, conditions: charging
            ).runOnce()
            #expect(report.batchesSent == 1)
        }
    }

    /// 200 days of history, one sample every 6 hours: the 90 days before the newest
    /// sample's end (now − 6 h + 60 s) go, newest window first, each sample once; older ones
    /// stay home; later additions and deletions follow through the feed.
    @Test func backfillSendsTheLastNinetyDaysNewestFirst() async throws {
        let store = InMemoryHealthStore()
        let history = steps(800, endingAt: Self.now, spacing: 6 * 3600)
        try await store.add(history)
        let state = try enrolledState()
        let transport = ScriptedTransport()
        let events = EventLog()
        let engine = Self.engine(
            store, state, transport, clock: TestClock(Self.now), configure: { $0.batchSize = 50 }, events: events)
        let report = try await engine.runOnce()
        let floor = Self.now.addingTimeInterval(-6 * 3600 + 60 - 90 * 86400)
        let expected = history.filter { $0.start >= floor }.map(\.uuid)
        let sent = transport.acknowledged.flatMap { $0 }.compactMap { item -> SampleWire? in
            if case .add(let wire) = item { wire } else { nil }
        }
        #expect(sent.count == 360 && Set(sent.compactMap(\.uuid)) == Set(expected))
        // Newest first: each window's samples come before every older window's.
        let windows = sent.map(\.start).map { Int((Self.now.timeIntervalSince($0) / (7 * 86400)).rounded(.up)) - 1 }
        #expect(windows == windows.sorted() && windows.first == 0 && windows.last == 12)
        #expect(report.itemsRead == 360 && report.itemsSent == 360)
        #expect(events.backfillCursors.last == floor)
        let type = try #require(try state.typeStates()[.stepCount])
        #expect(type.backfill == nil && type.backfillItems == 360)
        // Afterwards only the feed: an addition and a deletion.
        let later = steps(1, endingAt: Self.now.addingTimeInterval(3600), spacing: 60)
        try await store.add(later)
        _ = await store.delete(uuids: [history[0].uuid])
        try await engine.runOnce()
        let last = try #require(transport.acknowledged.last)
        #expect(last == [.add(SampleWire(later[0])), .delete(uuid: history[0].uuid, type: SampleType.stepCount.identifier)])
    }

    /// While the first batch is on the wire, the next ones are read and sealed: the first
    /// answer waits (up to 10 s) for the outbox to hold four batches, which a run that reads
    /// only between uploads never gets to. Batches still leave in order, each once.
    @Test func readingGoesOnWhileABatchIsOnTheWire() async throws {
        let store = InMemoryHealthStore()
        try await store.add(steps(800, endingAt: Self.now, spacing: 6 * 3600))
        let state = try enrolledState()
        let queuedDuringFirstSend = Flag()
        let transport = ScriptedTransport { index in
            guard index == 0 else { return }
            for _ in 0..<1000 {
                if (try? state.outbox().count).map({ $0 >= 4 }) == true { return queuedDuringFirstSend.set() }
                try? await Task.sleep(for: .milliseconds(10))
            }
        }
        let engine = Self.engine(
            store, state, transport, clock: TestClock(Self.now),
            configure: {
                $0.batchSize = 50
                $0.backfill = .all
            })
        let report = try await engine.runOnce()
        #expect(queuedDuringFirstSend.value)
        let sequences = try transport.requests.map {
            try JSONDecoder().decode(SyncEnvelope.self, from: $0.body ?? Data()).sequence
        }
        #expect(sequences == Array(1...Int64(sequences.count)))
        #expect(report.itemsSent == 800 && report.batchesSent == sequences.count)
        #expect(try state.outbox().isEmpty)
    }

    /// `--backfill-days all`: empty stretches are jumped over, not walked week by week.
    @Test func backfillOfEverythingJumpsOverGaps() async throws {
        let store = InMemoryHealthStore()
        let recent = steps(10, endingAt: Self.now, spacing: 3600)
        let old = steps(10, endingAt: Self.now.addingTimeInterval(-5 * 365 * 86400), spacing: 3600)
        try await store.add(recent + old)
        let state = try enrolledState()
        let transport = ScriptedTransport()
        let events = EventLog()
        let engine = Self.engine(
            store, state, transport, clock: TestClock(Self.now), configure: { $0.backfill = .all }, events: events)
        try await engine.runOnce()
        let sent = transport.acknowledged.flatMap { $0 }
        #expect(sent.count == 20)
        #expect(events.backfillCursors.count <= 4)
    }
}

/// The events an engine reported.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [SyncEvent] = []

    func append(_ event: SyncEvent) { lock.withLock { events.append(event) } }

    var deadLettered: [Int64] {
        lock.withLock { events.compactMap { if case .deadLettered(let sequence, _, _) = $0 { sequence } else { nil } } }
    }

    var backfillCursors: [Date] {
        lock.withLock { events.compactMap { if case .backfill(_, let cursor, _, _) = $0 { cursor } else { nil } } }
    }
}

/// A flag set from any task.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false
    var value: Bool { lock.withLock { isSet } }
    func set() { lock.withLock { isSet = true } }
}

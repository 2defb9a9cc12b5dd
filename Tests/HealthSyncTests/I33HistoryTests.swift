import Foundation
import GRDB
import HealthCore
import HealthWire
import Testing

@testable import HealthSync

/// Issue 33 §2: the sync sends all of a person's history — the last data of a store whose
/// data ended long ago, the newly covered part of a wider backfill, the deletions of a type
/// none of whose samples is left, samples dated after the first sync — and a state written
/// before keeps its window. The engine against an in-memory store and a scripted server.
@Suite struct I33HistoryTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let day = 86400.0
    static let everything = DateInterval(start: .distantPast, end: .distantFuture)

    /// An engine with batches of 50, the clock at ``now`` and `types` as the store's types.
    static func engine(
        _ store: InMemoryHealthStore, _ state: SyncState, _ transport: ScriptedTransport,
        backfill: SyncConfiguration.Backfill = .days(90),
        types: @escaping @Sendable () async throws -> [SampleType] = { [.stepCount] }
    ) -> SyncEngine {
        var configuration = SyncConfiguration()
        configuration.batchSize = 50
        configuration.backfill = backfill
        return SyncEngine(
            source: store, state: state, transport: transport, configuration: configuration,
            environment: TestClock(now).environment(), types: types)
    }

    /// The UUIDs of `types` the store holds.
    static func uuids(_ store: InMemoryHealthStore, _ types: [SampleType]) async -> Set<UUID> {
        var all = Set<UUID>()
        for type in types { all.formUnion(await store.samples(of: type, overlapping: everything).map(\.uuid)) }
        return all
    }

    /// 800 samples, one every 6 hours, the newest ending a year ago (less 6 h plus 60 s: E).
    /// The first sync of 90 days sends the last 90 days of that data, counted back from E:
    /// the 360 that start at or after E − 90 days (`history[k − 1]` starts k × 6 h before a
    /// year ago, k ≤ 360). `--backfill-days all` afterwards sends the other 440, each once.
    @Test func i33_sync_historyCountsBackFromTheLastDataOfAnOldStore() async throws {
        let store = InMemoryHealthStore()
        let yearAgo = Self.now.addingTimeInterval(-365 * Self.day)
        let history = steps(800, endingAt: yearAgo, spacing: 6 * 3600)
        try await store.add(history)
        let state = try enrolledState()
        var server = ServerModel()
        let first = ScriptedTransport()
        let report = try await Self.engine(store, state, first).runOnce()
        let sent = server.apply(first)
        #expect(report.itemsSent == 360 && sent.count == 360)
        #expect(Set(sent) == Set(history.prefix(360).map(\.uuid)))
        let type = try #require(try state.typeStates()[.stepCount])
        #expect(type.backfill == nil && type.backfillItems == 360)
        #expect(type.historyFloor == yearAgo.addingTimeInterval(-6 * 3600 + 60 - 90 * Self.day))

        let second = ScriptedTransport()
        try await Self.engine(store, state, second, backfill: .all).runOnce()
        let rest = server.apply(second)
        #expect(rest.count == 440 && Set(rest) == Set(history.dropFirst(360).map(\.uuid)))
        #expect(server.uuids == Set(history.map(\.uuid)) && server.additions == 800)
        // Nothing older was found: the whole history is covered.
        #expect(try state.typeStates()[.stepCount]?.historyFloor == nil)
    }

    /// 800 samples, one every 6 hours up to now; the newest ends at E = now − 6 h + 60 s.
    /// 90 days send the newest 360 (k ≤ 360); 120 days then exactly the next 120 (starts from
    /// E − 120 days to before E − 90 days: 361 ≤ k ≤ 480); `all` the other 320; 30 days,
    /// narrower, nothing. Each sample once.
    @Test func i33_sync_wideningBackfillSendsTheNewlyCoveredHistory() async throws {
        let store = InMemoryHealthStore()
        let history = steps(800, endingAt: Self.now, spacing: 6 * 3600)
        try await store.add(history)
        let state = try enrolledState()
        var server = ServerModel()
        let runs: [(SyncConfiguration.Backfill, Range<Int>)] = [
            (.days(90), 0..<360), (.days(120), 360..<480), (.all, 480..<800), (.days(30), 800..<800),
        ]
        for (backfill, newlyCovered) in runs {
            let transport = ScriptedTransport()
            try await Self.engine(store, state, transport, backfill: backfill).runOnce()
            let sent = server.apply(transport)
            #expect(sent.count == newlyCovered.count, "\(backfill)")
            #expect(Set(sent) == Set(history[newlyCovered].map(\.uuid)), "\(backfill)")
        }
        #expect(server.uuids == Set(history.map(\.uuid)) && server.additions == 800)
    }

    /// 20 steps and 10 heart rates synced; then every step is deleted, so the store's types
    /// (what `sampleCountsByType()` gives the CLI, asked before each read) are heart rates
    /// only. The same engine again — as `--watch` runs it — still reads the steps' feed, the
    /// state follows them: the 20 deletions reach the server, which ends with the device's
    /// 10 heart rates.
    @Test func i33_sync_aWholeTypeDeletionReachesTheServer() async throws {
        let store = InMemoryHealthStore()
        let stepSamples = steps(20, endingAt: Self.now, spacing: 3600)
        let heartSamples = heartRates(10, endingAt: Self.now, spacing: 600)
        try await store.add(stepSamples + heartSamples)
        let state = try enrolledState()
        let transport = ScriptedTransport()
        let engine = Self.engine(store, state, transport) {
            var held: [SampleType] = []
            for type in [SampleType.heartRate, .stepCount] {
                let samples = await store.samples(of: type, overlapping: Self.everything)
                if !samples.isEmpty { held.append(type) }
            }
            return held
        }
        var server = ServerModel()
        try await engine.runOnce()
        server.apply(transport)
        #expect(server.uuids == Set((stepSamples + heartSamples).map(\.uuid)))

        let report = await store.delete(.stepCount, overlapping: Self.everything, source: nil)
        #expect(report.deleted.count == 20)
        try await engine.runOnce()
        server.apply(transport)
        let device = await Self.uuids(store, [.heartRate, .stepCount])
        #expect(device == Set(heartSamples.map(\.uuid)))
        #expect(server.uuids == device)
        let deletions = transport.acknowledged.last?.compactMap { item -> UUID? in
            if case .delete(let uuid, let type) = item, type == SampleType.stepCount.identifier { uuid } else { nil }
        }
        #expect(deletions.map { Set($0) } == Set(stepSamples.map(\.uuid)))
    }

    /// Stored before the first sync: 10 samples of the last 10 hours, 5 planned ones 1 to 5
    /// days ahead and one 10 minutes ahead (a clock ahead). The feed starts after all of
    /// them, and a history read up to now missed the 6; the history starts above the newest
    /// sample instead: all 16 go, each once. A planned one stored afterwards goes by the
    /// feed, once.
    @Test func i33_sync_futureDatedSamplesAreSentOnce() async throws {
        let store = InMemoryHealthStore()
        let past = steps(10, endingAt: Self.now, spacing: 3600)
        let planned = steps(5, endingAt: Self.now.addingTimeInterval(6 * Self.day), spacing: Self.day)
        let ahead = steps(1, endingAt: Self.now.addingTimeInterval(20 * 60), spacing: 600)
        let stored = past + planned + ahead
        try await store.add(stored)
        let state = try enrolledState()
        let transport = ScriptedTransport()
        let engine = Self.engine(store, state, transport)
        var server = ServerModel()
        try await engine.runOnce()
        let sent = server.apply(transport)
        #expect(sent.count == 16 && Set(sent) == Set(stored.map(\.uuid)))

        let later = steps(1, endingAt: Self.now.addingTimeInterval(9 * Self.day), spacing: Self.day)
        try await store.add(later)
        try await engine.runOnce()
        let sentLater = server.apply(transport)
        #expect(sentLater == [later[0].uuid])
        let device = await Self.uuids(store, [.stepCount])
        #expect(server.uuids == device && server.additions == 17)
    }

    /// A state written before issue 33 (schema `sync-v1`, no window reference): steps
    /// followed since `now` with their 90 days sent (done, floor now − 90 days); heart rates
    /// stuck by the old rule — data that ended a year ago, done with the same floor and
    /// nothing sent. After the upgrade a sync of 90 days sends no step again (the steps keep
    /// their window) and the heart rates' last 90 days of data: the 91 starting at or after
    /// E − 90 days, E = their newest end, a year and a day ago. 120 days then send the next
    /// 30 days of each: 120 steps (361 ≤ k ≤ 480) and 30 heart rates (92 ≤ k ≤ 121).
    @Test func i33_sync_aStateFromBeforeKeepsItsWindowAndAStuckTypeSendsItsHistory() async throws {
        let store = InMemoryHealthStore()
        let recent = steps(800, endingAt: Self.now, spacing: 6 * 3600)
        let old = heartRates(200, endingAt: Self.now.addingTimeInterval(-365 * Self.day), spacing: Self.day)
        try await store.add(recent + old)
        let head = await store.latestAnchor()
        let oldFloor = Self.now.addingTimeInterval(-90 * Self.day)
        let state = try Self.stateFromBefore([
            (.stepCount, head, oldFloor, 360), (.heartRate, head, oldFloor, 0),
        ])
        let both: @Sendable () async throws -> [SampleType] = { [.heartRate, .stepCount] }
        var server = ServerModel()

        let first = ScriptedTransport()
        try await Self.engine(store, state, first, types: both).runOnce()
        let sent = server.apply(first)
        #expect(sent.count == 91 && Set(sent) == Set(old.prefix(91).map(\.uuid)))
        let states = try state.typeStates()
        // The steps' window is measured from their newest end now (six hours short of now):
        // it reaches a little lower than the old floor, with no step in between.
        let newestStep = try #require(recent.map(\.end).max())
        #expect(states[.stepCount]?.historyFloor == min(oldFloor, newestStep.addingTimeInterval(-90 * Self.day)))
        #expect(states[.heartRate]?.historyFloor == Self.now.addingTimeInterval(-456 * Self.day))

        let second = ScriptedTransport()
        try await Self.engine(store, state, second, backfill: .days(120), types: both).runOnce()
        let wider = server.apply(second)
        #expect(wider.count == 150)
        #expect(Set(wider) == Set(recent[360..<480].map(\.uuid) + old[91..<121].map(\.uuid)))
    }

    /// A state folder as a version before issue 33 left it (schema `sync-v1`) with `rows` of
    /// finished backfills (cursor at the floor), then opened — migrated — and enrolled.
    static func stateFromBefore(_ rows: [(SampleType, QueryAnchor, Date, Int)]) throws -> SyncState {
        let folder = stateFolder()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: (folder as NSString).appendingPathComponent("sync.sqlite"))
        try SyncState.migrator.migrate(queue, upTo: "sync-v1")
        try queue.write { db in
            for (type, head, floor, items) in rows {
                try db.execute(
                    sql: """
                        INSERT INTO type_state (type, proposed, saved, backfill_cursor, backfill_floor, backfill_done,
                        backfill_items) VALUES (?,?,?,?,?,1,?)
                        """,
                    arguments: [
                        type.identifier, head.rawValue, head.rawValue, floor.timeIntervalSince1970,
                        floor.timeIntervalSince1970, items,
                    ])
            }
        }
        try queue.close()
        return try enrolledState(in: folder)
    }
}

/// What the server holds: the acknowledged batches applied in order (an addition an upsert
/// by UUID, a deletion a removal), as the server does.
struct ServerModel {
    private(set) var samples: [UUID: SampleWire] = [:]
    /// Additions received, repeats counted.
    private(set) var additions = 0
    /// Batches of each transport applied so far.
    private var applied: [ObjectIdentifier: Int] = [:]

    var uuids: Set<UUID> { Set(samples.keys) }

    /// Applies the batches `transport` acknowledged since the last call; the UUIDs they
    /// added, in order.
    @discardableResult
    mutating func apply(_ transport: ScriptedTransport) -> [UUID] {
        let batches = transport.acknowledged
        let done = applied[ObjectIdentifier(transport), default: 0]
        applied[ObjectIdentifier(transport)] = batches.count
        var added: [UUID] = []
        for item in batches.dropFirst(done).joined() {
            switch item {
            case .add(let wire):
                additions += 1
                if let uuid = wire.uuid {
                    samples[uuid] = wire
                    added.append(uuid)
                }
            case .delete(let uuid, _):
                samples[uuid] = nil
            }
        }
        return added
    }
}

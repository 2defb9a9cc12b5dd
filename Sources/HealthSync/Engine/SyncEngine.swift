import Foundation
import HealthCore
import HealthWire

/// Syncs a store to the server: reads its change feed (and its history, newest
/// first) into sealed batches in the outbox, and uploads the outbox in order, with retry,
/// `Retry-After`, dead letters and the upload conditions of the configuration.
///
/// Everything it depends on is passed in — the store, the state, the transport, the clock,
/// randomness and conditions — so every decision can be driven without I/O or sleeping.
///
/// ```swift
/// let engine = SyncEngine(
///     source: database.store, state: try SyncState(folder: folder), transport: transport,
///     configuration: .init(), types: { [.stepCount, .heartRate] })
/// let report = try await engine.runOnce()
/// ```
public actor SyncEngine {
    let source: any HealthQuerying
    let state: SyncState
    let transport: any SyncTransport
    let configuration: SyncConfiguration
    let environment: SyncEnvironment
    /// The store's types to sync, asked before each read; every type the state follows is
    /// read too unless ``SyncConfiguration/types`` is set (``read()``).
    let types: @Sendable () async throws -> [SampleType]
    let onEvent: @Sendable (SyncEvent) -> Void
    /// Asked between batches and during waits: `true` ends the run after the batch in flight.
    let stopRequested: @Sendable () -> Bool
    /// What this engine has done so far.
    public internal(set) var report = SyncReport()
    /// The wake-ups of a running ``watch(changes:onError:)``.
    var wakeup: AsyncStream<Void>.Continuation?

    public init(
        source: any HealthQuerying, state: SyncState, transport: any SyncTransport, configuration: SyncConfiguration,
        environment: SyncEnvironment = .live, types: @escaping @Sendable () async throws -> [SampleType],
        onEvent: @escaping @Sendable (SyncEvent) -> Void = { _ in }, stopRequested: @escaping @Sendable () -> Bool = { false }
    ) {
        self.source = source
        self.state = state
        self.transport = transport
        self.configuration = configuration
        self.environment = environment
        self.types = types
        self.onEvent = onEvent
        self.stopRequested = stopRequested
    }

    /// Reads and uploads until the feed is read to its end, the backfill is done and the
    /// outbox is empty. Throws the ``SyncError`` that stopped it (the outbox keeps what
    /// was not sent); dead letters do not stop it (see ``report``).
    ///
    /// Reading and uploading overlap: while a batch is on the wire (and the server works on
    /// it), the next ones are read and sealed into the outbox. Batches still leave in the
    /// outbox's order, one at a time.
    @discardableResult
    public func runOnce() async throws -> SyncReport {
        let (rounds, roundRead) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { roundRead.finish() }
                while true {
                    // The uploader stopped (an error): stop reading too, between rounds.
                    try Task.checkCancellation()
                    let backfillLeft = try await self.read()
                    roundRead.yield()
                    if !backfillLeft || self.stopRequested() { return }
                }
            }
            for await _ in rounds { try await upload() }
            try await group.waitForAll()
        }
        return report
    }

    // MARK: reading

    /// Reads every type's feed to its end and, of each type whose history is not read yet,
    /// up to a batch of it, into the outbox. Returns whether history is left to read.
    ///
    /// The types are ``types``' and — unless ``SyncConfiguration/types`` names the types —
    /// every type the state follows: a type whose every sample was deleted is no longer
    /// among the store's, and its deletions must still go. A followed type whose history
    /// window is narrower than the configuration's backfill has it widened first.
    @discardableResult
    public func read() async throws -> Bool {
        let enrolment = try state.requireEnrolment()
        let key = try state.credentials().currentKey()
        var states = try state.typeStates()
        var backfillLeft = false
        var wanted = try await Set(types())
        if configuration.types == nil { wanted.formUnion(states.keys) }
        for type in wanted.sorted(by: { $0.identifier < $1.identifier }) {
            if let typeState = states[type] {
                if try await widenHistory(typeState) { states = try state.typeStates() }
            } else {
                try await start(type)
                states = try state.typeStates()
            }
            guard let typeState = states[type] else { continue }
            try await readFeed(type, from: typeState.proposed, enrolment: enrolment, key: key)
            if let (cursor, floor) = typeState.backfill {
                backfillLeft =
                    try await readBackfill(
                        type, cursor: cursor, floor: floor, itemsSoFar: typeState.backfillItems, enrolment: enrolment, key: key)
                    || backfillLeft
            }
            if stopRequested() { break }
        }
        return backfillLeft
    }

    /// Reads `type`'s changes after `anchor`, a batch per page, each queued with the anchor
    /// it advances to.
    private func readFeed(_ type: SampleType, from anchor: QueryAnchor, enrolment: Enrolment, key: SyncKey) async throws {
        var anchor = anchor
        while true {
            let page = try await source.changes(of: type, since: anchor, limit: configuration.batchSize)
            let items = page.changes.map(SyncItem.init)
            if items.isEmpty && page.nextAnchor == anchor { return }
            try queue(
                try await wholeWorkouts(items), anchor: page.nextAnchor,
                advance: TypeAdvance(type: type, proposed: page.nextAnchor), enrolment: enrolment, key: key)
            anchor = page.nextAnchor
            if !page.hasMore || page.changes.isEmpty { return }
        }
    }

    /// Seals `batches` and queues them with `advance`, in one transaction; the last batch
    /// carries `anchor`.
    func queue(
        _ batches: [[SyncItem]], anchor: QueryAnchor?, advance: TypeAdvance, enrolment: Enrolment, key: SyncKey
    ) throws {
        let encoder = SampleWire.encoder()
        let level = configuration.compressionLevel
        let createdAt = environment.now()
        try state.enqueue(
            batches.enumerated().map {
                index, items -> (additions: Int, deletions: Int, anchor: QueryAnchor?, seal: (Int64, UUID) throws -> Data) in
                let deletions = items.count(where: { if case .delete = $0 { true } else { false } })
                return (
                    additions: items.count - deletions, deletions: deletions,
                    anchor: index == batches.count - 1 ? anchor : nil,
                    seal: { sequence, batchID in
                        let plaintext = try encoder.encode(SyncBatchContent(items: items))
                        return try SyncEnvelope.seal(
                            plaintext, userID: enrolment.userID, deviceID: enrolment.deviceID, key: key, batchID: batchID,
                            sequence: sequence, createdAt: createdAt, compressionLevel: level
                        ).encoded()
                    }
                )
            }, advance: advance, at: createdAt)
        report.itemsRead += batches.reduce(0) { $0 + $1.count }
        report.batchesQueued += batches.count
    }
}

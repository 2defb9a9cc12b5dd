import Foundation
import HealthCore
import HealthWire

/// Reading a type's history — the samples stored before its feed's head — by backfill
/// (docs/sync.md §4, The history window).
extension SyncEngine {
    /// Starts following `type`: its feed from the store's latest anchor, its history before
    /// it by backfill, newest first.
    ///
    /// The head is taken first and the history measured after it: a sample stored before
    /// the head is in the store when the newest one is looked up (or deleted since, and its
    /// tombstone is in the feed), so the backfill, which starts above the newest sample's
    /// end, or the feed reads it — a sample dated after now (planned, or from a clock ahead)
    /// too. The window counts back from the newest sample's end, or from now when that lies
    /// ahead: a store whose data ended long ago sends its last days of data.
    func start(_ type: SampleType) async throws {
        let head = try await source.latestAnchor()
        let now = environment.now()
        guard let newest = try await source.latestSample(of: type) else {
            // Nothing of the type before the head: its whole history is covered.
            try state.startType(type, head: head, backfillFrom: nil, floor: nil, reference: now)
            return
        }
        let reference = min(now, newest.end)
        let floor = configuration.backfill.floor(countingBackFrom: reference, now: now)
        // Above every stored start: no sample starts after the latest end.
        let top = newest.end.addingTimeInterval(0.001)
        let backfills = floor.map { top > $0 } ?? true
        try state.startType(type, head: head, backfillFrom: backfills ? top : nil, floor: floor, reference: reference)
    }

    /// Widens `typeState`'s history window to the configuration's backfill when that reaches
    /// further back than the window covered so far: the backfill goes on from the old floor
    /// down to the new one, so only the newly covered history is read (and a narrower
    /// backfill changes nothing). A state written before the window's reference was kept
    /// has it measured now, from the type's newest sample. Returns whether the state changed.
    func widenHistory(_ typeState: TypeSyncState) async throws -> Bool {
        // Covered to its start already: nothing older to read, whatever the configuration.
        guard let covered = typeState.backfillFloor else { return false }
        let now = environment.now()
        var changed = false
        let reference: Date
        if let recorded = typeState.backfillReference {
            reference = recorded
        } else {
            let newestEnd = try await source.latestSample(of: typeState.type)?.end
            reference = min(now, newestEnd ?? now)
            try state.setBackfillReference(typeState.type, reference)
            changed = true
        }
        let floor = configuration.backfill.floor(countingBackFrom: reference, now: now)
        guard floor.map({ $0 < covered }) ?? true else { return changed }
        try state.widenBackfill(typeState.type, to: floor)
        return true
    }

    /// Reads the samples of `type` starting below `cursor`, window after window, newest
    /// first, until they fill a batch or the history ends; queues them with the new cursor
    /// in one transaction. Returns whether history is left below it.
    func readBackfill(
        _ type: SampleType, cursor start: Date, floor: Date?, itemsSoFar: Int, enrolment: Enrolment, key: SyncKey
    ) async throws -> Bool {
        var samples: [Sample] = []
        var cursor = start
        var done = false
        var exhausted = false
        while !done && samples.count < configuration.batchSize && !stopRequested() {
            let window = BackfillWindow(cursor: cursor, floor: floor, days: configuration.backfillWindowDays)
            var earlier = false
            if let interval = window.interval {
                let overlapping = try await source.samples(of: type, overlapping: interval)
                samples += overlapping.filter { $0.start >= interval.start && $0.start < cursor }
                earlier = overlapping.contains { $0.start < interval.start }
            }
            cursor = window.lower
            done = window.reachesFloor
            if !done && !earlier {
                // Nothing reaches into this window from before: jump over the empty stretch to
                // the latest sample that ends before it, or stop when there is none.
                if let latest = try await source.latestSample(of: type, endingBy: window.lower) {
                    cursor = min(window.lower, latest.end.addingTimeInterval(0.001))
                } else {
                    done = true
                    exhausted = true
                }
            }
        }
        var batches: [[SyncItem]] = []
        for first in stride(from: 0, to: samples.count, by: configuration.batchSize) {
            let items = samples[first..<min(first + configuration.batchSize, samples.count)].map { SyncItem.add(SampleWire($0)) }
            batches += try await wholeWorkouts(items)
        }
        try queue(
            batches, anchor: nil,
            advance: TypeAdvance(
                type: type, backfillCursor: cursor, backfillDone: done, historyExhausted: exhausted,
                backfillItems: samples.count),
            enrolment: enrolment, key: key)
        onEvent(.backfill(type: type, cursor: cursor, floor: floor, items: itemsSoFar + samples.count))
        return !done
    }
}

extension SyncConfiguration.Backfill {
    /// The oldest start of the history this backfill sends: `days` before `reference` (a
    /// type's newest sample's end, or now when that lies ahead); `nil` for ``all``. With
    /// `.days(0)` no history: only samples dated after `now` (stored before the feed's
    /// head, so the feed will not carry them) are read.
    func floor(countingBackFrom reference: Date, now: Date) -> Date? {
        switch self {
        case .all: nil
        case .days(let days) where days <= 0: now
        case .days(let days): reference.addingTimeInterval(-Double(days) * 86400)
        }
    }
}

/// The backfill window below a cursor: `days` long, not below the floor.
struct BackfillWindow {
    var lower: Date
    var interval: DateInterval?
    /// The window reaches the floor: the backfill ends with it.
    var reachesFloor: Bool

    init(cursor: Date, floor: Date?, days: Int) {
        var lower = cursor.addingTimeInterval(-Double(max(days, 1)) * 86400)
        if let floor { lower = max(lower, floor) }
        self.lower = lower
        interval = lower < cursor ? DateInterval(start: lower, end: cursor) : nil
        reachesFloor = floor.map { lower <= $0 } ?? false
    }
}

import Foundation
import GRDB
import HealthCore

/// Where one type's sync stands.
public struct TypeSyncState: Sendable, Hashable {
    public var type: SampleType
    /// The feed has been read up to here: every change up to it is in a batch, queued or sent.
    public var proposed: QueryAnchor
    /// The server has acknowledged (or refused, into the dead letters) every batch up to here.
    public var saved: QueryAnchor
    public var lastSuccessAt: Date?
    /// The history still to read, newest first: samples starting before `cursor` and not
    /// before `floor` (`nil`: no floor). `nil` when the backfill is done.
    public var backfill: (cursor: Date, floor: Date?)? {
        guard !backfillDone, let backfillCursor else { return nil }
        return (backfillCursor, backfillFloor)
    }
    /// The oldest start the history reaches — read already when ``backfill`` is `nil`, else
    /// the backfill's goal; `nil`: all of it (`--backfill-days all`, or nothing older was
    /// stored). A wider `--backfill-days` later reads on from here down.
    public var historyFloor: Date? { backfillFloor }
    var backfillCursor: Date?
    var backfillFloor: Date?
    var backfillDone: Bool
    /// Samples the backfill has read so far.
    public var backfillItems: Int
    /// The instant the history window counts back from: the type's newest sample's end when
    /// it started (now, when that lay ahead). `nil` in a state written before it was kept.
    var backfillReference: Date?
}

extension SyncState {
    /// Every type's state.
    public func typeStates() throws -> [SampleType: TypeSyncState] {
        try queue.read { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(
                    db,
                    sql: """
                        SELECT type, proposed, saved, last_success_at, backfill_cursor, backfill_floor, backfill_done,
                        backfill_items, backfill_reference FROM type_state ORDER BY type
                        """
                ).map { row in
                    let type = SampleType(row[0] as String)
                    return (
                        type,
                        TypeSyncState(
                            type: type, proposed: QueryAnchor(row[1]), saved: QueryAnchor(row[2]),
                            lastSuccessAt: (row[3] as Double?).map(Date.init(timeIntervalSince1970:)),
                            backfillCursor: (row[4] as Double?).map(Date.init(timeIntervalSince1970:)),
                            backfillFloor: (row[5] as Double?).map(Date.init(timeIntervalSince1970:)),
                            backfillDone: row[6], backfillItems: row[7],
                            backfillReference: (row[8] as Double?).map(Date.init(timeIntervalSince1970:)))
                    )
                })
        }
    }

    /// Starts following `type`: its feed from `head`, its history before by backfill from
    /// `cursor` down to `floor` (no backfill when `cursor` is `nil`; `floor` `nil`: no floor),
    /// the window counted back from `reference`. A type followed already is left as it is.
    func startType(_ type: SampleType, head: QueryAnchor, backfillFrom cursor: Date?, floor: Date?, reference: Date) throws {
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO type_state
                    (type, proposed, saved, backfill_cursor, backfill_floor, backfill_done, backfill_reference)
                    VALUES (?,?,?,?,?,?,?)
                    """,
                arguments: [
                    type.identifier, head.rawValue, head.rawValue, cursor?.timeIntervalSince1970, floor?.timeIntervalSince1970,
                    cursor == nil, reference.timeIntervalSince1970,
                ])
        }
    }

    /// Records the instant `type`'s history window counts back from, in a state written
    /// before it was kept (a reference recorded already stays).
    func setBackfillReference(_ type: SampleType, _ reference: Date) throws {
        try queue.write { db in
            try db.execute(
                sql: "UPDATE type_state SET backfill_reference = ? WHERE type = ? AND backfill_reference IS NULL",
                arguments: [reference.timeIntervalSince1970, type.identifier])
        }
    }

    /// Moves `type`'s history floor down to `floor` (`nil`: no floor): the backfill goes on,
    /// or starts again, from the old floor — a backfill under way from its cursor — so only
    /// the newly covered history is read. A type whose history is covered to its start
    /// (no floor) is left as it is.
    func widenBackfill(_ type: SampleType, to floor: Date?) throws {
        try queue.write { db in
            try db.execute(
                sql: """
                    UPDATE type_state SET
                    backfill_cursor = CASE WHEN backfill_done = 0 AND backfill_cursor IS NOT NULL THEN backfill_cursor
                        ELSE backfill_floor END,
                    backfill_floor = ?, backfill_done = 0
                    WHERE type = ? AND backfill_floor IS NOT NULL
                    """,
                arguments: [floor?.timeIntervalSince1970, type.identifier])
        }
    }
}

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
    var backfillCursor: Date?
    var backfillFloor: Date?
    var backfillDone: Bool
    /// Samples the backfill has read so far.
    public var backfillItems: Int
}

/// A sealed batch waiting in the outbox, as it will be sent.
public struct OutboxBatch: Sendable, Hashable {
    public var sequence: Int64
    public var batchID: UUID
    /// The envelope's JSON: the request body, the same bytes on every attempt.
    public var envelope: Data
    public var items: Int
    public var additions: Int
    public var deletions: Int
    /// The type of its items.
    public var type: SampleType
    /// The feed anchor its type's saved anchor moves to once it is acknowledged (`nil`
    /// for a batch of backfill).
    public var anchor: QueryAnchor?
    public var createdAt: Date
    public var attempts: Int
    public var lastError: String?
}

/// A batch the server refused, with its reason.
public struct DeadLetter: Sendable, Hashable {
    public var sequence: Int64
    public var batchID: UUID
    public var items: Int
    public var status: Int
    public var reason: String
    public var createdAt: Date
    public var deadAt: Date
}

/// How reading moved one type along.
struct TypeAdvance: Sendable {
    var type: SampleType
    var proposed: QueryAnchor?
    var backfillCursor: Date?
    var backfillDone = false
    var backfillItems = 0
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
                        backfill_items FROM type_state ORDER BY type
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
                            backfillDone: row[6], backfillItems: row[7])
                    )
                })
        }
    }

    /// Starts following `type`: its feed from `head`, its history before by backfill from
    /// `cursor` down to `floor` (no backfill when `cursor` is `nil`). A type followed
    /// already is left as it is.
    func startType(_ type: SampleType, head: QueryAnchor, backfillFrom cursor: Date?, floor: Date?) throws {
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO type_state (type, proposed, saved, backfill_cursor, backfill_floor, backfill_done)
                    VALUES (?,?,?,?,?,?)
                    """,
                arguments: [
                    type.identifier, head.rawValue, head.rawValue, cursor?.timeIntervalSince1970, floor?.timeIntervalSince1970,
                    cursor == nil,
                ])
        }
    }

    /// Seals and queues `batches` and records `advance`, in one transaction: a crash
    /// leaves either all of it or none. `seal` makes a batch's envelope from its items, the
    /// sequence number and the batch id allotted here.
    func enqueue(
        _ batches: [(additions: Int, deletions: Int, anchor: QueryAnchor?, seal: (Int64, UUID) throws -> Data)],
        advance: TypeAdvance,
        at now: Date
    ) throws {
        try queue.write { db in
            guard var sequence = try Int64.fetchOne(db, sql: "SELECT next_sequence FROM enrolment") else {
                throw SyncError(.notEnrolled("no device in \(folder)"))
            }
            for batch in batches {
                let batchID = UUID()
                let envelope = try batch.seal(sequence, batchID)
                try db.execute(
                    sql: """
                        INSERT INTO outbox (sequence, batch_id, envelope, items, additions, deletions, type, anchor, created_at)
                        VALUES (?,?,?,?,?,?,?,?,?)
                        """,
                    arguments: [
                        sequence, batchID.uuidString.lowercased(), envelope, batch.additions + batch.deletions,
                        batch.additions, batch.deletions,
                        advance.type.identifier, batch.anchor?.rawValue, now.timeIntervalSince1970,
                    ])
                sequence += 1
            }
            try db.execute(sql: "UPDATE enrolment SET next_sequence = ?", arguments: [sequence])
            if let proposed = advance.proposed {
                try db.execute(
                    sql: "UPDATE type_state SET proposed = max(proposed, ?) WHERE type = ?",
                    arguments: [proposed.rawValue, advance.type.identifier])
                // Nothing to send up to it (the anchor moved past changes of other types) and
                // nothing of the type waiting: the server has everything up to it already.
                if batches.isEmpty {
                    try db.execute(
                        sql: """
                            UPDATE type_state SET saved = max(saved, ?)
                            WHERE type = ? AND NOT EXISTS (SELECT 1 FROM outbox WHERE type = ?)
                            """,
                        arguments: [proposed.rawValue, advance.type.identifier, advance.type.identifier])
                }
            }
            if let cursor = advance.backfillCursor {
                try db.execute(
                    sql: """
                        UPDATE type_state SET backfill_cursor = ?, backfill_done = ?, backfill_items = backfill_items + ?
                        WHERE type = ?
                        """,
                    arguments: [
                        cursor.timeIntervalSince1970, advance.backfillDone, advance.backfillItems, advance.type.identifier,
                    ])
            }
        }
    }

    /// The oldest queued batch, or `nil` when the outbox is empty.
    public func nextBatch() throws -> OutboxBatch? {
        try queue.read { db in
            try Row.fetchOne(db, sql: "\(Self.outboxQuery) LIMIT 1").map(Self.batch)
        }
    }

    /// The queued batches, oldest first.
    public func outbox() throws -> [OutboxBatch] {
        try queue.read { db in
            try Row.fetchAll(db, sql: Self.outboxQuery).map(Self.batch)
        }
    }

    private static let outboxQuery = """
        SELECT sequence, batch_id, envelope, items, additions, deletions, type, anchor, created_at, attempts, last_error
        FROM outbox ORDER BY sequence
        """

    private static func batch(_ row: Row) throws -> OutboxBatch {
        OutboxBatch(
            sequence: row[0], batchID: UUID(uuidString: row[1]) ?? UUID(), envelope: row[2], items: row[3], additions: row[4],
            deletions: row[5], type: SampleType(row[6] as String), anchor: (row[7] as Int64?).map(QueryAnchor.init),
            createdAt: Date(timeIntervalSince1970: row[8]), attempts: row[9], lastError: row[10])
    }

    /// Counts a failed attempt of `batch` (what failed: never a value).
    func recordAttempt(_ batch: OutboxBatch, error: String) throws {
        try queue.write { db in
            try db.execute(
                sql: "UPDATE outbox SET attempts = attempts + 1, last_error = ? WHERE sequence = ?",
                arguments: [error, batch.sequence])
        }
    }

    /// The server has `batch`: it leaves the outbox and its type's saved anchor moves.
    func acknowledge(_ batch: OutboxBatch, at now: Date) throws {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM outbox WHERE sequence = ?", arguments: [batch.sequence])
            try Self.save(batch, db: db, at: now, success: true)
        }
    }

    /// The server refused `batch` for good: it moves to the dead letters with the reason;
    /// its type's saved anchor moves (the batch is accounted for, not lost).
    func deadLetter(_ batch: OutboxBatch, status: Int, reason: String, at now: Date) throws {
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO dead_letter (sequence, batch_id, envelope, items, type, anchor, status, reason, created_at, dead_at)
                    SELECT sequence, batch_id, envelope, items, type, anchor, ?, ?, created_at, ? FROM outbox WHERE sequence = ?
                    """, arguments: [status, reason, now.timeIntervalSince1970, batch.sequence])
            try db.execute(sql: "DELETE FROM outbox WHERE sequence = ?", arguments: [batch.sequence])
            try Self.save(batch, db: db, at: now, success: false)
        }
    }

    private static func save(_ batch: OutboxBatch, db: Database, at now: Date, success: Bool) throws {
        if let anchor = batch.anchor {
            try db.execute(
                sql: "UPDATE type_state SET saved = max(saved, ?) WHERE type = ?",
                arguments: [anchor.rawValue, batch.type.identifier])
        }
        if success {
            try db.execute(
                sql: "UPDATE type_state SET last_success_at = ? WHERE type = ?",
                arguments: [now.timeIntervalSince1970, batch.type.identifier])
        }
    }

    /// The batches the server refused, oldest first.
    public func deadLetters() throws -> [DeadLetter] {
        try queue.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT sequence, batch_id, items, status, reason, created_at, dead_at FROM dead_letter ORDER BY sequence"
            ).map { row in
                DeadLetter(
                    sequence: row[0], batchID: UUID(uuidString: row[1]) ?? UUID(), items: row[2], status: row[3], reason: row[4],
                    createdAt: Date(timeIntervalSince1970: row[5]), deadAt: Date(timeIntervalSince1970: row[6]))
            }
        }
    }
}

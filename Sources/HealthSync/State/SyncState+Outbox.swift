import Foundation
import GRDB
import HealthCore

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
    /// The backfill found nothing older: the whole history is covered (its floor is dropped,
    /// so a wider `--backfill-days` later reads nothing again).
    var historyExhausted = false
    var backfillItems = 0
}

extension SyncState {
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
                        UPDATE type_state SET backfill_cursor = ?, backfill_done = ?, backfill_items = backfill_items + ?,
                        backfill_floor = CASE WHEN ? THEN NULL ELSE backfill_floor END
                        WHERE type = ?
                        """,
                    arguments: [
                        cursor.timeIntervalSince1970, advance.backfillDone, advance.backfillItems, advance.historyExhausted,
                        advance.type.identifier,
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

import Crypto
import Foundation
import HealthCore
import HealthServerRecords
import HealthWire
import PostgresNIO

extension PostgresServerStore: SharedImportQueue {
    /// This store: every server on the database claims from it.
    public var sharedImportQueue: (any SharedImportQueue)? { self }

    /// Bytes per `import_upload` row.
    static let uploadChunk = 4 << 20

    public func enqueue(_ job: ImportJob, userID: String, zone: String, file: String) async throws {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: file))
        defer { try? handle.close() }
        try await client.withTransaction(logger: logger) { connection in
            var seq: Int32 = 0
            while let chunk = try handle.read(upToCount: Self.uploadChunk), !chunk.isEmpty {
                try await connection.query(
                    "INSERT INTO import_upload (job_id, seq, user_id, bytes) VALUES (\(job.id), \(seq), \(userID), \(chunk))",
                    logger: logger)
                seq += 1
            }
            let json = try job.storedJSON()
            try await connection.query(
                """
                INSERT INTO import_job (id, user_id, state, job_json, created_at)
                VALUES (\(job.id), \(userID), \(job.state.rawValue), \(json), \(job.createdAt.timeIntervalSince1970))
                """, logger: logger)
            try await connection.query(
                "INSERT INTO import_claim (job_id, user_id, zone) VALUES (\(job.id), \(userID), \(zone))", logger: logger)
        }
    }

    public func claimNextImport(into folder: String, _ work: (ClaimedImport) async -> Void) async throws -> Bool {
        try await claimNextImport(into: folder, skippingUsers: [], work)
    }

    public func claimNextImport(
        into folder: String, skippingUsers: Set<String>, _ work: (ClaimedImport) async -> Void
    ) async throws -> Bool {
        guard !pool.isClosed else { throw CancellationError() }
        return try await client.withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            do {
                let claimed = try await claim(on: connection, into: folder, skipping: skippingUsers)
                if let claimed {
                    await work(claimed)
                    try? FileManager.default.removeItem(atPath: claimed.file)
                    try await connection.query("DELETE FROM import_upload WHERE job_id = \(claimed.job.id)", logger: logger)
                    try await connection.query("DELETE FROM import_claim WHERE job_id = \(claimed.job.id)", logger: logger)
                }
                try await connection.query("COMMIT", logger: logger)
                return claimed != nil
            } catch {
                try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// Locks the oldest claimable job's claim row (skipping those other servers hold, and
    /// the jobs of `skipping` users) and writes its upload to `folder`.
    private func claim(
        on connection: PostgresConnection, into folder: String, skipping: Set<String>
    ) async throws -> ClaimedImport? {
        var found: (String, String, String, String)?
        let skipped = skipping.sorted()
        for try await row in try await connection.query(
            """
            SELECT c.job_id, c.user_id, c.zone, j.job_json FROM import_claim c JOIN import_job j ON j.id = c.job_id
            WHERE j.state IN ('queued', 'running') AND NOT (c.user_id = ANY(\(skipped)))
            ORDER BY j.created_at
            FOR UPDATE OF c SKIP LOCKED LIMIT 1
            """, logger: logger
        ).decode((String, String, String, String).self) {
            found = row
        }
        guard let (id, userID, zone, json) = found else { return nil }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = (folder as NSString).appendingPathComponent("claimed-\(id).zip")
        FileManager.default.createFile(atPath: file, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
        defer { try? handle.close() }
        for try await bytes in try await connection.query(
            "SELECT bytes FROM import_upload WHERE job_id = \(id) ORDER BY seq", logger: logger
        ).decode(Data.self) {
            try handle.write(contentsOf: bytes)
        }
        return ClaimedImport(job: try ImportJob(storedJSON: json), userID: userID, zone: zone, file: file)
    }
}

extension PostgresServerStore: InFlightSlots {
    /// This store: slots are rows every server on the database sees.
    public var sharedInFlightSlots: (any InFlightSlots)? { self }

    /// A slot left by a server that died mid-request is free again after this long.
    static let staleSlot: TimeInterval = 300

    public func begin(_ slot: String) async throws -> Bool {
        let hash = Self.slotHash(slot)
        let now = Date().timeIntervalSince1970
        for try await _ in try await client.query(
            """
            INSERT INTO in_flight (slot_hash, taken_at) VALUES (\(hash), \(now))
            ON CONFLICT (slot_hash) DO UPDATE SET taken_at = EXCLUDED.taken_at
            WHERE in_flight.taken_at < \(now - Self.staleSlot)
            RETURNING 1
            """, logger: logger)
        {
            return true
        }
        return false
    }

    public func end(_ slot: String) async {
        let hash = Self.slotHash(slot)
        _ = try? await client.query("DELETE FROM in_flight WHERE slot_hash = \(hash)", logger: logger)
    }
}

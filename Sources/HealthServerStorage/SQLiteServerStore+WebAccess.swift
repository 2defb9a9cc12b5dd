import Foundation
import GRDB
import HealthCore
import HealthServerRecords

/// Consent and dashboard sessions in SQLite.
extension SQLiteServerStore: WebAccessRepository {
    public func consent(userID: String) async throws -> Consent? {
        try await pointRead { db in
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT granted, denied, decided_at, declined_at FROM consent WHERE user_id = ?"),
                arguments: [userID]
            ).flatMap { Self.consent($0, from: 0) }
        }
    }

    /// The consent in the four columns of `row` from `first` (granted, denied, decided,
    /// declined); `nil` when there is none (a left join's empty side).
    static func consent(_ row: Row, from first: Int) -> Consent? {
        guard let decided = row[first + 2] as Double? else { return nil }
        return Consent(
            granted: HealthDataCategory.parse(row[first]) ?? [], denied: HealthDataCategory.parse(row[first + 1]) ?? [],
            decidedAt: Date(timeIntervalSince1970: decided),
            declinedAt: (row[first + 3] as Double?).map(Date.init(timeIntervalSince1970:)))
    }

    public func saveConsent(_ consent: Consent, userID: String) async throws {
        try await pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO consent (user_id, granted, denied, decided_at, declined_at) VALUES (?,?,?,?,?)
                    ON CONFLICT (user_id) DO UPDATE SET granted = excluded.granted, denied = excluded.denied,
                        decided_at = excluded.decided_at, declined_at = excluded.declined_at
                    """,
                arguments: [
                    userID, HealthDataCategory.list(consent.granted), HealthDataCategory.list(consent.denied),
                    consent.decidedAt.timeIntervalSince1970, consent.declinedAt?.timeIntervalSince1970,
                ])
        }
    }

    public func createSession(idHash: Data, userID: String, csrfToken: String, now: Date, expiresAt: Date) async throws {
        try await pool.write { db in
            // Expired sessions go as new ones come.
            try db.execute(sql: "DELETE FROM web_session WHERE expires_at <= ?", arguments: [now.timeIntervalSince1970])
            try db.execute(
                sql: "INSERT INTO web_session (id_hash, user_id, csrf_token, created_at, expires_at) VALUES (?,?,?,?,?)",
                arguments: [
                    idHash, userID, csrfToken, now.timeIntervalSince1970, expiresAt.timeIntervalSince1970,
                ])
        }
    }

    public func session(idHash: Data, now: Date) async throws -> (user: User, csrfToken: String)? {
        // A session is the owner's: it lives while the user and their owner token do.
        try await pool.read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT \(ServerSchema.userTokenColumns), s.csrf_token FROM web_session s
                        JOIN user u ON u.id = s.user_id
                        JOIN api_token t ON t.user_id = u.id AND t.role = 'owner' AND t.revoked_at IS NULL
                        WHERE s.id_hash = ? AND s.expires_at > ? AND u.revoked_at IS NULL
                        """, arguments: [idHash, now.timeIntervalSince1970])
            else { return nil }
            return (Self.user(row), row[12])
        }
    }

    public func deleteSession(idHash: Data) async throws {
        try await pool.write { db in try db.execute(sql: "DELETE FROM web_session WHERE id_hash = ?", arguments: [idHash]) }
    }
}

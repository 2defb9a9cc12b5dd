import Foundation
import HealthCore
import HealthServerRecords
import PostgresNIO

/// Consent and dashboard sessions in PostgreSQL.
extension PostgresServerStore: WebAccessRepository {
    public func consent(userID: String) async throws -> Consent? {
        let rows = try await client.query(
            "SELECT granted, denied, decided_at, declined_at FROM consent WHERE user_id = \(userID)", logger: logger)
        for try await (granted, denied, decided, declined) in rows.decode((String, String, Double, Double?).self) {
            return Self.consent(granted: granted, denied: denied, decided: decided, declined: declined)
        }
        return nil
    }

    /// A consent from its stored columns.
    static func consent(granted: String, denied: String, decided: Double, declined: Double?) -> Consent {
        Consent(
            granted: HealthDataCategory.parse(granted) ?? [], denied: HealthDataCategory.parse(denied) ?? [],
            decidedAt: Date(timeIntervalSince1970: decided), declinedAt: declined.map(Date.init(timeIntervalSince1970:)))
    }

    public func saveConsent(_ consent: Consent, userID: String) async throws {
        let granted = HealthDataCategory.list(consent.granted)
        let denied = HealthDataCategory.list(consent.denied)
        let decided = consent.decidedAt.timeIntervalSince1970
        let declined = consent.declinedAt?.timeIntervalSince1970
        try await client.query(
            """
            INSERT INTO consent (user_id, granted, denied, decided_at, declined_at)
            VALUES (\(userID), \(granted), \(denied), \(decided), \(declined))
            ON CONFLICT (user_id) DO UPDATE SET granted = excluded.granted, denied = excluded.denied,
                decided_at = excluded.decided_at, declined_at = excluded.declined_at
            """, logger: logger)
    }

    public func createSession(idHash: Data, userID: String, csrfToken: String, now: Date, expiresAt: Date) async throws {
        let now = now.timeIntervalSince1970
        let expires = expiresAt.timeIntervalSince1970
        try await client.withTransaction(logger: logger) { connection in
            // Expired sessions go as new ones come.
            try await connection.query("DELETE FROM web_session WHERE expires_at <= \(now)", logger: logger)
            try await connection.query(
                """
                INSERT INTO web_session (id_hash, user_id, csrf_token, created_at, expires_at)
                VALUES (\(idHash), \(userID), \(csrfToken), \(now), \(expires))
                """, logger: logger)
        }
    }

    public func session(idHash: Data, now: Date) async throws -> (user: User, csrfToken: String)? {
        let instant = now.timeIntervalSince1970
        // A session is the owner's: it lives while the user and their owner token do.
        let rows = try await client.query(
            """
            SELECT \(unescaped: ServerSchema.userTokenColumns), s.csrf_token FROM web_session s
            JOIN users u ON u.id = s.user_id
            JOIN api_token t ON t.user_id = u.id AND t.role = 'owner' AND t.revoked_at IS NULL
            WHERE s.id_hash = \(idHash) AND s.expires_at > \(instant) AND u.revoked_at IS NULL
            """, logger: logger)
        for try await row in rows {
            return (try Self.user(row), try row.makeRandomAccess()[12].decode(String.self))
        }
        return nil
    }

    public func deleteSession(idHash: Data) async throws {
        try await client.query("DELETE FROM web_session WHERE id_hash = \(idHash)", logger: logger)
    }
}

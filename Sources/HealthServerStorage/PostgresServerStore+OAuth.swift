import Foundation
import HealthCore
import HealthServerRecords
import Logging
import PostgresNIO

/// OAuth clients, codes and tokens in PostgreSQL (``OAuthRepository``); each change is one
/// transaction, and a code or refresh token is claimed by a conditional update, so two
/// servers redeeming one at once give it to one of them.
extension PostgresServerStore: OAuthRepository {
    public func registerClient(_ client: OAuthClient, limit: Int, now: Date) async throws {
        let uris = try OAuthStorage.encode(client.redirectURIs)
        let forgotten = now.timeIntervalSince1970 - OAuthStorage.unusedClientLifetime
        let idle = now.timeIntervalSince1970 - OAuthStorage.idleClientLifetime
        let created = client.createdAt.timeIntervalSince1970
        do {
            try await self.client.withTransaction(logger: logger) { connection in
                // One registration at a time across servers: the count and the insert agree.
                try await connection.query("LOCK TABLE oauth_client IN SHARE ROW EXCLUSIVE MODE", logger: logger)
                try await connection.query(
                    """
                    DELETE FROM oauth_client c WHERE (c.used_at IS NULL AND c.created_at < \(forgotten))
                        OR (c.used_at < \(idle) AND NOT EXISTS (SELECT 1 FROM oauth_token t WHERE t.client_id = c.id))
                    """, logger: logger)
                let count =
                    try await connection.query("SELECT count(*) FROM oauth_client", logger: logger)
                    .collect().first?.decode(Int.self) ?? 0
                guard count < limit else { throw OAuthError.tooManyClients }
                try await connection.query(
                    """
                    INSERT INTO oauth_client (id, name, redirect_uris, created_at)
                    VALUES (\(client.id), \(client.name), \(uris), \(created))
                    """, logger: logger)
            }
        } catch let error as PostgresTransactionError where error.closureError is OAuthError {
            throw OAuthError.tooManyClients
        }
    }

    public func registeredClient(id: String) async throws -> OAuthClient? {
        let rows = try await self.client.query(
            "SELECT id, name, redirect_uris, created_at FROM oauth_client WHERE id = \(id)", logger: logger)
        for try await (id, name, uris, created) in rows.decode((String, String, String, Double).self) {
            return OAuthClient(
                id: id, name: name, redirectURIs: try OAuthStorage.decode(uris), createdAt: Date(timeIntervalSince1970: created))
        }
        return nil
    }

    public func saveCode(_ code: OAuthCode, now: Date) async throws {
        let instant = now.timeIntervalSince1970
        let forgotten = instant - OAuthStorage.spentCodeMemory
        let kinds = HealthDataCategory.list(code.kinds)
        let expires = code.expiresAt.timeIntervalSince1970
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("DELETE FROM oauth_code WHERE expires_at < \(forgotten)", logger: logger)
            try await connection.query(
                """
                INSERT INTO oauth_code (hash, client_id, user_id, redirect_uri, challenge, resource, kinds, expires_at)
                VALUES (\(code.hash), \(code.clientID), \(code.userID), \(code.redirectURI), \(code.challenge),
                    \(code.resource), \(kinds), \(expires))
                """, logger: logger)
            try await connection.query(
                "UPDATE oauth_client SET used_at = \(instant) WHERE id = \(code.clientID)", logger: logger)
        }
    }

    public func code(hash: Data) async throws -> OAuthCode? {
        let rows = try await client.query(
            """
            SELECT client_id, user_id, redirect_uri, challenge, resource, kinds, expires_at, used_at
            FROM oauth_code WHERE hash = \(hash)
            """, logger: logger)
        for try await columns in rows.decode((String, String, String, String, String, String, Double, Double?).self) {
            return OAuthCode(
                hash: hash, clientID: columns.0, userID: columns.1, redirectURI: columns.2, challenge: columns.3,
                resource: columns.4, kinds: HealthDataCategory.parse(columns.5) ?? [],
                expiresAt: Date(timeIntervalSince1970: columns.6), usedAt: columns.7.map(Date.init(timeIntervalSince1970:)))
        }
        return nil
    }

    public func redeemCode(hash: Data, grantName: String, tokens: OAuthTokenPair, now: Date) async throws -> APIToken? {
        let instant = now.timeIntervalSince1970
        return try await client.withTransaction(logger: logger) { connection in
            let claimed = try await connection.query(
                """
                UPDATE oauth_code SET used_at = \(instant) WHERE hash = \(hash) AND used_at IS NULL
                RETURNING user_id, kinds
                """, logger: logger
            ).collect()
            guard let row = claimed.first else {
                // A replay: the grant the first redemption made ends, with all its tokens.
                try await connection.query(
                    """
                    UPDATE api_token SET revoked_at = \(instant)
                    WHERE id = (SELECT grant_id FROM oauth_code WHERE hash = \(hash)) AND revoked_at IS NULL
                    """, logger: logger)
                return nil
            }
            let (userID, kinds) = try row.decode((String, String).self)
            let live = try await connection.query(
                "SELECT 1 FROM users WHERE id = \(userID) AND revoked_at IS NULL FOR SHARE", logger: logger
            ).collect()
            guard !live.isEmpty else { return nil }
            let secret = BearerToken.generate()
            let grant = APIToken.connected(
                id: secret.id, name: grantName, readTypes: HealthDataCategory.parse(kinds) ?? [], createdAt: now)
            try await Self.insert(grant, hash: secret.secretHash, userID: userID, connection, logger: logger)
            try await connection.query("UPDATE oauth_code SET grant_id = \(grant.id) WHERE hash = \(hash)", logger: logger)
            try await Self.store(tokens, grantID: grant.id, userID: userID, now: now, connection, logger: logger)
            return grant
        }
    }

    public func refresh(
        _ token: BearerToken, clientID: String, resource: String, with tokens: OAuthTokenPair, now: Date
    ) async throws -> OAuthRefresh {
        guard token.kind == .refresh else { return .invalid }
        let instant = now.timeIntervalSince1970
        return try await client.withTransaction(logger: logger) { connection in
            // The row locked: of two refreshes with one token, the second sees it used.
            let rows = try await connection.query(
                """
                SELECT \(unescaped: ServerSchema.userTokenColumns), o.hash, o.client_id, o.resource, o.expires_at,
                    o.used_at
                FROM oauth_token o JOIN api_token t ON t.id = o.grant_id JOIN users u ON u.id = o.user_id
                WHERE o.id = \(token.id) AND o.kind = 'refresh' FOR UPDATE OF o
                """, logger: logger
            ).collect()
            guard let row = rows.first else { return .invalid }
            let columns = row.makeRandomAccess()
            let user = try Self.user(row)
            guard token.matches(try columns[12].decode(Data.self)), try columns[13].decode(String.self) == clientID,
                try columns[14].decode(String.self) == resource, try columns[15].decode(Double.self) > instant,
                user.revokedAt == nil, user.token.revokedAt == nil
            else { return .invalid }
            guard try columns[16].decode(Double?.self) == nil else {
                try await connection.query(
                    "UPDATE api_token SET revoked_at = \(instant) WHERE id = \(user.token.id)", logger: logger)
                return .reused
            }
            try await connection.query("UPDATE oauth_token SET used_at = \(instant) WHERE id = \(token.id)", logger: logger)
            try await Self.store(tokens, grantID: user.token.id, userID: user.id, now: now, connection, logger: logger)
            return .rotated(grant: user.token)
        }
    }

    public func authenticateAccess(_ token: BearerToken, now: Date) async throws -> (user: User, resource: String)? {
        guard token.kind == .access else { return nil }
        let rows = try await client.query(
            """
            SELECT \(unescaped: ServerSchema.userTokenColumns), o.hash, o.resource, o.expires_at
            FROM oauth_token o JOIN api_token t ON t.id = o.grant_id JOIN users u ON u.id = o.user_id
            WHERE o.id = \(token.id) AND o.kind = 'access'
            """, logger: logger)
        for try await row in rows {
            let columns = row.makeRandomAccess()
            let user = try Self.user(row)
            guard token.matches(try columns[12].decode(Data.self)),
                try columns[14].decode(Double.self) > now.timeIntervalSince1970, user.revokedAt == nil,
                user.token.revokedAt == nil
            else { return nil }
            return (user, try columns[13].decode(String.self))
        }
        return nil
    }

    public func revokeOAuthToken(_ token: BearerToken, clientID: String) async throws {
        let rows = try await client.query(
            "SELECT hash, client_id, grant_id, kind FROM oauth_token WHERE id = \(token.id)", logger: logger)
        for try await (hash, owner, grant, kind) in rows.decode((Data, String, String, String).self) {
            guard token.matches(hash), owner == clientID, kind == token.kind.stored else { return }
            if token.kind == .refresh {
                let now = Date().timeIntervalSince1970
                try await client.query(
                    "UPDATE api_token SET revoked_at = \(now) WHERE id = \(grant) AND revoked_at IS NULL", logger: logger)
            } else {
                try await client.query("DELETE FROM oauth_token WHERE id = \(token.id)", logger: logger)
            }
            return
        }
    }

    /// Stores both tokens of `tokens` for the grant in `connection`'s transaction, forgetting
    /// tokens expired by `now`.
    private static func store(
        _ tokens: OAuthTokenPair, grantID: String, userID: String, now: Date, _ connection: PostgresConnection,
        logger: Logger
    ) async throws {
        let instant = now.timeIntervalSince1970
        try await connection.query("DELETE FROM oauth_token WHERE expires_at < \(instant)", logger: logger)
        for (token, expires) in [(tokens.access, tokens.accessExpiresAt), (tokens.refresh, tokens.refreshExpiresAt)] {
            let (kind, ends) = (token.kind.stored, expires.timeIntervalSince1970)
            try await connection.query(
                """
                INSERT INTO oauth_token (id, kind, hash, user_id, grant_id, client_id, resource, expires_at)
                VALUES (\(token.id), \(kind), \(token.secretHash), \(userID), \(grantID), \(tokens.clientID),
                    \(tokens.resource), \(ends))
                """, logger: logger)
        }
    }
}

import Foundation
import GRDB
import HealthCore
import HealthServerRecords

/// OAuth clients, codes and tokens in SQLite (``OAuthRepository``).
extension SQLiteServerStore: OAuthRepository {
    public func registerClient(_ client: OAuthClient, limit: Int, now: Date) async throws {
        let uris = try OAuthStorage.encode(client.redirectURIs)
        try await pool.write { db in
            try db.execute(
                sql: """
                    DELETE FROM oauth_client WHERE (used_at IS NULL AND created_at < ?)
                        OR (used_at < ? AND NOT EXISTS (SELECT 1 FROM oauth_token t WHERE t.client_id = oauth_client.id))
                    """,
                arguments: [
                    now.timeIntervalSince1970 - OAuthStorage.unusedClientLifetime,
                    now.timeIntervalSince1970 - OAuthStorage.idleClientLifetime,
                ])
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM oauth_client") ?? 0 < limit else {
                throw OAuthError.tooManyClients
            }
            try db.execute(
                sql: "INSERT INTO oauth_client (id, name, redirect_uris, created_at) VALUES (?,?,?,?)",
                arguments: [client.id, client.name, uris, client.createdAt.timeIntervalSince1970])
        }
    }

    public func registeredClient(id: String) async throws -> OAuthClient? {
        let row = try await pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT id, name, redirect_uris, created_at FROM oauth_client WHERE id = ?", arguments: [id])
        }
        guard let row else { return nil }
        return OAuthClient(
            id: row[0], name: row[1], redirectURIs: try OAuthStorage.decode(row[2]),
            createdAt: Date(timeIntervalSince1970: row[3]))
    }

    public func saveCode(_ code: OAuthCode, now: Date) async throws {
        try await pool.write { db in
            try db.execute(
                sql: "DELETE FROM oauth_code WHERE expires_at < ?",
                arguments: [now.timeIntervalSince1970 - OAuthStorage.spentCodeMemory])
            try db.execute(
                sql: """
                    INSERT INTO oauth_code (hash, client_id, user_id, redirect_uri, challenge, resource, kinds, expires_at)
                    VALUES (?,?,?,?,?,?,?,?)
                    """,
                arguments: [
                    code.hash, code.clientID, code.userID, code.redirectURI, code.challenge, code.resource,
                    HealthDataCategory.list(code.kinds), code.expiresAt.timeIntervalSince1970,
                ])
            try db.execute(
                sql: "UPDATE oauth_client SET used_at = ? WHERE id = ?",
                arguments: [now.timeIntervalSince1970, code.clientID])
        }
    }

    public func code(hash: Data) async throws -> OAuthCode? {
        try await pool.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT hash, client_id, user_id, redirect_uri, challenge, resource, kinds, expires_at, used_at
                    FROM oauth_code WHERE hash = ?
                    """, arguments: [hash]
            ).map { row in
                OAuthCode(
                    hash: row[0], clientID: row[1], userID: row[2], redirectURI: row[3], challenge: row[4],
                    resource: row[5], kinds: HealthDataCategory.parse(row[6]) ?? [],
                    expiresAt: Date(timeIntervalSince1970: row[7]),
                    usedAt: (row[8] as Double?).map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    public func redeemCode(hash: Data, grantName: String, tokens: OAuthTokenPair, now: Date) async throws -> APIToken? {
        try await pool.write { db in
            let instant = now.timeIntervalSince1970
            try db.execute(
                sql: "UPDATE oauth_code SET used_at = ? WHERE hash = ? AND used_at IS NULL", arguments: [instant, hash])
            guard db.changesCount == 1 else {
                // A replay: the grant the first redemption made ends, with all its tokens.
                try db.execute(
                    sql: """
                        UPDATE api_token SET revoked_at = ?
                        WHERE id = (SELECT grant_id FROM oauth_code WHERE hash = ?) AND revoked_at IS NULL
                        """, arguments: [instant, hash])
                return nil
            }
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT c.user_id, c.kinds FROM oauth_code c JOIN user u ON u.id = c.user_id
                        WHERE c.hash = ? AND u.revoked_at IS NULL
                        """, arguments: [hash])
            else { return nil }
            let userID: String = row[0]
            let secret = BearerToken.generate()
            let grant = APIToken.connected(
                id: secret.id, name: grantName, readTypes: HealthDataCategory.parse(row[1]) ?? [], createdAt: now)
            try Self.insert(grant, hash: secret.secretHash, userID: userID, db)
            try db.execute(sql: "UPDATE oauth_code SET grant_id = ? WHERE hash = ?", arguments: [grant.id, hash])
            try Self.store(tokens, grantID: grant.id, userID: userID, now: now, db)
            return grant
        }
    }

    public func refresh(
        _ token: BearerToken, clientID: String, resource: String, with tokens: OAuthTokenPair, now: Date
    ) async throws -> OAuthRefresh {
        guard token.kind == .refresh else { return .invalid }
        return try await pool.write { db in
            let instant = now.timeIntervalSince1970
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT \(ServerSchema.userTokenColumns), o.hash, o.client_id, o.resource, o.expires_at,
                            o.used_at
                        FROM oauth_token o JOIN api_token t ON t.id = o.grant_id JOIN user u ON u.id = o.user_id
                        WHERE o.id = ? AND o.kind = 'refresh'
                        """, arguments: [token.id]),
                token.matches(row[12]), (row[13] as String) == clientID, (row[14] as String) == resource,
                (row[15] as Double) > instant
            else { return .invalid }
            let user = Self.user(row)
            guard user.revokedAt == nil, user.token.revokedAt == nil else { return .invalid }
            guard (row[16] as Double?) == nil else {
                try db.execute(sql: "UPDATE api_token SET revoked_at = ? WHERE id = ?", arguments: [instant, user.token.id])
                return .reused
            }
            try db.execute(sql: "UPDATE oauth_token SET used_at = ? WHERE id = ?", arguments: [instant, token.id])
            try Self.store(tokens, grantID: user.token.id, userID: user.id, now: now, db)
            return .rotated(grant: user.token)
        }
    }

    public func authenticateAccess(_ token: BearerToken, now: Date) async throws -> (user: User, resource: String)? {
        guard token.kind == .access else { return nil }
        return try await pool.read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT \(ServerSchema.userTokenColumns), o.hash, o.resource, o.expires_at
                        FROM oauth_token o JOIN api_token t ON t.id = o.grant_id JOIN user u ON u.id = o.user_id
                        WHERE o.id = ? AND o.kind = 'access'
                        """, arguments: [token.id]),
                token.matches(row[12]), (row[14] as Double) > now.timeIntervalSince1970
            else { return nil }
            let user = Self.user(row)
            guard user.revokedAt == nil, user.token.revokedAt == nil else { return nil }
            return (user, row[13])
        }
    }

    public func revokeOAuthToken(_ token: BearerToken, clientID: String) async throws {
        try await pool.write { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT hash, client_id, grant_id, kind FROM oauth_token WHERE id = ?", arguments: [token.id]),
                token.matches(row[0]), (row[1] as String) == clientID, (row[3] as String) == token.kind.stored
            else { return }
            if token.kind == .refresh {
                try db.execute(
                    sql: "UPDATE api_token SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
                    arguments: [Date().timeIntervalSince1970, row[2] as String])
            } else {
                try db.execute(sql: "DELETE FROM oauth_token WHERE id = ?", arguments: [token.id])
            }
        }
    }

    /// Stores both tokens of `tokens` for the grant, forgetting tokens expired by `now`.
    private static func store(_ tokens: OAuthTokenPair, grantID: String, userID: String, now: Date, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM oauth_token WHERE expires_at < ?", arguments: [now.timeIntervalSince1970])
        for (token, expires) in [(tokens.access, tokens.accessExpiresAt), (tokens.refresh, tokens.refreshExpiresAt)] {
            try db.execute(
                sql: """
                    INSERT INTO oauth_token (id, kind, hash, user_id, grant_id, client_id, resource, expires_at)
                    VALUES (?,?,?,?,?,?,?,?)
                    """,
                arguments: [
                    token.id, token.kind.stored, token.secretHash, userID, grantID, tokens.clientID, tokens.resource,
                    expires.timeIntervalSince1970,
                ])
        }
    }
}

/// What both stores share of the OAuth tables.
enum OAuthStorage {
    /// A client registered and never used is forgotten after a day.
    static let unusedClientLifetime: TimeInterval = 86_400
    /// A client that has no token left (none unexpired: every connection of it ended) and
    /// was last authorized 30 days ago is forgotten too, so that clients approved once do
    /// not hold their places for ever.
    static let idleClientLifetime: TimeInterval = 30 * 86_400
    /// Codes are kept a day past their expiry, so a replay is still known as one.
    static let spentCodeMemory: TimeInterval = 86_400

    static func encode(_ uris: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(uris), as: UTF8.self)
    }

    static func decode(_ text: String) throws -> [String] {
        try JSONDecoder().decode([String].self, from: Data(text.utf8))
    }
}

import Foundation
import HealthCore
import HealthServerRecords

/// The columns and values both stores read and write the same way.
extension ServerSchema {
    /// The zone of most of a user's `norm_v1` days (the latest of equals), `NULL` without any.
    static func homeZoneOfDays(_ user: String) -> String {
        """
        SELECT d.timezone FROM daily_metrics d WHERE d.user_id = \(user) AND d.normalization_version = 'norm_v1'
        GROUP BY d.timezone ORDER BY COUNT(*) DESC, MAX(d.local_date) DESC LIMIT 1
        """
    }

    /// The columns the stores read into a ``User`` with one of their tokens, `u` the user's
    /// row and `t` the token's (same names on both backends; read by position).
    static let userTokenColumns = """
        u.id, u.name, u.created_at, u.revoked_at, t.id, t.role, t.name, t.scopes, t.read_types, t.write_types, \
        t.created_at, t.revoked_at
        """

    /// The columns of a token alone, in the order of the last eight of ``userTokenColumns``.
    static let tokenColumns = "id, role, name, scopes, read_types, write_types, created_at, revoked_at"

    /// A token from the stored values of ``tokenColumns``.
    static func token(
        id: String, role: String, name: String, scopes: String, readTypes: String?, writeTypes: String?,
        createdAt: Double, revokedAt: Double?
    ) -> APIToken {
        APIToken(
            id: id, role: APIToken.Role(rawValue: role) ?? .scoped, name: name, scopes: Scope.parse(scopes) ?? [],
            readTypes: readTypes.map { HealthDataCategory.parse($0) ?? [] },
            writeTypes: writeTypes.map { HealthDataCategory.parse($0) ?? [] },
            createdAt: Date(timeIntervalSince1970: createdAt),
            revokedAt: revokedAt.map(Date.init(timeIntervalSince1970:)))
    }

    /// How a list of kinds is stored: `NULL` for every kind, `''` for none, else `steps,sleep`.
    static func storedKinds(_ kinds: Set<HealthDataCategory>?) -> String? {
        kinds.map(HealthDataCategory.list)
    }
}

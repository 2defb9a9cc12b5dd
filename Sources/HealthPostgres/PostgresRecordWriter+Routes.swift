import Foundation
import HealthCore
import PostgresNIO

extension PostgresRecordWriter {
    /// Gives the stored copy of a workout (content key `key`) the points of its `routes` that
    /// it was stored without — its export's XML imported alone, the GPX files not beside it,
    /// and later the whole export — as the SQLite writer does: a stored route takes them only
    /// when it has none and names the same file at the same position. Whether any route took
    /// points.
    func attachRoutePoints(_ routes: [WorkoutRoute], key: ContentKey) async throws -> Bool {
        var stored: (uuid: UUID, details: String)?
        for try await row in try await connection.query(
            """
            SELECT uuid, details::text FROM health_sample
            WHERE user_id = \(userID) AND content_key = \(key.storedUUID) AND details IS NOT NULL
            """, logger: logger
        ).decode((UUID, String).self) {
            stored = row
        }
        guard let stored else { return false }
        var details = try JSONText.decode(WorkoutDetails.self, from: stored.details)
        var attached = false
        for position in details.routes.indices where details.routes[position].points.isEmpty {
            guard routes.indices.contains(position), !routes[position].points.isEmpty,
                routes[position].filePath == details.routes[position].filePath
            else { continue }
            details.routes[position].points = routes[position].points
            attached = true
        }
        guard attached else { return false }
        try await connection.query(
            """
            UPDATE health_sample SET details = \(try details.json())::jsonb
            WHERE user_id = \(userID) AND uuid = \(stored.uuid)
            """, logger: logger)
        return true
    }
}

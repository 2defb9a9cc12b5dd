import Foundation
import HealthCore
import PostgresNIO

extension PostgresRecordWriter {
    /// Gives the stored copies of workouts the points of their routes that they were stored
    /// without — their export's XML imported alone, the GPX files not beside it, and later the
    /// whole export — as the SQLite writer does: a stored route takes them only when it has
    /// none and names the same file at the same position. `workouts` are the content keys and
    /// routes of a flush's duplicate workouts that have points; one statement finds those
    /// stored with a route without points (rare), and each of them is updated. The keys of
    /// the workouts that took points.
    func attachRoutePoints(_ workouts: [(key: ContentKey, routes: [WorkoutRoute])]) async throws -> Set<UUID> {
        guard !workouts.isEmpty else { return [] }
        let routes = Dictionary(workouts.map { ($0.key.storedUUID, $0.routes) }, uniquingKeysWith: { first, _ in first })
        var bare: [(key: UUID, uuid: UUID, details: String)] = []
        for try await row in try await connection.query(
            """
            SELECT content_key, uuid, details::text FROM health_sample
            WHERE user_id = \(userID) AND content_key = ANY(\(Array(routes.keys))) AND details IS NOT NULL
                AND CASE WHEN jsonb_typeof(details->'routes') = 'array' THEN EXISTS (
                    SELECT 1 FROM jsonb_array_elements(details->'routes') r
                    WHERE coalesce(jsonb_array_length(r->'points'), 0) = 0) ELSE false END
            """, logger: logger
        ).decode((UUID, UUID, String).self) {
            bare.append(row)
        }
        var attached = Set<UUID>()
        for stored in bare {
            guard let incoming = routes[stored.key] else { continue }
            var details = try JSONText.decode(WorkoutDetails.self, from: stored.details)
            var changed = false
            for position in details.routes.indices where details.routes[position].points.isEmpty {
                guard incoming.indices.contains(position), !incoming[position].points.isEmpty,
                    incoming[position].filePath == details.routes[position].filePath
                else { continue }
                details.routes[position].points = incoming[position].points
                changed = true
            }
            guard changed else { continue }
            try await connection.query(
                """
                UPDATE health_sample SET details = \(try details.json())::jsonb
                WHERE user_id = \(userID) AND uuid = \(stored.uuid)
                """, logger: logger)
            attached.insert(stored.key)
        }
        return attached
    }
}

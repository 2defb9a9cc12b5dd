import Foundation
import GRDB
import HealthCore

extension RecordWriter {
    /// Stores `workout` with its details; a workout stored already is a duplicate, unless it
    /// was stored without the points of a route that now has them (``attachRoutePoints``).
    func writeWorkout(_ workout: Workout, key: ContentKey) throws -> RecordWrite {
        guard let anchor = try writeSample(workout.header, key: key) else {
            return try attachRoutePoints(workout, key: key) ? .updated : .unchanged
        }
        insertWorkout.bind(anchor)
        insertWorkout.bind(workout.activityType)
        insertWorkout.bind(workout.duration)
        insertWorkout.bind(workout.durationUnit)
        insertWorkout.bind(workout.totalDistance)
        insertWorkout.bind(workout.totalDistanceUnit)
        insertWorkout.bind(workout.totalEnergyBurned)
        insertWorkout.bind(workout.totalEnergyBurnedUnit)
        insertWorkout.bind(workout.extras.isEmpty ? nil : try JSONText.encode(workout.extras))
        try insertWorkout.run()
        for (position, event) in workout.events.enumerated() {
            insertEvent.bind(anchor)
            insertEvent.bind(position)
            insertEvent.bind(event.type)
            insertEvent.bind(event.date)
            insertEvent.bind(event.duration)
            insertEvent.bind(event.durationUnit)
            try insertEvent.run()
            try writeMetadata(event.metadata, owner: .workoutEvent, id: insertEvent.lastInsertedRowID)
        }
        for (position, statistic) in workout.statistics.enumerated() {
            insertStatistic.bind(anchor)
            insertStatistic.bind(position)
            insertStatistic.bind(statistic.type.identifier)
            insertStatistic.bind(statistic.start)
            insertStatistic.bind(statistic.end)
            insertStatistic.bind(statistic.average)
            insertStatistic.bind(statistic.minimum)
            insertStatistic.bind(statistic.maximum)
            insertStatistic.bind(statistic.sum)
            insertStatistic.bind(statistic.unit)
            try insertStatistic.run()
        }
        for (position, route) in workout.routes.enumerated() {
            insertRoute.bind(anchor)
            insertRoute.bind(position)
            insertRoute.bind(try route.source.map(sourceID))
            insertRoute.bind(try route.device.map(deviceID))
            insertRoute.bind(route.start)
            insertRoute.bind(route.end)
            insertRoute.bind(route.creationDate)
            insertRoute.bind(route.filePath)
            insertRoute.bind(route.points.isEmpty ? 0 : 1)
            try insertRoute.run()
            let routeID = insertRoute.lastInsertedRowID
            try writeMetadata(route.metadata, owner: .workoutRoute, id: routeID)
            try writePoints(route.points, route: routeID)
        }
        return .added
    }

    /// Gives the stored copy of an export's `workout` the points of its routes that it was
    /// stored without: its export's XML imported alone (the GPX files not beside it) and later
    /// the whole export. A stored route takes them only when it has none and names the same
    /// file at the same position. Whether any route took points.
    private func attachRoutePoints(_ workout: Workout, key: ContentKey) throws -> Bool {
        // An export's workout only: one with a writer-given UUID may have been stored under
        // a key of its own (docs/store.md §Identity), and `key` would find another's.
        guard workout.givenUUID == nil, workout.routes.contains(where: { !$0.points.isEmpty }),
            let anchor = try storedAnchor(of: workout.header, key: key)
        else { return false }
        let bare = try Row.fetchAll(
            db,
            sql: """
                SELECT id, position, file_path FROM workout_route r
                WHERE workout = ? AND NOT EXISTS (SELECT 1 FROM route_point p WHERE p.route = r.id)
                """, arguments: [anchor])
        var attached = false
        for row in bare {
            let (id, position, path): (Int64, Int, String?) = (row[0], row[1], row[2])
            guard workout.routes.indices.contains(position) else { continue }
            let route = workout.routes[position]
            guard !route.points.isEmpty, route.filePath == path else { continue }
            try writePoints(route.points, route: id)
            try db.execute(sql: "UPDATE workout_route SET points_loaded = 1 WHERE id = ?", arguments: [id])
            attached = true
        }
        return attached
    }

    /// Stores the points of a route (inline `Location`s, or read from its GPX file).
    func writePoints(_ points: [RoutePoint], route: Int64) throws {
        try pointRows.begin(rows: points.count)
        for (position, point) in points.enumerated() {
            try pointRows.addRow { row in
                row.bind(route)
                row.bind(position)
                row.bind(point.time)
                row.bind(point.latitude)
                row.bind(point.longitude)
                row.bind(point.elevation)
                row.bind(point.speed)
                row.bind(point.course)
                row.bind(point.horizontalAccuracy)
                row.bind(point.verticalAccuracy)
            }
        }
    }
}

import Foundation
import GRDB
import HealthCore

extension RecordWriter {
    func writeWorkout(_ workout: Workout, key: ContentKey) throws -> Bool {
        guard let anchor = try writeSample(workout.header, key: key) else { return false }
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
        return true
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

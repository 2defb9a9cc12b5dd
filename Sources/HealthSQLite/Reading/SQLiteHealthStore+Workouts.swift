import Foundation
import GRDB
import HealthCore

extension SQLiteHealthStore {
    public func workoutRoutes(overlapping interval: DateInterval, maxPoints: Int) async throws -> [UUID: [RoutePoint]] {
        try await database.pool.read { db in
            guard let (typeID, maxDuration) = try Self.typeInfo(db, .workout) else { return [:] }
            let (condition, arguments) = Self.overlapping(interval, typeID: typeID, maxDuration: maxDuration)
            let workouts = try Self.fetchWithAnchors(db, where: condition, arguments: arguments)
            var routes: [UUID: [RoutePoint]] = [:]
            let statement = try db.cachedStatement(
                sql: """
                    SELECT p.time, p.latitude, p.longitude, p.elevation, p.speed, p.course, p.horizontal_accuracy,
                           p.vertical_accuracy
                    FROM workout_route r JOIN route_point p ON p.route = r.id
                    WHERE r.workout = ? ORDER BY r.position, p.position
                    """)
            for workout in workouts {
                let points = try Row.fetchAll(statement, arguments: [workout.anchor]).map { row in
                    RoutePoint(
                        time: (row[0] as Double?).map(Date.init(timeIntervalSince1970:)), latitude: row[1], longitude: row[2],
                        elevation: row[3], speed: row[4], course: row[5], horizontalAccuracy: row[6], verticalAccuracy: row[7])
                }
                if !points.isEmpty { routes[workout.sample.uuid] = points.thinned(to: maxPoints) }
            }
            return routes
        }
    }

    public func workoutTotals(overlapping interval: DateInterval) async throws -> [UUID: WorkoutTotals] {
        try await database.pool.read { db in
            guard let (typeID, maxDuration) = try Self.typeInfo(db, .workout) else { return [:] }
            let (condition, arguments) = Self.overlapping(interval, typeID: typeID, maxDuration: maxDuration)
            let workouts = try Self.fetchWithAnchors(db, where: condition, arguments: arguments)
            let totals = try db.cachedStatement(
                sql: """
                    SELECT total_energy_burned, total_energy_burned_unit, total_distance, total_distance_unit
                    FROM workout WHERE anchor = ?
                    """)
            let statistics = try db.cachedStatement(
                sql: """
                    SELECT type, start, end, average, minimum, maximum, sum, unit
                    FROM workout_statistic WHERE workout = ? ORDER BY position
                    """)
            func date(_ value: Double?) -> Date? { value.map(Date.init(timeIntervalSince1970:)) }
            var answer: [UUID: WorkoutTotals] = [:]
            for workout in workouts {
                guard let row = try Row.fetchOne(totals, arguments: [workout.anchor]) else { continue }
                let recorded = WorkoutTotals(
                    totalEnergyBurned: row[0], totalEnergyBurnedUnit: row[1], totalDistance: row[2], totalDistanceUnit: row[3],
                    statistics: try Row.fetchAll(statistics, arguments: [workout.anchor]).map { figure in
                        WorkoutStatistic(
                            type: SampleType(figure[0]), start: date(figure[1]), end: date(figure[2]), average: figure[3],
                            minimum: figure[4], maximum: figure[5], sum: figure[6], unit: figure[7])
                    })
                if !recorded.isEmpty { answer[workout.sample.uuid] = recorded }
            }
            return answer
        }
    }

    public func workouts(overlapping interval: DateInterval) async throws -> [Workout] {
        try await database.pool.read { db in
            guard let (typeID, maxDuration) = try Self.typeInfo(db, .workout) else { return [] }
            let (condition, arguments) = Self.overlapping(interval, typeID: typeID, maxDuration: maxDuration)
            return try Self.fetchWithAnchors(db, where: condition + " ORDER BY s.start, s.anchor", arguments: arguments)
                .map { anchor, header in
                    Workout(header: header, details: try HealthDatabase.workoutDetails(db, anchor: anchor, withRoutes: false))
                }
        }
    }

    public func workout(_ uuid: UUID) async throws -> Workout? {
        try await database.pool.read { db in
            guard let (typeID, _) = try Self.typeInfo(db, .workout) else { return nil }
            // A writer-given UUID is stored; any other is derived from the content key (one of
            // the 64 keys that derive it).
            var found = try Self.fetchWithAnchors(
                db, where: "s.uuid = ? AND s.type_id = ?", arguments: [Data(uuid.bytes), typeID])
            if found.isEmpty, let range = ContentKey.keyRange(of: uuid) {
                found = try Self.fetchWithAnchors(
                    db, where: "s.content_key BETWEEN ? AND ? AND s.uuid IS NULL AND s.type_id = ?",
                    arguments: [Data(range.lowerBound.bytes), Data(range.upperBound.bytes), typeID])
            }
            guard let (anchor, header) = found.first(where: { $0.sample.uuid == uuid }) else { return nil }
            return Workout(header: header, details: try HealthDatabase.workoutDetails(db, anchor: anchor))
        }
    }

    public func activitySummary(on date: String) async throws -> ActivitySummary? {
        try await database.pool.read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT date, active_energy_burned, active_energy_burned_goal, active_energy_burned_unit,
                               apple_move_time, apple_move_time_goal, apple_exercise_time, apple_exercise_time_goal,
                               apple_stand_hours, apple_stand_hours_goal
                        FROM activity_summary WHERE date = ?
                        """, arguments: [date])
            else { return nil }
            var summary = ActivitySummary(dateComponents: row[0])
            summary.activeEnergyBurned = row[1]
            summary.activeEnergyBurnedGoal = row[2]
            summary.activeEnergyBurnedUnit = row[3]
            summary.appleMoveTime = row[4]
            summary.appleMoveTimeGoal = row[5]
            summary.appleExerciseTime = row[6]
            summary.appleExerciseTimeGoal = row[7]
            summary.appleStandHours = row[8]
            summary.appleStandHoursGoal = row[9]
            return summary
        }
    }
}

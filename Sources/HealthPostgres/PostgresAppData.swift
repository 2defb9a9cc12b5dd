import Foundation
import HealthCore
import PostgresNIO

/// ``AppDataRepository`` for one user in PostgreSQL (migration `health-v2`): the same
/// records as `SQLiteAppData`, keyed by user.
public struct PostgresAppData: AppDataRepository {
    let database: PostgresHealthDatabase
    let userID: String

    public init(store: PostgresHealthStore) {
        database = store.database
        userID = store.userID
    }

    /// Runs `body` in one transaction that first locks the user's owner row
    /// (``PostgresHealthDatabase/lockOwner(_:userID:)``): nothing is stored for a user
    /// deleted meanwhile (``HealthStoreOwnerGone``).
    private func writing<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let (database, userID) = (database, userID)
        do {
            return try await database.client.withTransaction(logger: database.logger) { connection in
                try await database.lockOwner(connection, userID: userID)
                return try await body(connection)
            }
        } catch let error as PostgresTransactionError {
            throw error.closureError ?? error.beginError ?? error.commitError ?? error
        }
    }

    /// The ids a write returns, run by ``writing(_:)``.
    private func writtenIDs(_ query: PostgresQuery) async throws -> [Int64] {
        let logger = database.logger
        return try await writing { connection in
            var ids: [Int64] = []
            for try await id in try await connection.query(query, logger: logger).decode(Int64.self) { ids.append(id) }
            return ids
        }
    }

    public func dailyLog(on date: LocalDate) async throws -> DailyLogEntry? {
        for try await (energy, mood, stress, note) in try await database.client.query(
            """
            SELECT energy, mood, stress, note FROM health_daily_log WHERE user_id = \(userID)
                AND local_date = \(date.description)
            """, logger: database.logger
        ).decode((Int?, Int?, Int?, String?).self) {
            // The table's CHECK constraints hold the 1–5 scale; a row that breaks it anyway
            // throws ``DailyLogError`` rather than stopping the process.
            return try DailyLogEntry(date: date, energy: energy, mood: mood, stress: stress, note: note)
        }
        return nil
    }

    @discardableResult
    public func saveDailyLog(_ entry: DailyLogEntry) async throws -> DailyLogEntry {
        // One statement: fields not given keep their stored value (`DailyLogEntry.merging`).
        let query: PostgresQuery = """
            INSERT INTO health_daily_log AS d (user_id, local_date, energy, mood, stress, note)
            VALUES (\(userID), \(entry.date.description), \(entry.energy), \(entry.mood), \(entry.stress), \(entry.note))
            ON CONFLICT (user_id, local_date) DO UPDATE SET energy = coalesce(EXCLUDED.energy, d.energy),
                mood = coalesce(EXCLUDED.mood, d.mood), stress = coalesce(EXCLUDED.stress, d.stress),
                note = coalesce(EXCLUDED.note, d.note)
            RETURNING energy, mood, stress, note
            """
        let logger = database.logger
        let stored: (Int?, Int?, Int?, String?)? = try await writing { connection in
            var stored: (Int?, Int?, Int?, String?)?
            let rows = try await connection.query(query, logger: logger)
            for try await row in rows.decode((Int?, Int?, Int?, String?).self) { stored = row }
            return stored
        }
        guard let stored else { return entry }
        return try DailyLogEntry(date: entry.date, energy: stored.0, mood: stored.1, stress: stored.2, note: stored.3)
    }

    public func addPlannedWorkout(_ workout: PlannedWorkout) async throws -> PlannedWorkout {
        var stored = workout
        stored.id = try await writtenIDs(
            """
            INSERT INTO health_planned_workout (user_id, name, scheduled_at, duration_minutes, started_at, finished_at)
            VALUES (\(userID), \(workout.name), \(workout.scheduledAt.timeIntervalSince1970), \(workout.durationMinutes),
                \(workout.startedAt?.timeIntervalSince1970), \(workout.finishedAt?.timeIntervalSince1970))
            RETURNING id
            """)[0]
        return stored
    }

    public func updatePlannedWorkout(_ workout: PlannedWorkout) async throws {
        let updated = try await writtenIDs(
            """
            UPDATE health_planned_workout SET name = \(workout.name),
                scheduled_at = \(workout.scheduledAt.timeIntervalSince1970), duration_minutes = \(workout.durationMinutes),
                started_at = \(workout.startedAt?.timeIntervalSince1970),
                finished_at = \(workout.finishedAt?.timeIntervalSince1970)
            WHERE user_id = \(userID) AND id = \(workout.id) RETURNING id
            """)
        guard updated.count == 1 else { throw AppDataError(missingWorkoutID: workout.id) }
    }

    public func plannedWorkout(id: Int64) async throws -> PlannedWorkout? {
        try await workouts("AND id = $2", [id]).first
    }

    public func plannedWorkouts(scheduledIn interval: DateInterval) async throws -> [PlannedWorkout] {
        try await workouts(
            "AND scheduled_at >= $2 AND scheduled_at < $3 ORDER BY scheduled_at, id",
            [interval.start.timeIntervalSince1970, interval.end.timeIntervalSince1970])
    }

    public func workoutInProgress(at instant: Date) async throws -> PlannedWorkout? {
        try await workouts(
            "AND started_at <= $2 AND (finished_at IS NULL OR finished_at > $2) ORDER BY started_at DESC, id DESC LIMIT 1",
            [instant.timeIntervalSince1970]
        ).first
    }

    @discardableResult
    public func recordCoachInteraction(_ interaction: CoachInteraction) async throws -> CoachInteraction {
        var stored = interaction
        stored.id = try await writtenIDs(
            """
            INSERT INTO health_coach_interaction (user_id, at, kind)
            VALUES (\(userID), \(interaction.at.timeIntervalSince1970), \(interaction.kind)) RETURNING id
            """)[0]
        return stored
    }

    public func lastCoachInteraction(atOrBefore instant: Date) async throws -> CoachInteraction? {
        for try await (id, at, kind) in try await database.client.query(
            """
            SELECT id, at, kind FROM health_coach_interaction WHERE user_id = \(userID)
                AND at <= \(instant.timeIntervalSince1970) ORDER BY at DESC, id DESC LIMIT 1
            """, logger: database.logger
        ).decode((Int64, Double, String).self) {
            return CoachInteraction(id: id, at: Date(timeIntervalSince1970: at), kind: kind)
        }
        return nil
    }

    /// Planned workouts of the user matching `clause` (parameters from `$2`).
    private func workouts(_ clause: String, _ values: [any PostgresDynamicTypeEncodable]) async throws -> [PlannedWorkout] {
        var bindings = PostgresBindings()
        bindings.append(userID)
        for value in values { bindings.append(value) }
        let query = PostgresQuery(
            unsafeSQL: """
                SELECT id, name, scheduled_at, duration_minutes, started_at, finished_at FROM health_planned_workout
                WHERE user_id = $1 \(clause)
                """, binds: bindings)
        var found: [PlannedWorkout] = []
        for try await (id, name, scheduled, minutes, started, finished) in try await database.client.query(
            query, logger: database.logger
        ).decode((Int64, String, Double, Int?, Double?, Double?).self) {
            found.append(
                PlannedWorkout(
                    id: id, name: name, scheduledAt: Date(timeIntervalSince1970: scheduled), durationMinutes: minutes,
                    startedAt: started.map(Date.init(timeIntervalSince1970:)),
                    finishedAt: finished.map(Date.init(timeIntervalSince1970:))))
        }
        return found
    }

    /// Stores another store's records (`healthpipe migrate`): planned workouts keep their
    /// ids (the identity is raised past them), interactions get new ones.
    package func copy(logs: [DailyLogEntry], plans: [PlannedWorkout], interactions: [CoachInteraction]) async throws {
        for entry in logs { try await saveDailyLog(entry) }
        for plan in plans {
            try await database.client.query(
                """
                INSERT INTO health_planned_workout (user_id, id, name, scheduled_at, duration_minutes, started_at,
                    finished_at)
                OVERRIDING SYSTEM VALUE
                VALUES (\(userID), \(plan.id), \(plan.name), \(plan.scheduledAt.timeIntervalSince1970),
                    \(plan.durationMinutes), \(plan.startedAt?.timeIntervalSince1970), \(plan.finishedAt?.timeIntervalSince1970))
                """, logger: database.logger)
        }
        if !plans.isEmpty {
            try await database.client.query(
                """
                SELECT setval(pg_get_serial_sequence('health_planned_workout', 'id'),
                    greatest((SELECT max(id) FROM health_planned_workout), 1))
                """, logger: database.logger)
        }
        for interaction in interactions { try await recordCoachInteraction(interaction) }
    }
}

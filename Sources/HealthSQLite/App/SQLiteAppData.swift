import Foundation
import GRDB
import HealthCore

/// ``AppDataRepository`` over the tables of migration `v2` in a ``HealthDatabase``: the
/// app's records live in the same file as the HealthKit data they annotate.
public struct SQLiteAppData: AppDataRepository {
    let database: HealthDatabase

    public init(database: HealthDatabase) { self.database = database }

    public func dailyLog(on date: LocalDate) async throws -> DailyLogEntry? {
        try await database.pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM daily_log WHERE local_date = ?", arguments: [date.description])
                .map(Self.dailyLog(from:))
        }
    }

    @discardableResult
    public func saveDailyLog(_ entry: DailyLogEntry) async throws -> DailyLogEntry {
        try await database.pool.write { db in
            let existing = try Row.fetchOne(
                db, sql: "SELECT * FROM daily_log WHERE local_date = ?", arguments: [entry.date.description]
            ).map(Self.dailyLog(from:))
            let merged = existing.map { $0.merging(entry) } ?? entry
            try db.execute(
                sql: "INSERT OR REPLACE INTO daily_log (local_date, energy, mood, stress, note) VALUES (?, ?, ?, ?, ?)",
                arguments: [merged.date.description, merged.energy, merged.mood, merged.stress, merged.note])
            return merged
        }
    }

    public func addPlannedWorkout(_ workout: PlannedWorkout) async throws -> PlannedWorkout {
        try await database.pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO planned_workout (name, scheduled_at, duration_minutes, started_at, finished_at)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: Self.arguments(workout))
            var stored = workout
            stored.id = db.lastInsertedRowID
            return stored
        }
    }

    public func updatePlannedWorkout(_ workout: PlannedWorkout) async throws {
        try await database.pool.write { db in
            var arguments = Self.arguments(workout)
            arguments += [workout.id]
            try db.execute(
                sql: """
                    UPDATE planned_workout SET name = ?, scheduled_at = ?, duration_minutes = ?, started_at = ?,
                    finished_at = ? WHERE id = ?
                    """,
                arguments: arguments)
            guard db.changesCount == 1 else { throw AppDataError(missingWorkoutID: workout.id) }
        }
    }

    public func plannedWorkout(id: Int64) async throws -> PlannedWorkout? {
        try await fetchWorkouts("id = ?", [id]).first
    }

    public func plannedWorkouts(scheduledIn interval: DateInterval) async throws -> [PlannedWorkout] {
        try await fetchWorkouts(
            "scheduled_at >= ? AND scheduled_at < ? ORDER BY scheduled_at, id",
            [interval.start.timeIntervalSince1970, interval.end.timeIntervalSince1970])
    }

    public func workoutInProgress(at instant: Date) async throws -> PlannedWorkout? {
        let seconds = instant.timeIntervalSince1970
        return try await fetchWorkouts(
            "started_at <= ? AND (finished_at IS NULL OR finished_at > ?) ORDER BY started_at DESC, id DESC LIMIT 1",
            [seconds, seconds]
        ).first
    }

    @discardableResult
    public func recordCoachInteraction(_ interaction: CoachInteraction) async throws -> CoachInteraction {
        try await database.pool.write { db in
            try db.execute(
                sql: "INSERT INTO coach_interaction (at, kind) VALUES (?, ?)",
                arguments: [interaction.at.timeIntervalSince1970, interaction.kind])
            var stored = interaction
            stored.id = db.lastInsertedRowID
            return stored
        }
    }

    public func lastCoachInteraction(atOrBefore instant: Date) async throws -> CoachInteraction? {
        try await database.pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM coach_interaction WHERE at <= ? ORDER BY at DESC, id DESC LIMIT 1",
                arguments: [instant.timeIntervalSince1970]
            ).map { CoachInteraction(id: $0["id"], at: Date(timeIntervalSince1970: $0["at"]), kind: $0["kind"]) }
        }
    }

    private func fetchWorkouts(_ clause: String, _ arguments: StatementArguments) async throws -> [PlannedWorkout] {
        try await database.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM planned_workout WHERE \(clause)", arguments: arguments).map { row in
                PlannedWorkout(
                    id: row["id"], name: row["name"], scheduledAt: Date(timeIntervalSince1970: row["scheduled_at"]),
                    durationMinutes: row["duration_minutes"],
                    startedAt: (row["started_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
                    finishedAt: (row["finished_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
            }
        }
    }

    private static func arguments(_ workout: PlannedWorkout) -> StatementArguments {
        [
            workout.name, workout.scheduledAt.timeIntervalSince1970, workout.durationMinutes,
            workout.startedAt?.timeIntervalSince1970, workout.finishedAt?.timeIntervalSince1970,
        ]
    }

    /// The table's CHECK constraints hold the 1–5 scale and the writers a `YYYY-MM-DD` date;
    /// a row that breaks them anyway (a file edited by hand) throws rather than trapping.
    private static func dailyLog(from row: Row) throws -> DailyLogEntry {
        guard let date = LocalDate(row["local_date"] as String) else {
            throw DatabaseError(message: "a daily_log row's local_date is not YYYY-MM-DD")
        }
        return try DailyLogEntry(
            date: date, energy: row["energy"], mood: row["mood"], stress: row["stress"], note: row["note"])
    }
}

extension HealthDatabase {
    /// The app's records (daily log, planned workouts, coach interactions) in this file.
    public var appData: SQLiteAppData { SQLiteAppData(database: self) }
}

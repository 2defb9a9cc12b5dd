import Foundation

/// An ``AppDataRepository`` held in memory, with the SQLite store's semantics.
public actor InMemoryAppData: AppDataRepository {
    private var logs: [LocalDate: DailyLogEntry] = [:]
    private var workouts: [Int64: PlannedWorkout] = [:]
    private var interactions: [CoachInteraction] = []

    public init() {}

    public func dailyLog(on date: LocalDate) -> DailyLogEntry? { logs[date] }

    @discardableResult
    public func saveDailyLog(_ entry: DailyLogEntry) -> DailyLogEntry {
        let merged = logs[entry.date].map { $0.merging(entry) } ?? entry
        logs[entry.date] = merged
        return merged
    }

    public func addPlannedWorkout(_ workout: PlannedWorkout) -> PlannedWorkout {
        var stored = workout
        stored.id = (workouts.keys.max() ?? 0) + 1
        workouts[stored.id] = stored
        return stored
    }

    public func updatePlannedWorkout(_ workout: PlannedWorkout) throws {
        guard workouts[workout.id] != nil else { throw AppDataError(missingWorkoutID: workout.id) }
        workouts[workout.id] = workout
    }

    public func plannedWorkout(id: Int64) -> PlannedWorkout? { workouts[id] }

    public func plannedWorkouts(scheduledIn interval: DateInterval) -> [PlannedWorkout] {
        workouts.values.filter { $0.scheduledAt >= interval.start && $0.scheduledAt < interval.end }
            .sorted { ($0.scheduledAt, $0.id) < ($1.scheduledAt, $1.id) }
    }

    public func workoutInProgress(at instant: Date) -> PlannedWorkout? {
        workouts.values.filter { $0.status(at: instant) == .inProgress }
            .max { ($0.startedAt!, $0.id) < ($1.startedAt!, $1.id) }
    }

    @discardableResult
    public func recordCoachInteraction(_ interaction: CoachInteraction) -> CoachInteraction {
        var stored = interaction
        stored.id = Int64(interactions.count + 1)
        interactions.append(stored)
        return stored
    }

    public func lastCoachInteraction(atOrBefore instant: Date) -> CoachInteraction? {
        interactions.filter { $0.at <= instant }.max { ($0.at, $0.id) < ($1.at, $1.id) }
    }
}

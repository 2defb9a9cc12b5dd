import Foundation

/// The app's own records next to the HealthKit data: the daily log, planned workouts and
/// coach interactions. The SQLite store and ``InMemoryAppData`` implement it.
///
/// Every read takes the instant it is asked "as of", so a snapshot of a past moment sees
/// only what had happened by then.
public protocol AppDataRepository: Sendable {
    /// The log of `date`, `nil` when nothing was logged.
    func dailyLog(on date: LocalDate) async throws -> DailyLogEntry?
    /// Stores `entry` merged into the day's existing log (parts `entry` leaves `nil` are kept);
    /// returns the stored result.
    @discardableResult
    func saveDailyLog(_ entry: DailyLogEntry) async throws -> DailyLogEntry

    /// Adds a planned workout and returns it with its id.
    func addPlannedWorkout(_ workout: PlannedWorkout) async throws -> PlannedWorkout
    /// Replaces the stored workout with the same id; fails when there is none.
    func updatePlannedWorkout(_ workout: PlannedWorkout) async throws
    /// The workout with `id`, if any.
    func plannedWorkout(id: Int64) async throws -> PlannedWorkout?
    /// Planned workouts scheduled in `interval`, by schedule.
    func plannedWorkouts(scheduledIn interval: DateInterval) async throws -> [PlannedWorkout]
    /// The most recently started workout that had started and not finished at `instant`.
    func workoutInProgress(at instant: Date) async throws -> PlannedWorkout?

    /// Records an interaction and returns it with its id.
    @discardableResult
    func recordCoachInteraction(_ interaction: CoachInteraction) async throws -> CoachInteraction
    /// The latest interaction at or before `instant`.
    func lastCoachInteraction(atOrBefore instant: Date) async throws -> CoachInteraction?
}

/// A planned workout id that does not exist.
public struct AppDataError: Error, Hashable, Sendable, CustomStringConvertible {
    public let missingWorkoutID: Int64

    public init(missingWorkoutID: Int64) { self.missingWorkoutID = missingWorkoutID }

    public var description: String { "there is no planned workout with id \(missingWorkoutID)" }
}

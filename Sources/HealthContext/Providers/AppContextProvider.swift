import Foundation
import HealthCore

/// The app's own context: the workout in progress, minutes since the last coach
/// interaction, and the next planned workout (later today or tomorrow). With `workouts`
/// withheld, the two workouts are empty with "not permitted" as the reason (the coach's
/// own interactions stay).
public struct AppContextProvider: ContextProvider {
    public let repository: any AppDataRepository
    /// A workout started longer ago than this (seconds) and never finished is taken as
    /// abandoned, not in progress (default 12 hours).
    public var abandonedAfter: TimeInterval = 12 * 3600
    /// Kinds the reader may not see: with `workouts` among them, no planned workout is read.
    public let withheld: Set<HealthDataCategory>

    public init(repository: any AppDataRepository, withheld: Set<HealthDataCategory> = []) {
        self.repository = repository
        self.withheld = withheld
    }

    public var name: String { "app" }
    public var fields: [ContextField] {
        [.activeWorkoutNameInProgress, .timeSinceLastCoachInteractionMinutes, .upcomingPlannedWorkoutName]
    }

    public func provide(for request: ContextRequest) async throws -> ContextContribution {
        let instant = request.instant
        async let coach = repository.lastCoachInteraction(atOrBefore: instant)
        var result = ContextContribution()
        if withheld.contains(.workouts) {
            for field in [ContextField.activeWorkoutNameInProgress, .upcomingPlannedWorkoutName] {
                result.reasons[field] = WithheldProvider.reason([.workouts])
            }
        } else {
            async let active = repository.workoutInProgress(at: instant)
            // Up to the end of tomorrow, local.
            let horizon = request.day.date.adding(days: 2).instant(hour: 0, in: request.day.zone)
            async let upcoming = repository.plannedWorkouts(
                scheduledIn: DateInterval(start: instant, end: max(instant, horizon)))
            let current = try await active.flatMap { workout in
                workout.startedAt.map { instant.timeIntervalSince($0) <= abandonedAfter } == true ? workout : nil
            }
            result.values.activeWorkoutNameInProgress = result.note(
                current?.name, .activeWorkoutNameInProgress, otherwise: "no workout in progress")
            result.values.upcomingPlannedWorkoutName = result.note(
                try await upcoming.first { $0.status(at: instant) == .planned }?.name, .upcomingPlannedWorkoutName,
                otherwise: "nothing planned for the rest of today or tomorrow")
        }
        result.values.timeSinceLastCoachInteractionMinutes = result.note(
            try await coach.flatMap { Int(truncatingSaturating: instant.timeIntervalSince($0.at) / 60) },
            .timeSinceLastCoachInteractionMinutes,
            otherwise: "no coach interaction recorded")
        return result
    }
}

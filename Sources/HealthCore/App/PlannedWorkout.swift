import Foundation

/// A workout the user (or the coach) planned in the app: scheduled, then possibly started
/// and finished. HealthKit only learns of a workout once it is saved, so "in progress" and
/// "upcoming" come from here.
public struct PlannedWorkout: Hashable, Sendable, Codable {
    public var id: Int64
    public var name: String
    public var scheduledAt: Date
    public var durationMinutes: Int?
    public var startedAt: Date?
    public var finishedAt: Date?

    public init(
        id: Int64 = 0, name: String, scheduledAt: Date, durationMinutes: Int? = nil, startedAt: Date? = nil,
        finishedAt: Date? = nil
    ) {
        self.id = id
        self.name = name
        self.scheduledAt = scheduledAt
        self.durationMinutes = durationMinutes
        self.startedAt = startedAt
        self.finishedAt = finishedAt
    }

    /// Where the workout stands at `instant`.
    public func status(at instant: Date) -> Status {
        if let finishedAt, finishedAt <= instant { return .finished }
        if let startedAt, startedAt <= instant { return .inProgress }
        return .planned
    }

    public enum Status: String, Sendable, Codable {
        case planned, inProgress = "in_progress", finished
    }

    enum CodingKeys: String, CodingKey {
        case id, name
        case scheduledAt = "scheduled_at"
        case durationMinutes = "duration_minutes"
        case startedAt = "started_at"
        case finishedAt = "finished_at"
    }
}

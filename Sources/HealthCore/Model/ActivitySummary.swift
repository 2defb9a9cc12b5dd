import Foundation

/// One day of activity rings (`ActivitySummary`). Older exports say `appleMoveMinutes`,
/// stored here as `appleMoveTime`.
public struct ActivitySummary: Hashable, Sendable, Codable {
    /// `YYYY-MM-DD`, the calendar day the rings belong to.
    public var dateComponents: String
    public var activeEnergyBurned: Double?
    public var activeEnergyBurnedGoal: Double?
    public var activeEnergyBurnedUnit: String?
    public var appleMoveTime: Double?
    public var appleMoveTimeGoal: Double?
    public var appleExerciseTime: Double?
    public var appleExerciseTimeGoal: Double?
    public var appleStandHours: Double?
    public var appleStandHoursGoal: Double?
    /// When these figures were read (an Apple export's `ExportDate`). A day's rings grow
    /// until the day ends, so of two readings of the same day the later one is kept;
    /// `nil` (unknown) ranks before any date.
    public var asOf: Date?

    public init(dateComponents: String) { self.dateComponents = dateComponents }
}

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

    public init(dateComponents: String) { self.dateComponents = dateComponents }
}

import Foundation

/// What a store keeps beyond a workout's sample: its routes, what it recorded of itself,
/// and the day's Activity summary (the rings' goals). The SQLite and PostgreSQL stores have
/// them; a store without them need not conform.
public protocol WorkoutDetailsReading: Sendable {
    /// What each workout overlapping `interval` recorded of itself, by the workout sample's
    /// UUID: the totals on its element and its `WorkoutStatistics`. Workouts that recorded
    /// neither are absent.
    func workoutTotals(overlapping interval: DateInterval) async throws -> [UUID: WorkoutTotals]

    /// The route points of each workout overlapping `interval`, by the workout sample's
    /// UUID, in recorded order, at most `maxPoints` per workout (evenly thinned, first and
    /// last kept). Workouts without a route are absent.
    func workoutRoutes(overlapping interval: DateInterval, maxPoints: Int) async throws -> [UUID: [RoutePoint]]

    /// The Activity summary of local day `date` (`YYYY-MM-DD`), if the export had one.
    func activitySummary(on date: String) async throws -> ActivitySummary?
}

extension Array {
    /// At most `count` elements, evenly spaced, the first and the last kept.
    public func thinned(to count: Int) -> [Element] {
        guard count >= 2, self.count > count else { return count < 2 ? Array(prefix(count)) : self }
        let step = Double(self.count - 1) / Double(count - 1)
        return (0..<count).map { self[Int((Double($0) * step).rounded())] }
    }
}

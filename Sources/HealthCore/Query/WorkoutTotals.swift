import Foundation

/// What a workout recorded of itself, as its writer gave it: the totals older exports put on
/// the `<Workout>` element (`totalEnergyBurned`, `totalDistance`) and the `WorkoutStatistics`
/// of iOS 16 and later (a `sum` per cumulative type, `average`/`minimum`/`maximum` per
/// discrete one). Units are as written.
public struct WorkoutTotals: Hashable, Sendable, Codable {
    public var totalEnergyBurned: Double?
    public var totalEnergyBurnedUnit: String?
    public var totalDistance: Double?
    public var totalDistanceUnit: String?
    public var statistics: [WorkoutStatistic]

    public init(
        totalEnergyBurned: Double? = nil, totalEnergyBurnedUnit: String? = nil, totalDistance: Double? = nil,
        totalDistanceUnit: String? = nil, statistics: [WorkoutStatistic] = []
    ) {
        self.totalEnergyBurned = totalEnergyBurned
        self.totalEnergyBurnedUnit = totalEnergyBurnedUnit
        self.totalDistance = totalDistance
        self.totalDistanceUnit = totalDistanceUnit
        self.statistics = statistics
    }

    /// The totals and statistics of `workout`.
    public init(_ workout: Workout) {
        self.init(
            totalEnergyBurned: workout.totalEnergyBurned, totalEnergyBurnedUnit: workout.totalEnergyBurnedUnit,
            totalDistance: workout.totalDistance, totalDistanceUnit: workout.totalDistanceUnit,
            statistics: workout.statistics)
    }

    /// `true` when the workout recorded no total and no statistic.
    public var isEmpty: Bool { totalEnergyBurned == nil && totalDistance == nil && statistics.isEmpty }

    private enum CodingKeys: String, CodingKey {
        case totalEnergyBurned, totalEnergyBurnedUnit, totalDistance, totalDistanceUnit, statistics
    }

    /// Reads the same keys as a stored workout's details (`WorkoutDetails`), any other ignored.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        totalEnergyBurned = try container.decodeIfPresent(Double.self, forKey: .totalEnergyBurned)
        totalEnergyBurnedUnit = try container.decodeIfPresent(String.self, forKey: .totalEnergyBurnedUnit)
        totalDistance = try container.decodeIfPresent(Double.self, forKey: .totalDistance)
        totalDistanceUnit = try container.decodeIfPresent(String.self, forKey: .totalDistanceUnit)
        statistics = try container.decodeIfPresent([WorkoutStatistic].self, forKey: .statistics) ?? []
    }
}

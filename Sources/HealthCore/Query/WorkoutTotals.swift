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

/// The figures a workout recorded of itself, in the summary's units. A figure is its
/// `WorkoutStatistics` entry when it has one, else the total on its element; zero, negative
/// or in a unit that does not convert counts as not recorded (older exports write
/// `totalDistance="0"` for a workout that measured no distance).
extension WorkoutTotals {
    /// The `ActiveEnergyBurned` statistic's sum, else `totalEnergyBurned`, kcal.
    public var energyKcal: Double? {
        let statistic = statistics.first { $0.type == .activeEnergyBurned && ($0.sum ?? 0) > 0 }
        return Self.amount(statistic?.sum, statistic?.unit ?? "kcal", in: "kcal")
            ?? Self.amount(totalEnergyBurned, totalEnergyBurnedUnit ?? "kcal", in: "kcal")
    }

    /// The first distance statistic's sum (walking/running, cycling, swimming…), else
    /// `totalDistance`, km.
    public var distanceKm: Double? {
        let statistic = statistics.first {
            $0.type.identifier.hasPrefix("HKQuantityTypeIdentifierDistance") && ($0.sum ?? 0) > 0
        }
        return Self.amount(statistic?.sum, statistic?.unit ?? "m", in: "km")
            ?? Self.amount(totalDistance, totalDistanceUnit ?? "m", in: "km")
    }

    /// The `HeartRate` statistic's average, bpm (older exports record none).
    public var heartRateBpm: Double? {
        let statistic = statistics.first { $0.type == .heartRate && ($0.average ?? 0) > 0 }
        return Self.amount(statistic?.average, statistic?.unit ?? "count/min", in: "count/min")
    }

    /// The `HeartRate` statistic's maximum, bpm.
    public var heartRateMaxBpm: Double? {
        let statistic = statistics.first { $0.type == .heartRate && ($0.maximum ?? 0) > 0 }
        return Self.amount(statistic?.maximum, statistic?.unit ?? "count/min", in: "count/min")
    }

    /// Metres of a metadata quantity such as `3120 cm` (`HKElevationAscended`); `nil` when it
    /// is no length, or none a workout climbs (0 to 100 km).
    public static func metres(_ text: String) -> Double? {
        let parts = text.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, let value = Double(parts[0]), value.isFinite,
            let metres = try? HealthUnit.convert(value, from: String(parts[1]), to: "m"), metres.isFinite,
            (0...100_000).contains(metres)
        else { return nil }
        return metres
    }

    /// `value`, written in `unit`, in `target`: `nil` unless a positive number that converts.
    private static func amount(_ value: Double?, _ unit: String, in target: String) -> Double? {
        guard let value, value > 0, value.isFinite,
            let converted = try? HealthUnit.convert(value, from: unit, to: target), converted.isFinite
        else { return nil }
        return converted
    }
}

extension Workout {
    /// The climb its `HKElevationAscended` metadata records (`3120 cm`), metres; `nil` when it
    /// recorded none, or none that is a length a workout climbs (0 to 100 km).
    public var elevationAscendedMetres: Double? {
        metadata.value(for: "HKElevationAscended").flatMap(WorkoutTotals.metres)
    }
}

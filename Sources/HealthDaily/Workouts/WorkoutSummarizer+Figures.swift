import Foundation
import HealthCore

/// A workout's figures: what it recorded of itself first, the samples of its span otherwise.
extension WorkoutSummarizer {
    /// `recorded` when the workout recorded it, else what `fromSamples` computes; and which.
    func figure(
        _ recorded: Double?, fromSamples compute: () async throws -> Double?
    ) async throws -> (Double?, WorkoutSummary.FigureSource?) {
        if let recorded { return (recorded, .workout) }
        guard let computed = try await compute() else { return (nil, nil) }
        return (computed, .samples)
    }

    /// Active energy summed over `span` (samples crossing its edges for their part inside), kcal.
    func energyKcal(_ span: DateInterval) async throws -> Double? {
        let sum = try await store.statistics(of: .activeEnergyBurned, over: span, unit: HealthUnit(parsing: "kcal"))
        return sum.count > 0 ? sum.sum : nil
    }

    /// Walking/running distance summed over `span`, else cycling distance, km.
    func distanceKm(_ span: DateInterval) async throws -> Double? {
        let km = try HealthUnit(parsing: "km")
        var distance = try await store.statistics(of: .distanceWalkingRunning, over: span, unit: km)
        if distance.count == 0 {
            distance = try await store.statistics(
                of: SampleType("HKQuantityTypeIdentifierDistanceCycling"), over: span, unit: km)
        }
        return distance.count > 0 ? distance.sum : nil
    }

    /// The time-weighted mean of the heart-rate samples of `span`, bpm.
    func heartRateBpm(_ span: DateInterval) async throws -> Double? {
        let samples = try await store.samples(of: .heartRate, overlapping: span)
        return TimeWeightedMean.mean(of: samples, over: span, unit: try HealthUnit(parsing: "count/min"))
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

    /// `value`, written in `unit`, in `target`: `nil` unless a positive number that converts.
    private static func amount(_ value: Double?, _ unit: String, in target: String) -> Double? {
        guard let value, value > 0, value.isFinite,
            let converted = try? HealthUnit.convert(value, from: unit, to: target), converted.isFinite
        else { return nil }
        return converted
    }
}

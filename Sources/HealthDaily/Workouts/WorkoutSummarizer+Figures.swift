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

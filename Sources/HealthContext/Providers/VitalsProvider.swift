import Foundation
import HealthCore

/// Resting heart rate and HRV (SDNN): the latest sample of each that ended by the snapshot
/// instant and no more than ``maxAge`` before it (an old reading says nothing about today).
public struct VitalsProvider: ContextProvider {
    public let store: any HealthQuerying
    /// How old a reading may be, in seconds (default 7 days).
    public var maxAge: TimeInterval = 7 * 86400

    public init(store: any HealthQuerying) { self.store = store }

    public var name: String { "vitals" }
    public var fields: [ContextField] { [.restingHeartRateBPM, .heartRateVariabilitySDNNms] }

    public func provide(for request: ContextRequest) async throws -> ContextContribution {
        async let resting = latest(.restingHeartRate, unit: "count/min", before: request.instant)
        async let hrv = latest(.heartRateVariabilitySDNN, unit: "ms", before: request.instant)
        let days = Int(maxAge / 86400)
        var result = ContextContribution()
        result.values.restingHeartRateBPM = result.note(
            try await resting.map { Rounding.places($0, 1) }, .restingHeartRateBPM,
            otherwise: "no resting heart rate in the \(days) days before the snapshot")
        result.values.heartRateVariabilitySDNNms = result.note(
            try await hrv.map { Rounding.places($0, 1) }, .heartRateVariabilitySDNNms,
            otherwise: "no HRV (SDNN) in the \(days) days before the snapshot")
        return result
    }

    private func latest(_ type: SampleType, unit: String, before instant: Date) async throws -> Double? {
        guard let sample = try await store.latestSample(of: type, endingBy: instant),
            sample.end >= instant.addingTimeInterval(-maxAge)
        else { return nil }
        return try sample.number(in: unit)
    }
}

extension Sample {
    /// The quantity converted to `unit`; `nil` when it has no number or another dimension.
    func number(in unit: String) throws -> Double? {
        guard case .quantity(let raw, let symbol) = value else { return nil }
        return try? HealthUnit(parsing: symbol).convert(raw, to: HealthUnit(parsing: unit))
    }
}

/// Rounding for presentation to a coach: values keep the precision a person reads.
enum Rounding {
    static func places(_ value: Double, _ places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }
}

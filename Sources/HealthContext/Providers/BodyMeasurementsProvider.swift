import Foundation
import HealthCore

/// The latest body weight (kg, two decimals) and body fat (%, one decimal) recorded by the
/// snapshot instant, however old: a weight from last month is still the latest weight.
public struct BodyMeasurementsProvider: ContextProvider {
    public let store: any HealthQuerying

    public init(store: any HealthQuerying) { self.store = store }

    public var name: String { "body" }
    public var fields: [ContextField] { [.latestBodyWeightKg, .latestBodyFatPercentage] }

    public func provide(for request: ContextRequest) async throws -> ContextContribution {
        async let weight = store.latestSample(of: .bodyMass, endingBy: request.instant)
        async let fat = store.latestSample(of: .bodyFatPercentage, endingBy: request.instant)
        var result = ContextContribution()
        result.values.latestBodyWeightKg = result.note(
            try await weight?.number(in: "kg").map { Rounding.places($0, 2) }, .latestBodyWeightKg,
            otherwise: "no body weight recorded")
        // HealthKit's "%" is a fraction (0.182 is 18.2 %).
        result.values.latestBodyFatPercentage = result.note(
            try await fat?.number(in: "%").map { Rounding.places($0 * 100, 1) }, .latestBodyFatPercentage,
            otherwise: "no body fat percentage recorded")
        return result
    }
}

import Foundation
import HealthCore
import HealthExport
import Testing

/// Findings M4/M5 of the attack on the release build (2026-11-25): `metrics=steps,steps,…`
/// (5,000 times) wrote every row 5,000 times — half a gigabyte for ten days; a resting heart
/// rate in kg was stored (within the generic ±1e12) and hid the real ones.
@Suite struct ReleaseAttackExportTests {
    @Test func m4_aMetricNamedTwiceIsExportedOnce() throws {
        let stored: [SampleType] = [.stepCount, .bodyMass]
        let list = Array(repeating: "steps", count: 5000).joined(separator: ",") + ",weight,HKQuantityTypeIdentifierStepCount"
        let metrics = try MetricRegistry.metrics(named: list, storedTypes: stored)
        #expect(metrics.map(\.name) == ["steps", "weight"])
    }

    @Test func m5_aUnitOfAnotherDimensionIsNoReadingOfTheType() {
        let problem = PlausibleRange.violation(value: 99_999_999_999, unit: "kg", type: .restingHeartRate)
        #expect(
            problem == "unit kg is not a unit of HKQuantityTypeIdentifierRestingHeartRate (count/min or one convertible to it)")
        #expect(PlausibleRange.violation(value: 55, unit: "ms", type: .heartRateVariabilitySDNN) == nil)
        #expect(PlausibleRange.violation(value: 150, unit: "lb", type: .bodyMass) == nil)
        #expect(PlausibleRange.violation(value: 1, unit: "count/s", type: .restingHeartRate) == nil)
        // A unit text that does not parse keeps the generic bound (a type's own odd units).
        #expect(PlausibleRange.violation(value: 55, unit: "beats", type: .restingHeartRate) == nil)
    }
}

import Foundation
import HealthCore
import HealthKitCompat
import HealthKitQuerying
import HealthSQLite
import Testing

/// Issue 33 §1: `HealthKitQuerying` answers where each type's data lies as the store does
/// (one earliest-start and one latest-end query per type), so the days' anchor is the same
/// on an iPhone's HealthKit.
@Suite struct I33SpansTests {
    @Test func i33_lastday_healthKitAnswersTheStoresSpans() async throws {
        let fixture = try await GeneratedYear.shared.value
        let types = EquivalenceTests.types
        let health = HealthKitQuerying(healthStore: try await HKHealthStore.reading(fixture.database, types), types: types)
        let expected = try await fixture.database.store.sampleSpans().filter { types.contains($0.type) }
        #expect(expected.count == types.count)
        #expect(try await health.sampleSpans() == expected)
    }
}

import Foundation
import HealthCore
import HealthKitCompat
import HealthKitQuerying
import HealthSQLite
import Testing

/// Issue 34 §1: the one read port. `HealthKitQuerying` answers its inventory and
/// correlations as the store under HealthKitCompat does, so no reader needs to ask a store
/// what it is.
@Suite struct I34ReadPortTests {
    @Test func i34_port_healthKitAnswersTheStoresInventory() async throws {
        let fixture = try await GeneratedYear.shared.value
        let types = EquivalenceTests.types
        let health = HealthKitQuerying(healthStore: try await HKHealthStore.reading(fixture.database, types), types: types)
        let expected = try await fixture.database.store.sampleInventory().filter { types.contains($0.type) }
        #expect(expected.count == types.count)
        #expect(try await health.sampleInventory() == expected)
    }

    /// Two blood pressures (one with its two members, one of another source with none) and
    /// a food: HealthKit's answer is the store's, members and all.
    @Test func i34_port_healthKitAnswersTheStoresCorrelations() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("i34-port-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try HealthDatabase(path: folder.appendingPathComponent("health.sqlite").path)
        let t0 = Date(timeIntervalSince1970: 1_718_434_800)  // 2024-06-15 07:00 UTC
        let pressure = SampleType("HKCorrelationTypeIdentifierBloodPressure")
        func reading(_ type: String, _ value: Double, at start: Date) -> Sample {
            Sample(
                type: SampleType(type), start: start, end: start.addingTimeInterval(1),
                value: .quantity(value, unit: "mmHg"), source: Source(name: "Health"))
        }
        let first = Correlation(
            type: pressure, start: t0, end: t0.addingTimeInterval(1), source: Source(name: "Health"),
            objects: [
                reading("HKQuantityTypeIdentifierBloodPressureSystolic", 118, at: t0),
                reading("HKQuantityTypeIdentifierBloodPressureDiastolic", 76, at: t0),
            ])
        let second = Correlation(
            type: pressure, start: t0.addingTimeInterval(3600), end: t0.addingTimeInterval(3601),
            source: Source(name: "Cuff"), objects: [])
        try database.write { writer in
            try writer.write(.correlation(second))
            try writer.write(.correlation(first))
        }
        let healthStore = HKHealthStore(store: database.store)
        let health = HealthKitQuerying(healthStore: healthStore, types: [pressure])
        try await healthStore.requestAuthorization(toShare: [], read: health.readTypes)
        let day = DateInterval(start: t0.addingTimeInterval(-3600), duration: 86400)
        let expected = try await database.store.correlations(of: pressure, overlapping: day)
        let got = try await health.correlations(of: pressure, overlapping: day)
        #expect(expected.map { $0.members.count } == [2, 0])
        #expect(
            got.map { EquivalenceTests.Comparable($0.correlation) }
                == expected.map { EquivalenceTests.Comparable($0.correlation) })
        #expect(
            got.map { $0.members.map(EquivalenceTests.Comparable.init).sorted { $0.type < $1.type } }
                == expected.map { $0.members.map(EquivalenceTests.Comparable.init).sorted { $0.type < $1.type } })
        // Outside the interval: none; a type that is not a correlation: none.
        #expect(
            try await health.correlations(
                of: pressure, overlapping: DateInterval(start: t0.addingTimeInterval(7200), duration: 60)
            ).isEmpty)
        #expect(try await health.correlations(of: .stepCount, overlapping: day).isEmpty)
    }
}

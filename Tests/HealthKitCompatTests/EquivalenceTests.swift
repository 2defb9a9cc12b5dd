import Foundation
import HealthCore
import HealthKitCompat
import HealthKitQuerying
import HealthSQLite
import Testing

/// `HealthKitQuerying` over HealthKitCompat over a store answers exactly as the store does,
/// on a generated year, at 50 random intervals per type.
@Suite struct EquivalenceTests {
    static let types: [SampleType] = [
        .stepCount, .activeEnergyBurned, .heartRate, .restingHeartRate, .heartRateVariabilitySDNN, .sleepAnalysis,
    ]

    /// What both sides must agree on (HealthKit has no creation date, UTC offset or beats,
    /// and keeps metadata as a dictionary; quantities are compared in the type's unit).
    struct Comparable: Hashable {
        var uuid: UUID
        var type: String
        var start: Date
        var end: Date
        var value: String
        var source: String
        var version: String?
        var device: Device?
        var metadata: [String: String]

        init(_ sample: Sample) {
            uuid = sample.uuid
            type = sample.type.identifier
            start = sample.start
            end = sample.end
            if case .quantity(let number, let unit) = sample.value,
                let target = HealthKitQuerying.unit(for: sample.type),
                let converted = try? HealthUnit.convert(number, from: unit, to: target)
            {
                value = String(format: "%.9g", converted)
            } else {
                value = sample.value.text ?? ""
            }
            source = sample.source.name
            version = sample.source.version.flatMap { $0.isEmpty ? nil : $0 }
            device = sample.device.map {
                Device(
                    name: $0.name, manufacturer: $0.manufacturer, model: $0.model, hardware: $0.hardware,
                    software: $0.software, firmware: $0.firmware, localIdentifier: $0.localIdentifier,
                    udiDeviceIdentifier: $0.udiDeviceIdentifier)
            }
            var metadata: [String: String] = [:]
            for entry in sample.metadata where metadata[entry.key] == nil { metadata[entry.key] = entry.value }
            self.metadata = metadata
        }
    }

    @Test func samplesStatisticsLatestAndChangesEqualTheStore() async throws {
        let fixture = try await GeneratedYear.shared.value
        let store = fixture.database.store
        let health = HealthKitQuerying(
            healthStore: try await HKHealthStore.reading(fixture.database, Self.types), types: Self.types)
        var random = SystemRandomNumberGenerator()
        let year = DateInterval(start: GeneratedYear.at("2024-01-01T00:00:00Z"), duration: 366 * 86400)
        let lastAnchor = try await store.latestAnchor()
        var compared = (samples: 0, intervals: 0, changes: 0)
        for type in Self.types {
            let unit = try HealthUnit(parsing: HealthKitQuerying.unit(for: type) ?? "count")
            for _ in 0..<50 {
                let start = year.start.addingTimeInterval(.random(in: 0..<year.duration, using: &random))
                let interval = DateInterval(start: start, duration: .random(in: 60...(3 * 86400), using: &random))
                let expected = try await store.samples(of: type, overlapping: interval)
                let actual = try await health.samples(of: type, overlapping: interval)
                #expect(actual.map(Comparable.init) == expected.map(Comparable.init), "\(type) \(interval)")
                compared.samples += expected.count
                compared.intervals += 1
                if type.kind == .quantity {
                    let want = try await store.statistics(of: type, over: interval, unit: unit)
                    let got = try await health.statistics(of: type, over: interval, unit: unit)
                    #expect(got.count == want.count)
                    #expect(abs((got.sum ?? 0) - (want.sum ?? 0)) <= 1e-9 * max(1, abs(want.sum ?? 0)))
                    #expect(abs((got.average ?? 0) - (want.average ?? 0)) <= 1e-9 * max(1, abs(want.average ?? 0)))
                    #expect(got.minimum.map { String(format: "%.9g", $0) } == want.minimum.map { String(format: "%.9g", $0) })
                    #expect(got.maximum.map { String(format: "%.9g", $0) } == want.maximum.map { String(format: "%.9g", $0) })
                }
                let instant = interval.end
                let latestWanted = try await store.latestSample(of: type, endingBy: instant).map(Comparable.init)
                let latestGot = try await health.latestSample(of: type, endingBy: instant).map(Comparable.init)
                #expect(latestGot?.end == latestWanted?.end, "latest \(type) by \(instant)")
                let anchor = QueryAnchor(Int64.random(in: 0...lastAnchor.rawValue, using: &random))
                let wanted = try await store.changes(of: type, since: anchor, limit: 200)
                let got = try await health.changes(of: type, since: anchor, limit: 200)
                #expect(got.nextAnchor == wanted.nextAnchor, "changes of \(type) since \(anchor)")
                #expect(got.samples.map(Comparable.init) == wanted.samples.map(Comparable.init))
                #expect(Set(got.deletedObjects.map(\.uuid)) == Set(wanted.deletedObjects.map(\.uuid)))
                compared.changes += wanted.changes.count
            }
        }
        #expect(compared.intervals == 50 * Self.types.count)
        #expect(compared.samples > 10_000)
        // The deletions made after the import are in the feed from the start.
        let fromStart = try await health.changes(of: .stepCount, since: .initial, limit: 1_000_000)
        #expect(!fromStart.deletedObjects.isEmpty)
        #expect(
            Set(fromStart.deletedObjects.map(\.uuid))
                == Set(try await store.changes(of: .stepCount, since: .initial, limit: 1_000_000).deletedObjects.map(\.uuid)))
    }
}

import Foundation
import HealthCore
import HealthDaily

/// Builders for hand-computed cases.
enum Build {
    static let watch = Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardware: "Watch6,1")
    static let phone = Device(name: "iPhone", manufacturer: "Apple Inc.", model: "iPhone", hardware: "iPhone14,2")
    static let la = TimeZone(identifier: "America/Los_Angeles")!
    static let paris = TimeZone(identifier: "Europe/Paris")!
    static let perth = TimeZone(identifier: "Australia/Perth")!

    /// An instant from ISO 8601 (`2024-03-05T08:00:00-08:00`).
    static func at(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text)!
    }

    static func steps(_ from: String, _ to: String, _ count: Double, device: Device?, source: String? = nil) -> Sample {
        Sample(
            type: .stepCount, start: at(from), end: at(to), value: .quantity(count, unit: "count"),
            source: Source(name: source ?? device?.name ?? "App"), device: device)
    }

    static func energy(_ from: String, _ to: String, _ value: Double, unit: String, device: Device?) -> Sample {
        Sample(
            type: .activeEnergyBurned, start: at(from), end: at(to), value: .quantity(value, unit: unit),
            source: Source(name: device?.name ?? "App"), device: device)
    }

    static func sleep(
        _ from: String, _ to: String, _ value: String, device: Device?, source: String, zone: String? = nil
    ) -> Sample {
        Sample(
            type: .sleepAnalysis, start: at(from), end: at(to), value: .category("HKCategoryValueSleepAnalysis" + value),
            source: Source(name: source), device: device,
            metadata: zone.map { [MetadataEntry(key: "HKTimeZone", value: $0)] } ?? [])
    }

    static func quantity(_ type: SampleType, _ at: String, _ value: Double, unit: String) -> Sample {
        Sample(
            type: type, start: Build.at(at), end: Build.at(at), value: .quantity(value, unit: unit),
            source: Source(name: "Watch"), device: watch)
    }

    static func normalizer(
        _ samples: [Sample], home: TimeZone = la, explicit: TimeZone? = nil, version: NormalizationVersion = .v1,
        now: String = "2024-03-06T10:00:00Z"
    ) -> DailyNormalizer {
        var configuration = DailyNormalizer.Configuration()
        configuration.homeZone = home
        configuration.explicitZone = explicit
        configuration.version = version
        let instant = at(now)
        return DailyNormalizer(store: InMemoryHealthStore(samples: samples), configuration: configuration, now: { instant })
    }

    static func day(_ text: String) -> LocalDate { LocalDate(text)! }
}

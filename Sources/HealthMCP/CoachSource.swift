import Foundation
import HealthContext
import HealthCore
import HealthDaily

/// What the coach's tools read: one person's samples, their app data (daily log, plans), their
/// daily metrics, and which kinds of data this reader may not see.
public struct CoachSource: Sendable {
    public var store: any HealthQuerying
    public var appData: any AppDataRepository
    /// Asked only when `get_coach_context` is given `lat` and `lon`.
    public var weather: any WeatherProviding
    /// The daily metrics: the normaliser over `store` locally, the stored days on the server.
    public var daily: any DailyMetricsSource
    /// Zones and normalisation rules of the days (as `healthpipe days`).
    public var normalization: DailyNormalizer.Configuration
    /// Kinds of data this reader may not see: tools that need them answer an error naming
    /// them; bundles leave them out.
    public var withheld: Set<HealthDataCategory>
    /// `log_subjective` (the only write) is offered only when true.
    public var allowWrites: Bool
    public var now: @Sendable () -> Date
    /// The deadline, in seconds, of each part of `get_coach_context` (finding today, steps,
    /// sleep, HRV…; the weather keeps its own): a part that misses it is left out and named
    /// in the answer's `missing`. The server passes its `snapshotProviderTimeout`, as for
    /// `GET /v1/snapshot`.
    public var providerTimeout: Double = 1.5

    public init(
        store: any HealthQuerying, appData: any AppDataRepository, weather: any WeatherProviding,
        daily: any DailyMetricsSource,
        normalization: DailyNormalizer.Configuration, withheld: Set<HealthDataCategory> = [], allowWrites: Bool = false,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.appData = appData
        self.weather = weather
        self.daily = daily
        self.normalization = normalization
        self.withheld = withheld
        self.allowWrites = allowWrites
        self.now = now
    }

    /// Today in the zone of the days (the person's latest zone): what the person logs about.
    func today() async throws -> LocalDate {
        try await DailyNormalizer(store: store, configuration: normalization, now: now).today()
    }

    /// Where the tools' default day lies (``DataAnchor``): today, or the last day with data
    /// this reader may see when nothing is newer (the stored days count on the server).
    func anchor() async throws -> DataAnchor {
        try await DailyNormalizer(store: store, configuration: normalization, now: now)
            .anchor(excluding: withheld, daily: daily)
    }
}

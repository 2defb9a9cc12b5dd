import HealthCore
import HealthMetrics

/// Where a reader of daily metrics (the dashboard, the coach's tools) gets them: the
/// normaliser itself, a cache in front of it, or days stored already (the server's).
public protocol DailyMetricsSource: Sendable {
    /// One payload per local day from `first` through `last`, in order.
    func metrics(from first: LocalDate, through last: LocalDate) async throws -> [NormalizedDailyMetrics]

    /// The last day after `day`, through `last`, with data this source holds beyond the
    /// store's samples — the server's days, posted as days, can be newer than its samples —
    /// counting only the fields of kinds not in `withheld`; `nil` when there is none.
    /// Sources computed from the samples hold nothing beyond them (the default).
    func latestDay(
        after day: LocalDate, through last: LocalDate, excluding withheld: Set<HealthDataCategory>
    ) async throws -> LocalDate?
}

extension DailyMetricsSource {
    public func latestDay(
        after day: LocalDate, through last: LocalDate, excluding withheld: Set<HealthDataCategory>
    ) async throws -> LocalDate? { nil }
}

extension DailyNormalizer: DailyMetricsSource {}

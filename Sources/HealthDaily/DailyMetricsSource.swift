import HealthCore
import HealthMetrics

/// Where a reader of daily metrics (the dashboard, the coach's tools) gets them: the
/// normaliser itself, a cache in front of it, or days stored already (the server's).
public protocol DailyMetricsSource: Sendable {
    /// One payload per local day from `first` through `last`, in order.
    func metrics(from first: LocalDate, through last: LocalDate) async throws -> [NormalizedDailyMetrics]
}

extension DailyNormalizer: DailyMetricsSource {}

import Foundation
import HealthDaily
import HealthDashboard
import HealthSQLite

extension HealthDatabase {
    /// Runs `body` with a cache of this store's daily metrics under `settings`: each day is
    /// computed once and kept until the store changes (an import, a sync, a log entry), for
    /// as long as `body` runs.
    func withDaysCache<T>(
        _ settings: DailyNormalizer.Configuration, _ body: (DailyMetricsCache) async throws -> T
    ) async throws -> T {
        let cache = DailyMetricsCache(normalizer: DailyNormalizer(store: store, configuration: settings, now: { Date() }))
        let notices = observe(nil)
        let invalidation = Task {
            for await _ in notices { await cache.clear() }
        }
        defer {
            invalidation.cancel()
            notices.finish()
        }
        return try await body(cache)
    }
}

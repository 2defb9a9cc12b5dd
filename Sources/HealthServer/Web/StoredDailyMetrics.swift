import Foundation
import HealthCore
import HealthDaily
import HealthMetrics
import HealthServerRecords

/// The dashboard's daily metrics on the server: the user's stored days (the ones
/// `GET /v1/daily-metrics` and `/v1/readiness` answer from), a day with no row given as an
/// empty day in `zone`.
struct StoredDailyMetrics: DailyMetricsSource {
    let repository: any DailyMetricsRepository
    let userID: String
    let version: NormalizationVersion
    let zone: TimeZone

    func metrics(from first: LocalDate, through last: LocalDate) async throws -> [NormalizedDailyMetrics] {
        guard first <= last else { return [] }
        let stored = try await repository.dailyMetrics(
            userID: userID, from: first, through: last, version: version)
        let byDate = Dictionary(stored.map { ($0.localDate, $0) }, uniquingKeysWith: { _, later in later })
        return (first.dayNumber...last.dayNumber).map { number in
            let date = LocalDate(dayNumber: number)
            return byDate[date.description]
                ?? NormalizedDailyMetrics(
                    userID: userID, localDate: date.description, timezoneIdentifier: zone.identifier,
                    utcDayStart: date.instant(hour: 0, in: zone), utcDayEnd: date.adding(days: 1).instant(hour: 0, in: zone),
                    normalizationVersion: version.rawValue, createdAt: Date(timeIntervalSince1970: 0))
        }
    }

    /// The last stored day after `day`, through `last`, with a figure of a kind not in
    /// `withheld`: days posted as days can be newer than the samples.
    func latestDay(
        after day: LocalDate, through last: LocalDate, excluding withheld: Set<HealthDataCategory>
    ) async throws -> LocalDate? {
        guard day < last else { return nil }
        let stored = try await repository.dailyMetrics(
            userID: userID, from: day.adding(days: 1), through: last, version: version)
        var latest: LocalDate?
        for day in stored {
            let shown = day.withholding(withheld)
            let figures: [Double?] = [
                shown.stepsNormalized.map(Double.init), shown.activeEnergyKcal, shown.sleepHours, shown.restingHRBpm,
                shown.hrvMs,
            ]
            guard figures.contains(where: { $0 != nil }), let date = LocalDate(shown.localDate) else { continue }
            latest = max(latest ?? date, date)
        }
        return latest
    }
}

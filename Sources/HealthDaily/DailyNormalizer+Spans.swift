import Foundation
import HealthCore

/// Local dates as instants, for readers that select or stamp samples by day (the CSV
/// export, the CLI's `--from`/`--to`): each day in the zone the daily metrics give it.
extension DailyNormalizer {
    /// From the start of local day `first` to the end of `last`, each in its own zone, with
    /// the bounds ``localDays(from:through:)`` gives them.
    public func span(from first: LocalDate, through last: LocalDate) async throws -> DateInterval {
        let start = try await localDays(from: first, through: first)[0].interval.start
        let end = try await localDays(from: last, through: last)[0].interval.end
        return DateInterval(start: start, end: max(start, end))
    }

    /// Where the zone changes from the start of `first` through `last` (``LocalDay/zoneChanges(_:)``),
    /// resolved ``Configuration/chunkDays`` days at a time: a long range's sleep samples are
    /// never all in memory.
    public func zoneChanges(from first: LocalDate, through last: LocalDate) async throws -> [(start: Date, zone: TimeZone)] {
        var changes: [(start: Date, zone: TimeZone)] = []
        var chunk = first
        while chunk <= last {
            let end = min(last, chunk.adding(days: max(1, configuration.chunkDays) - 1))
            let days = try await localDays(from: chunk, through: end)
            for change in LocalDay.zoneChanges(days) where changes.last?.zone != change.zone { changes.append(change) }
            chunk = end.adding(days: 1)
        }
        return changes
    }
}

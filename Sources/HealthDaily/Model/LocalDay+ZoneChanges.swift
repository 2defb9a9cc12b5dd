import Foundation

extension LocalDay {
    /// Where the zone changes along `days` (consecutive, as ``DailyNormalizer/localDays(from:through:)``
    /// tiles them): the first day's start and zone, then the start of each day in another
    /// zone than the day before. A stamp that takes the zone in effect at its instant reads
    /// every instant in the zone of the day it is on.
    public static func zoneChanges(_ days: [LocalDay]) -> [(start: Date, zone: TimeZone)] {
        var changes: [(start: Date, zone: TimeZone)] = []
        for day in days where changes.last?.zone != day.zone {
            changes.append((start: day.interval.start, zone: day.zone))
        }
        return changes
    }
}

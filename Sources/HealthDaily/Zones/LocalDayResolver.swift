import Foundation
import HealthCore

/// Resolves local dates to ``LocalDay``s from a store's `HKTimeZone` evidence (see
/// ``ZoneTimeline``), tiling days across zone changes (``LocalDay/ending(at:)``).
struct LocalDayResolver: Sendable {
    let store: any HealthQuerying
    let homeZone: TimeZone
    let explicitZone: TimeZone?

    /// The timeline from sleep samples and workouts overlapping `window`.
    func zoneTimeline(over window: DateInterval) async throws -> ZoneTimeline {
        guard explicitZone == nil else { return ZoneTimeline(home: homeZone, explicit: explicitZone) }
        let sleep = try await store.samples(of: .sleepAnalysis, overlapping: window)
        let workouts = try await store.samples(of: .workout, overlapping: window)
        return ZoneTimeline(home: homeZone, observations: ZoneTimeline.observations(from: sleep + workouts))
    }

    /// The local days from `first` through `last`, in order.
    func localDays(from first: LocalDate, through last: LocalDate) async throws -> [LocalDay] {
        let window = DateInterval(
            start: first.instant(hour: 0, in: homeZone).addingTimeInterval(-ZoneTimeline.lookBack - 86400),
            end: last.instant(hour: 0, in: homeZone).addingTimeInterval(ZoneTimeline.lookAhead + 2 * 86400))
        let timeline = try await zoneTimeline(over: window)
        let days = (first.dayNumber...last.dayNumber + 1).map { number in
            let date = LocalDate(dayNumber: number)
            return LocalDay(date: date, zone: timeline.zone(for: date))
        }
        return zip(days, days.dropFirst()).map { $0.ending(at: $1) }
    }
}

import Foundation
import HealthCore
import HealthWire

/// Workouts travel whole (docs/sync.md §4): the feed gives a workout's sample row, and the
/// engine adds what the store holds of it — totals, events, statistics, routes with every
/// point — before the batch is sealed. A workout's route can be large, so the batches of a
/// page are cut by size as well as by count: each stays under ``SyncEngine/batchBytes`` of
/// plaintext (the server takes 16 MiB), a workout bigger than that alone in its batch.
extension SyncEngine {
    /// The plaintext a batch of workouts is kept under (about 4 MiB).
    static let batchBytes = 4 << 20

    /// `items` with each added workout's details and each added correlation's members read
    /// from the source, cut into batches. A workout or correlation deleted meanwhile goes as
    /// its row; its tombstone follows in a later page.
    func wholeWorkouts(_ items: [SyncItem]) async throws -> [[SyncItem]] {
        guard
            items.contains(where: {
                if case .add(let wire) = $0 {
                    wire.type == SampleType.workout.identifier || SampleType(wire.type).kind == .correlation
                } else {
                    false
                }
            })
        else { return items.isEmpty ? [] : [items] }
        var batches: [[SyncItem]] = []
        var batch: [SyncItem] = []
        var bytes = 0
        for item in items {
            var item = item
            var size = 800
            if case .add(var wire) = item, wire.type == SampleType.workout.identifier, let uuid = wire.uuid,
                let workout = try await source.workout(uuid)
            {
                wire.workout = WorkoutWire(Self.withinWireLimits(workout))
                size += Self.estimatedBytes(wire.workout!)
                item = .add(wire)
            } else if case .add(var wire) = item, SampleType(wire.type).kind == .correlation, let uuid = wire.uuid {
                // A correlation with its readings, so that the server links them.
                let around = DateInterval(start: wire.start.addingTimeInterval(-1), end: max(wire.start, wire.end) + 1)
                let found = try await source.correlations(of: SampleType(wire.type), overlapping: around)
                if let match = found.first(where: { $0.correlation.uuid == uuid }), !match.members.isEmpty {
                    wire.members = match.members.prefix(SampleWire.maximumMembers).map(SampleWire.init)
                    size += 600 * match.members.count
                    item = .add(wire)
                }
            }
            if !batch.isEmpty, bytes + size > Self.batchBytes {
                batches.append(batch)
                batch = []
                bytes = 0
            }
            batch.append(item)
            bytes += size
        }
        if !batch.isEmpty { batches.append(batch) }
        return batches
    }

    /// About the JSON a workout's details take, generously: 220 bytes a route point (seven
    /// numbers of up to 17 digits and a time), 300 an event or a statistic, 1 KiB a kept element.
    static func estimatedBytes(_ details: WorkoutWire) -> Int {
        let points = (details.routes ?? []).reduce(0) { $0 + $1.points.count }
        return points * 220 + ((details.events?.count ?? 0) + (details.statistics?.count ?? 0)) * 300
            + (details.kept?.count ?? 0) * 1_024
    }

    /// The route points a workout is thinned to before it is sent: 60,000 at 220 bytes stay
    /// under 13.2 MB, below the server's 16 MiB a batch (and its 100,000-point limit).
    static let sentPoints = 60_000

    /// `workout` within what the server takes: at most ``sentPoints`` route points (evenly
    /// thinned, each route's first and last kept), and the first of its routes, events and
    /// statistics up to ``WorkoutWire/limits``. Real workouts stay far below (a 24-hour
    /// recording at 1 Hz is 86,400 points, a marathon at 1 Hz 15,000).
    static func withinWireLimits(_ workout: Workout) -> Workout {
        var trimmed = workout
        trimmed.routes = Array(trimmed.routes.prefix(WorkoutWire.limits.routes))
        trimmed.events = Array(trimmed.events.prefix(WorkoutWire.limits.events))
        trimmed.statistics = Array(trimmed.statistics.prefix(WorkoutWire.limits.statistics))
        // What the server would refuse (stored before the importer checked it) would cost the
        // whole batch: only plausible points, statistics, totals and duration go.
        for index in trimmed.routes.indices {
            trimmed.routes[index].points = trimmed.routes[index].points.plausiblePoints().points
        }
        trimmed = plausibleFigures(trimmed)
        let total = trimmed.routes.reduce(0) { $0 + $1.points.count }
        guard total > sentPoints else { return trimmed }
        let budget = sentPoints - 2 * trimmed.routes.count
        for index in trimmed.routes.indices {
            let share = trimmed.routes[index].points.count * budget / total
            trimmed.routes[index].points = trimmed.routes[index].points.thinned(to: max(2, share))
        }
        return trimmed
    }

    /// `workout` without the figures the server's ranges refuse (``PlausibleRange``): a
    /// statistic ending before it starts or out of its type's range, an implausible total
    /// or duration.
    static func plausibleFigures(_ workout: Workout) -> Workout {
        var kept = workout
        func refused(_ change: (inout Workout) -> Void) -> Bool {
            var alone = Workout(
                activityType: workout.activityType, start: workout.start, end: workout.end, source: workout.source)
            change(&alone)
            return PlausibleRange.violation(of: .workout(alone)) != nil
        }
        kept.statistics = workout.statistics.filter { statistic in
            if let start = statistic.start, let end = statistic.end, end < start { return false }
            return !refused { $0.statistics = [statistic] }
        }
        // A unit the server does not know, or a length out of range: the event or duration left out.
        kept.events = workout.events.filter { event in
            guard Workout.isDurationUnit(event.durationUnit) else { return false }
            guard let duration = event.duration else { return true }
            return (Workout.seconds(duration, unit: event.durationUnit) ?? .infinity) <= PlausibleRange.longestWorkout
        }
        if !Workout.isDurationUnit(workout.durationUnit)
            || refused({
                $0.duration = workout.duration
                $0.durationUnit = workout.durationUnit
            })
        {
            kept.duration = nil
            kept.durationUnit = nil
        }
        if refused({
            $0.totalEnergyBurned = workout.totalEnergyBurned; $0.totalEnergyBurnedUnit = workout.totalEnergyBurnedUnit
        }) {
            kept.totalEnergyBurned = nil
            kept.totalEnergyBurnedUnit = nil
        }
        if refused({
            $0.totalDistance = workout.totalDistance; $0.totalDistanceUnit = workout.totalDistanceUnit
        }) {
            kept.totalDistance = nil
            kept.totalDistanceUnit = nil
        }
        return kept
    }
}

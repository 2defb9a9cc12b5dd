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

    /// `items` with each added workout's details read from the source, cut into batches.
    /// A workout deleted meanwhile goes as its row; its tombstone follows in a later page.
    func wholeWorkouts(_ items: [SyncItem]) async throws -> [[SyncItem]] {
        guard items.contains(where: { if case .add(let wire) = $0 { wire.type == SampleType.workout.identifier } else { false } })
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

    /// About the JSON a workout's details take: 150 bytes a route point, 200 an event or a
    /// statistic.
    static func estimatedBytes(_ details: WorkoutWire) -> Int {
        let points = (details.routes ?? []).reduce(0) { $0 + $1.points.count }
        return points * 150 + ((details.events?.count ?? 0) + (details.statistics?.count ?? 0)) * 200
    }

    /// `workout` with at most ``WorkoutWire/limits`` route points (evenly thinned, each
    /// route's first and last kept): the server refuses more, and a batch past its size would
    /// never be taken. Real routes stay far below (a 24-hour recording at 1 Hz is 86,400).
    static func withinWireLimits(_ workout: Workout) -> Workout {
        let total = workout.routes.reduce(0) { $0 + $1.points.count }
        guard total > WorkoutWire.limits.points else { return workout }
        var thinned = workout
        let budget = WorkoutWire.limits.points - 2 * workout.routes.count
        for index in thinned.routes.indices {
            let share = thinned.routes[index].points.count * budget / total
            thinned.routes[index].points = thinned.routes[index].points.thinned(to: max(2, share))
        }
        return thinned
    }
}

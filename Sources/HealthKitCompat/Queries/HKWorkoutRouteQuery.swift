#if !canImport(HealthKit)
    import Foundation
    import HealthCore

    /// The locations of a workout route, delivered in batches in the order recorded: the
    /// handler is called once per batch, the last with `done` set (once with an empty batch
    /// for a route without points). Needs read access to ``HKSeriesType/workoutRoute()``.
    public final class HKWorkoutRouteQuery: HKQuery, @unchecked Sendable {
        /// Locations per call of the handler.
        static let batchSize = 500

        private let route: HKWorkoutRoute
        private let interval: DateInterval?
        private let dataHandler: @Sendable (HKWorkoutRouteQuery, [CLLocation]?, Bool, (any Error)?) -> Void

        public init(
            route workoutRoute: HKWorkoutRoute,
            dataHandler: @escaping @Sendable (HKWorkoutRouteQuery, [CLLocation]?, Bool, (any Error)?) -> Void
        ) {
            self.route = workoutRoute
            self.interval = nil
            self.dataHandler = dataHandler
            super.init(objectType: HKSeriesType.workoutRoute(), predicate: nil)
        }

        /// The locations of `workoutRoute` whose time lies in `dateInterval`.
        public init(
            route workoutRoute: HKWorkoutRoute, dateInterval: DateInterval,
            dataHandler: @escaping @Sendable (HKWorkoutRouteQuery, [CLLocation]?, Bool, (any Error)?) -> Void
        ) {
            self.route = workoutRoute
            self.interval = dateInterval
            self.dataHandler = dataHandler
            super.init(objectType: HKSeriesType.workoutRoute(), predicate: nil)
        }

        override func run(on store: HKHealthStore) async {
            do {
                let locations = try await store.routeLocations(route)
                let kept = interval.map { interval in locations.filter { interval.contains($0.timestamp) } } ?? locations
                var start = 0
                repeat {
                    let end = min(kept.count, start + Self.batchSize)
                    guard !isStopped, !Task.isCancelled else { return }
                    dataHandler(self, Array(kept[start..<end]), end == kept.count, nil)
                    start = end
                } while start < kept.count
            } catch {
                if !isStopped { dataHandler(self, nil, true, error) }
            }
        }
    }

    extension HKHealthStore {
        /// The locations of `route`, in the order recorded; none when reading routes is not
        /// allowed. A route whose workout is gone is an error, as in HealthKit.
        func routeLocations(_ route: HKWorkoutRoute) async throws -> [CLLocation] {
            guard try mayRead(HKSeriesType.workoutRoute()) else { return [] }
            guard let workout = try await store().workout(route.workoutUUID), route.index < workout.routes.count else {
                throw HKError(.errorNoData, message: "the route's workout is no longer stored")
            }
            let recorded = workout.routes[route.index]
            let fallback = recorded.start ?? workout.start
            return recorded.points.map { SampleBridge.location($0, defaultTime: fallback) }
        }
    }
#endif

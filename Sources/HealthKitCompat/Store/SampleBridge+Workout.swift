#if !canImport(HealthKit)
    import Foundation
    import HealthCore

    extension SampleBridge {
        /// The HealthKit workout of a stored one, with its events, activities, statistics and
        /// totals; `nil` for an activity type HealthKit cannot name.
        static func workout(_ workout: Workout) -> HKWorkout? {
            guard let activity = HKWorkoutActivityType(exportName: workout.activityType) else { return nil }
            let statistics = statistics(workout.statistics, start: workout.start, end: workout.end)
            let configuration = HKWorkoutConfiguration()
            configuration.activityType = activity
            configuration.locationType = location(of: workout.metadata)
            let activities = workout.activities.map { recorded in
                let activityConfiguration = HKWorkoutConfiguration()
                activityConfiguration.activityType = activity
                activityConfiguration.locationType =
                    recorded.metadata.isEmpty ? configuration.locationType : location(of: recorded.metadata)
                let end = recorded.end ?? workout.end
                return HKWorkoutActivity(
                    uuid: recorded.uuid ?? activityUUID(workout: workout.uuid, start: recorded.start),
                    configuration: activityConfiguration, start: recorded.start, end: recorded.end,
                    duration: recorded.durationSeconds ?? max(0, end.timeIntervalSince(recorded.start)),
                    metadata: metadata(recorded.metadata), events: recorded.events.compactMap(event),
                    statistics: self.statistics(recorded.statistics, start: recorded.start, end: end))
            }
            return HKWorkout(
                activityType: activity, start: workout.start, end: workout.end, uuid: workout.uuid,
                metadata: metadata(workout.metadata), sourceRevision: revision(workout.source),
                device: workout.device.map(device), duration: workout.durationSeconds,
                events: workout.events.compactMap(event), activities: activities, statistics: statistics,
                totalEnergyBurned: quantity(workout.totalEnergyBurned, workout.totalEnergyBurnedUnit ?? "kcal"),
                totalDistance: quantity(workout.totalDistance, workout.totalDistanceUnit ?? "km"))
        }

        /// The HealthKit routes of a stored workout, in the order recorded.
        static func routes(of workout: Workout) -> [HKWorkoutRoute] {
            workout.routes.indices.map { index in
                let route = workout.routes[index]
                return HKWorkoutRoute(
                    workout: workout, index: index, sourceRevision: revision(route.source ?? workout.source),
                    device: (route.device ?? workout.device).map(device), metadata: metadata(route.metadata))
            }
        }

        /// A route point as Core Location gives it: an unknown accuracy, course or speed is −1,
        /// an unknown altitude 0 with a vertical accuracy of −1.
        static func location(_ point: RoutePoint, defaultTime: Date) -> CLLocation {
            CLLocation(
                coordinate: CLLocationCoordinate2D(latitude: point.latitude, longitude: point.longitude),
                altitude: point.elevation ?? 0, horizontalAccuracy: point.horizontalAccuracy ?? -1,
                verticalAccuracy: point.elevation == nil ? -1 : point.verticalAccuracy ?? 0, course: point.course ?? -1,
                speed: point.speed ?? -1, timestamp: point.time ?? defaultTime)
        }

        private static func revision(_ source: Source) -> HKSourceRevision {
            HKSourceRevision(source: HKSource(name: source.name), version: source.version)
        }

        private static func quantity(_ value: Double?, _ unit: String) -> HKQuantity? {
            guard let value, value.isFinite, let unit = HKUnit.stored(unit) else { return nil }
            return HKQuantity(unit: unit, doubleValue: value)
        }

        private static func event(_ event: WorkoutEvent) -> HKWorkoutEvent? {
            guard let raw = HealthKitWorkoutEvents.values[event.type], let type = HKWorkoutEventType(rawValue: raw) else {
                return nil
            }
            let seconds = Workout.seconds(event.duration, unit: event.durationUnit) ?? 0
            return HKWorkoutEvent(
                type: type, dateInterval: DateInterval(start: event.date, duration: seconds),
                metadata: metadata(event.metadata))
        }

        /// One statistic per quantity type (the first recorded), in the unit recorded.
        private static func statistics(
            _ figures: [WorkoutStatistic], start: Date, end: Date
        ) -> [HKQuantityType: HKStatistics] {
            var answer: [HKQuantityType: HKStatistics] = [:]
            for figure in figures {
                let type = HKQuantityType(identifier: figure.type.identifier)
                guard answer[type] == nil, let unit = figure.unit.flatMap(HKUnit.stored) ?? type.canonicalUnit,
                    type.is(compatibleWith: unit)
                else { continue }
                let from = figure.start ?? start
                answer[type] = HKStatistics(
                    type: type, start: from, end: max(from, figure.end ?? end), unit: unit,
                    figures: .init(
                        sum: figure.sum, average: figure.average, minimum: figure.minimum, maximum: figure.maximum),
                    bySource: nil)
            }
            return answer
        }

        /// Indoor or outdoor by `HKIndoorWorkout` (1 or 0), else unknown.
        private static func location(of metadata: [MetadataEntry]) -> HKWorkoutSessionLocationType {
            switch metadata.first(where: { $0.key == HKMetadataKeyIndoorWorkout })?.value {
            case "1", "true": .indoor
            case "0", "false": .outdoor
            default: .unknown
            }
        }

        /// An activity written without a UUID: one derived from its workout and start.
        private static func activityUUID(workout: UUID, start: Date) -> UUID {
            var key = ContentKeyBuilder(tag: "HKWorkoutActivity")
            key.add(workout.uuidString)
            key.add(Int64((start.timeIntervalSince1970 * 1000).rounded()))
            return key.finish().uuid
        }
    }
#endif

#if !canImport(HealthKit)
    import Foundation
    import HealthCore

    /// A type of series sample: a workout's route.
    public final class HKSeriesType: HKSampleType, @unchecked Sendable {
        /// The type of ``HKWorkoutRoute`` samples.
        public class func workoutRoute() -> HKSeriesType { HKSeriesType(identifier: HKWorkoutRouteTypeIdentifier) }
    }

    /// The identifier of the workout route type.
    public let HKWorkoutRouteTypeIdentifier = "HKWorkoutRouteTypeIdentifier"

    /// A sample that stands for a series of values, read with a query of its own.
    public class HKSeriesSample: HKSample, @unchecked Sendable {
        /// The number of values in the series.
        public let count: Int

        init(
            type: HKSeriesType, count: Int, start: Date, end: Date, uuid: UUID, metadata: [String: Any]?,
            sourceRevision: HKSourceRevision, device: HKDevice?
        ) {
            self.count = count
            super.init(
                type: type, start: start, end: end, uuid: uuid, metadata: metadata, sourceRevision: sourceRevision,
                device: device)
        }
    }

    /// One route of a workout: its locations are read with ``HKWorkoutRouteQuery``.
    ///
    /// Its UUID is derived from its workout's UUID and its place among the workout's routes
    /// (an export gives routes none), so it is the same on every read.
    public final class HKWorkoutRoute: HKSeriesSample, @unchecked Sendable {
        /// The workout it belongs to, and its place among the workout's routes.
        let workoutUUID: UUID
        let index: Int

        init(workout: Workout, index: Int, sourceRevision: HKSourceRevision, device: HKDevice?, metadata: [String: Any]?) {
            let route = workout.routes[index]
            self.workoutUUID = workout.uuid
            self.index = index
            let times = route.points.compactMap(\.time)
            let start = route.start ?? times.min() ?? workout.start
            let end = max(start, route.end ?? times.max() ?? workout.end)
            super.init(
                type: .workoutRoute(), count: route.points.count, start: start, end: end,
                uuid: Self.uuid(workout: workout.uuid, index: index), metadata: metadata, sourceRevision: sourceRevision,
                device: device)
        }

        /// The derived UUID of route `index` of the workout `workout`.
        static func uuid(workout: UUID, index: Int) -> UUID {
            var key = ContentKeyBuilder(tag: "HKWorkoutRoute")
            key.add(workout.uuidString)
            key.add(Int64(index))
            return key.finish().uuid
        }
    }

    #if canImport(CoreLocation)
        @_exported import CoreLocation
    #else
        public typealias CLLocationDegrees = Double
        public typealias CLLocationDistance = Double
        public typealias CLLocationAccuracy = Double
        public typealias CLLocationDirection = Double
        public typealias CLLocationSpeed = Double

        /// A latitude and longitude in degrees (WGS 84).
        public struct CLLocationCoordinate2D: Sendable, Hashable {
            public var latitude: CLLocationDegrees
            public var longitude: CLLocationDegrees

            public init() { self.init(latitude: 0, longitude: 0) }

            public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
                self.latitude = latitude
                self.longitude = longitude
            }
        }

        /// Core Location's `CLLocation` where Core Location does not exist: the same property
        /// names and the same conventions (a negative accuracy, course or speed means "not
        /// known"; an altitude is meaningful only with a non-negative vertical accuracy).
        public final class CLLocation: NSObject, @unchecked Sendable {
            public let coordinate: CLLocationCoordinate2D
            /// Metres above sea level.
            public let altitude: CLLocationDistance
            public let horizontalAccuracy: CLLocationAccuracy
            public let verticalAccuracy: CLLocationAccuracy
            /// Degrees clockwise from true north; negative when not known.
            public let course: CLLocationDirection
            public let courseAccuracy: CLLocationDirection
            /// Metres per second; negative when not known.
            public let speed: CLLocationSpeed
            public let speedAccuracy: CLLocationSpeed
            public let timestamp: Date

            public init(
                coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy: CLLocationAccuracy,
                verticalAccuracy: CLLocationAccuracy, course: CLLocationDirection, courseAccuracy: CLLocationDirection,
                speed: CLLocationSpeed, speedAccuracy: CLLocationSpeed, timestamp: Date
            ) {
                self.coordinate = coordinate
                self.altitude = altitude
                self.horizontalAccuracy = horizontalAccuracy
                self.verticalAccuracy = verticalAccuracy
                self.course = course
                self.courseAccuracy = courseAccuracy
                self.speed = speed
                self.speedAccuracy = speedAccuracy
                self.timestamp = timestamp
                super.init()
            }

            public convenience init(
                coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy: CLLocationAccuracy,
                verticalAccuracy: CLLocationAccuracy, course: CLLocationDirection, speed: CLLocationSpeed, timestamp: Date
            ) {
                self.init(
                    coordinate: coordinate, altitude: altitude, horizontalAccuracy: horizontalAccuracy,
                    verticalAccuracy: verticalAccuracy, course: course, courseAccuracy: -1, speed: speed, speedAccuracy: -1,
                    timestamp: timestamp)
            }

            public convenience init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
                self.init(
                    coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude), altitude: 0,
                    horizontalAccuracy: 0, verticalAccuracy: -1, course: -1, speed: -1, timestamp: Date())
            }

            /// The great-circle distance to `location`, in metres (haversine, mean Earth radius).
            public func distance(from location: CLLocation) -> CLLocationDistance {
                RoutePoint(latitude: coordinate.latitude, longitude: coordinate.longitude)
                    .metres(to: RoutePoint(latitude: location.coordinate.latitude, longitude: location.coordinate.longitude))
            }
        }
    #endif
#endif

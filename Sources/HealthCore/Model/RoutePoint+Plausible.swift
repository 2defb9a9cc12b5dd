import Foundation

/// What a route point may hold: a position on Earth, and optional readings within what a
/// GPS receiver can report. Every way in applies it — the importer and Health Auto Export
/// keep a route's plausible points (``plausible``) and count the others, the sync client
/// sends only those, and the server refuses a point with a ``problem`` (docs/workouts.md).
extension RoutePoint {
    /// Metres: below the Dead Sea shore's −430 m with margin, to above an airliner's cruise.
    public static let elevationBounds = -1_000.0...20_000.0
    /// Metres per second: up to an airliner's speed; −1 is Core Location's "not known".
    public static let speedBounds = -1.0...350.0
    /// Degrees from true north; −1 is "not known".
    public static let courseBounds = -1.0...360.0
    /// Metres; −1 is "not known".
    public static let accuracyBounds = -1.0...100_000.0
    /// The most route points one workout may bring in through the server (`POST /v1/samples`,
    /// the sync, Health Auto Export): a day's walk at one point a second.
    public static let maximumPerWorkout = 100_000

    /// The first field that cannot be a reading of a position (its name as the wire spells
    /// it, and why), or `nil` when the point is plausible.
    public var problem: (field: String, reason: String)? {
        if !latitude.isFinite || !(-90...90).contains(latitude) { return ("lat", "lat must be a latitude, −90 to 90") }
        if !longitude.isFinite || !(-180...180).contains(longitude) {
            return ("lon", "lon must be a longitude, −180 to 180")
        }
        for (field, value, bounds, unit) in optionalReadings {
            if let value, !(value.isFinite && bounds.contains(value)) {
                return (
                    field,
                    "\(field) must be between \(SampleValue.format(bounds.lowerBound)) and "
                        + "\(SampleValue.format(bounds.upperBound)) \(unit)"
                )
            }
        }
        return nil
    }

    /// The point with each implausible optional reading removed; `nil` when its position is
    /// not one on Earth.
    public var plausible: RoutePoint? {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            return nil
        }
        func kept(_ value: Double?, _ bounds: ClosedRange<Double>) -> Double? {
            value.flatMap { $0.isFinite && bounds.contains($0) ? $0 : nil }
        }
        var point = self
        point.elevation = kept(elevation, Self.elevationBounds)
        point.speed = kept(speed, Self.speedBounds)
        point.course = kept(course, Self.courseBounds)
        point.horizontalAccuracy = kept(horizontalAccuracy, Self.accuracyBounds)
        point.verticalAccuracy = kept(verticalAccuracy, Self.accuracyBounds)
        return point
    }

    private var optionalReadings: [(String, Double?, ClosedRange<Double>, String)] {
        [
            ("ele", elevation, Self.elevationBounds, "m"), ("speed", speed, Self.speedBounds, "m/s"),
            ("course", course, Self.courseBounds, "degrees"), ("h_acc", horizontalAccuracy, Self.accuracyBounds, "m"),
            ("v_acc", verticalAccuracy, Self.accuracyBounds, "m"),
        ]
    }
}

extension [RoutePoint] {
    /// The plausible points (``RoutePoint/plausible``) and how many were changed or left out.
    public func plausiblePoints() -> (points: [RoutePoint], altered: Int) {
        var altered = 0
        let points = compactMap { point -> RoutePoint? in
            let kept = point.plausible
            if kept != point { altered += 1 }
            return kept
        }
        return (points, altered)
    }
}

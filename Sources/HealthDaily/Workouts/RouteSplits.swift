import Foundation
import HealthCore

/// A route's splits: the time of each whole kilometre (or mile) along it, from its points'
/// positions and times.
///
/// The distance between two points is the great-circle (haversine) distance on a sphere of
/// the Earth's mean radius, 6,371,008.8 m; the route's points are taken in recorded order,
/// each route of a workout after the one before. A split ends where the distance passes a
/// whole unit, at a time interpolated linearly between the two points around it; the rest
/// after the last whole unit is a last, shorter split. Points without a time are skipped.
///
/// ```swift
/// // Two points 0.009° of latitude apart (1,000.75 m), 300 s apart: one split of 1 km in
/// // 299.8 s, then 0.75 m in 0.2 s.
/// RouteSplits.splits([a, b], unit: 1000)
/// ```
public enum RouteSplits {
    public static let earthRadius = RoutePoint.earthRadius
    public static let kilometre = 1_000.0
    public static let mile = 1_609.344

    public struct Split: Sendable, Equatable, Codable {
        /// 1 for the first unit.
        public var index: Int
        /// Metres in it: the unit, or less for the last.
        public var meters: Double
        public var seconds: Double

        public init(index: Int, meters: Double, seconds: Double) {
            self.index = index
            self.meters = meters
            self.seconds = seconds
        }
    }

    /// The great-circle distance between two positions, metres (``RoutePoint/metres(to:)``).
    public static func distance(_ a: RoutePoint, _ b: RoutePoint) -> Double { a.metres(to: b) }

    /// The splits of `points` by `unit` metres.
    public static func splits(_ points: [RoutePoint], unit: Double = kilometre) -> [Split] {
        splits(routes: [points], unit: unit)
    }

    /// The most splits given (40,000 km of kilometres): a bound, whatever a route holds.
    public static let maximumSplits = 40_000

    /// The splits of a workout's routes, one after another: the way from one route's last
    /// point to the next one's first is not counted (the recording stopped), its time is.
    public static func splits(routes: [[RoutePoint]], unit: Double = kilometre) -> [Split] {
        var timed: [(RoutePoint, Date)] = []
        var starts: Set<Int> = []  // indexes of `timed` that begin a route after the first
        for route in routes {
            let points = route.compactMap { point in point.time.map { (point, $0) } }
            if !timed.isEmpty, !points.isEmpty { starts.insert(timed.count) }
            timed += points
        }
        guard timed.count > 1, unit > 0 else { return [] }
        var splits: [Split] = []
        var covered = 0.0  // metres at the previous point
        var splitStart = (meters: 0.0, time: timed[0].1)
        for index in 1..<timed.count {
            let (previous, previousTime) = timed[index - 1]
            let (point, time) = timed[index]
            let seconds = time.timeIntervalSince(previousTime)
            // A jump faster than any GPS reports (the other side of the Earth a second later)
            // is not a way travelled.
            let step = starts.contains(index) ? 0 : previous.travelled(to: point, seconds: seconds)
            var next = (Double(splits.count) + 1) * unit
            while step > 0, covered + step >= next, splits.count < maximumSplits {
                let fraction = (next - covered) / step
                let at = previousTime.addingTimeInterval(seconds * fraction)
                splits.append(
                    Split(index: splits.count + 1, meters: unit, seconds: at.timeIntervalSince(splitStart.time)))
                splitStart = (next, at)
                next += unit
            }
            covered += step
        }
        let rest = covered - splitStart.meters
        if rest > 0.5 {
            splits.append(
                Split(index: splits.count + 1, meters: rest, seconds: timed[timed.count - 1].1.timeIntervalSince(splitStart.time))
            )
        }
        return splits
    }
}

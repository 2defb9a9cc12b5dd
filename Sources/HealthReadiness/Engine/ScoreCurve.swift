/// A piecewise-linear map from a deviation to a 0–100 sub-score, flat beyond its first and
/// last points. Every curve here is monotone, which is what makes the score monotone in
/// each input (see docs/readiness.md).
struct ScoreCurve: Sendable {
    let points: [(x: Double, y: Double)]

    init(_ points: [(x: Double, y: Double)]) {
        precondition(points.count >= 2 && zip(points, points.dropFirst()).allSatisfy { $0.x < $1.x })
        self.points = points
    }

    func callAsFunction(_ x: Double) -> Double {
        if x <= points[0].x { return points[0].y }
        for (left, right) in zip(points, points.dropFirst()) where x <= right.x {
            return left.y + (right.y - left.y) * (x - left.x) / (right.x - left.x)
        }
        return points[points.count - 1].y
    }
}

import Foundation

/// How two daily series move together (docs/mcp.md §Analysis): Pearson's r on the values,
/// Spearman's ρ on their ranks (ties share their mean rank), over the days both have a value.
public struct Correlation: Hashable, Sendable {
    /// Fewer paired days than this give no answer: two weeks, so a weekday rhythm cannot
    /// pass for a relation on its own.
    public static let minimumPairs = 14

    /// Days with a value of both series.
    public let pairs: Int
    /// Pearson's r, −1…1; `nil` when a series does not vary.
    public let pearson: Double?
    /// Spearman's ρ, −1…1; `nil` when a series does not vary.
    public let spearman: Double?

    /// The correlation of `x` and `y`, paired by position: a pair with a `nil` on either side
    /// is left out. `nil` with fewer than ``minimumPairs`` pairs.
    public init?(_ x: [Double?], _ y: [Double?]) {
        var a: [Double] = []
        var b: [Double] = []
        for (left, right) in zip(x, y) {
            guard let left, let right, left.isFinite, right.isFinite else { continue }
            a.append(left)
            b.append(right)
        }
        guard a.count >= Self.minimumPairs else { return nil }
        pairs = a.count
        pearson = Self.pearson(a, b)
        spearman = Self.pearson(Self.ranks(a), Self.ranks(b))
    }

    /// Pearson's r of two equally long series (centred sums, two passes); `nil` when one
    /// has no variance.
    public static func pearson(_ x: [Double], _ y: [Double]) -> Double? {
        precondition(x.count == y.count)
        guard x.count >= 2 else { return nil }
        let count = Double(x.count)
        let meanX = x.reduce(0, +) / count
        let meanY = y.reduce(0, +) / count
        var sxy = 0.0
        var sxx = 0.0
        var syy = 0.0
        for (left, right) in zip(x, y) {
            let dx = left - meanX
            let dy = right - meanY
            sxy += dx * dy
            sxx += dx * dx
            syy += dy * dy
        }
        // A constant series has no variance, whatever the rounding of its mean left in sxx.
        guard sxx > 0, syy > 0, x.contains(where: { $0 != x[0] }), y.contains(where: { $0 != y[0] }) else { return nil }
        return max(-1, min(1, sxy / (sxx.squareRoot() * syy.squareRoot())))
    }

    /// Ranks from 1, ties given the mean of the ranks they span (as `scipy.stats.rankdata`).
    public static func ranks(_ values: [Double]) -> [Double] {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Double](repeating: 0, count: values.count)
        var start = 0
        while start < order.count {
            var end = start
            while end + 1 < order.count, values[order[end + 1]] == values[order[start]] { end += 1 }
            let rank = Double(start + end) / 2 + 1
            for position in start...end { ranks[order[position]] = rank }
            start = end + 1
        }
        return ranks
    }

    /// Words for a coefficient's size: `none` below 0.1, `weak` below 0.3, `moderate` below
    /// 0.5, `strong` from 0.5 (Cohen's thresholds), with its direction.
    public static func strength(_ coefficient: Double?) -> String {
        guard let coefficient else { return "undefined (a series does not vary)" }
        let size = abs(coefficient)
        let words =
            size < 0.1 ? "none" : size < 0.3 ? "weak" : size < 0.5 ? "moderate" : "strong"
        guard words != "none" else { return "none" }
        return words + (coefficient > 0 ? " positive" : " negative")
    }
}

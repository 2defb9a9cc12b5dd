import Foundation

/// One metric before and after an event day (docs/mcp.md §Analysis): the means of the days
/// on each side with a value, their difference, and that difference in the person's own
/// day-to-day swing — the sample standard deviation of the metric over the days before the
/// event (the baseline, which holds the days before).
public struct EventComparison: Hashable, Sendable {
    /// A side with fewer days of data has no mean.
    public static let minimumDays = 3
    /// A baseline with fewer days of data has no standard deviation.
    public static let minimumBaselineDays = 14

    /// Days with a value before the event, after it, and in the baseline.
    public let beforeDays: Int
    public let afterDays: Int
    public let baselineDays: Int
    /// The mean of each side; `nil` with fewer than ``minimumDays`` days.
    public let beforeMean: Double?
    public let afterMean: Double?
    /// After − before.
    public let difference: Double?
    /// The baseline's sample standard deviation (n − 1).
    public let baselineSD: Double?
    /// ``difference`` ÷ ``baselineSD``; `nil` without either, or when the baseline does not vary.
    public let differenceInSD: Double?

    /// The comparison of the values `before` and `after` the event day, with the `baseline`
    /// (the days before the event, those of `before` among them).
    public init(before: [Double], after: [Double], baseline: [Double]) {
        beforeDays = before.count
        afterDays = after.count
        baselineDays = baseline.count
        let beforeMean = before.count >= Self.minimumDays ? before.reduce(0, +) / Double(before.count) : nil
        let afterMean = after.count >= Self.minimumDays ? after.reduce(0, +) / Double(after.count) : nil
        let difference = afterMean.flatMap { after in beforeMean.map { after - $0 } }
        var baselineSD: Double?
        if baseline.count >= Self.minimumBaselineDays {
            let mean = baseline.reduce(0, +) / Double(baseline.count)
            let squares = baseline.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
            baselineSD = (squares / Double(baseline.count - 1)).squareRoot()
        }
        (self.beforeMean, self.afterMean, self.difference, self.baselineSD) = (beforeMean, afterMean, difference, baselineSD)
        if let difference, let baselineSD, baselineSD > 0, baseline.contains(where: { $0 != baseline[0] }) {
            differenceInSD = difference / baselineSD
        } else {
            differenceInSD = nil
        }
    }
}

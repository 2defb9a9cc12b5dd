import Foundation
import HealthCore
import HealthDaily
import HealthMetrics

/// Days computed once and kept until the store changes: a day's metrics do not depend on
/// the range they were asked in (`RangeIndependenceTests`), so a long-running page computes
/// each day once. Call ``clear()`` on every change of the store (`HealthDatabase.observe`).
public actor DailyMetricsCache: DailyMetricsSource {
    private let normalizer: DailyNormalizer
    private var days: [Int: NormalizedDailyMetrics] = [:]
    /// Days kept at most (ten years); beyond, the cache starts over.
    private let capacity = 3660

    public init(normalizer: DailyNormalizer) { self.normalizer = normalizer }

    public func metrics(from first: LocalDate, through last: LocalDate) async throws -> [NormalizedDailyMetrics] {
        guard first <= last else { return [] }
        // The runs of days not cached yet, each computed in one call.
        var number = first.dayNumber
        while number <= last.dayNumber {
            guard days[number] == nil else {
                number += 1
                continue
            }
            var end = number
            while end < last.dayNumber, days[end + 1] == nil { end += 1 }
            let computed = try await normalizer.metrics(from: LocalDate(dayNumber: number), through: LocalDate(dayNumber: end))
            if days.count + computed.count > capacity { days = [:] }
            for day in computed {
                guard let date = LocalDate(day.localDate) else { continue }
                days[date.dayNumber] = day
            }
            number = end + 1
        }
        return (first.dayNumber...last.dayNumber).compactMap { days[$0] }
    }

    /// Forgets every day: the store changed.
    public func clear() { days = [:] }
}

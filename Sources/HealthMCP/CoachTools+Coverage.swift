import Foundation
import HealthCore
import HealthDaily
import HealthMetrics
import MCP

/// `coverage` (issue 36 §3; docs/mcp.md §Coverage): how complete the days behind an answer
/// are, so a coach never mistakes missing data for a zero — which days of the range have a
/// value of each metric, which devices the steps and the nights came from, which days were
/// lived in another zone than the usual one, and which kinds the reader may not see.
extension CoachTools {
    /// Runs of missing days listed per metric; the others are counted.
    static let coverageRunsShown = 10
    /// Days in another zone listed; the others are counted.
    static let coverageZoneDaysShown = 31

    /// The coverage of `days` (one per local day, in order) for this reader; `usual` is the
    /// usual zone when the tool has its own, else the zone most of `days` were in.
    func coverage(of days: [NormalizedDailyMetrics], usual: String? = nil) -> Value {
        let shown = Self.metrics.filter { !source.withheld.contains($0.category) }
        let metrics: [Value] = shown.map { metric in
            var runs: [(String, String)] = []
            for day in days where metric.value(day) == nil {
                if let last = runs.last, let end = LocalDate(last.1), end.adding(days: 1).description == day.localDate {
                    runs[runs.count - 1].1 = day.localDate
                } else {
                    runs.append((day.localDate, day.localDate))
                }
            }
            return .object([
                "metric": .string(metric.name), "days_with_data": .int(days.count { metric.value($0) != nil }),
                "missing": .array(
                    runs.prefix(Self.coverageRunsShown).map { .object(["from": .string($0.0), "to": .string($0.1)]) }),
                "missing_runs_not_shown": .int(max(0, runs.count - Self.coverageRunsShown)),
            ])
        }
        var sources: [String: Value] = [:]
        if !source.withheld.contains(.steps) {
            // A family the rules do not name (a day posted as a day) counts as `other`.
            let families = days.compactMap { $0.stepsSources?.primarySource }.map { name in
                SourceCategory(rawValue: name)?.rawValue ?? SourceCategory.other.rawValue
            }
            let counts = Dictionary(grouping: families, by: { $0 }).mapValues(\.count)
            sources["steps"] = .object(
                Dictionary(
                    uniqueKeysWithValues: SourceCategory.allCases.map { ($0.rawValue, Value.int(counts[$0.rawValue] ?? 0)) }))
        }
        if !source.withheld.contains(.sleep) {
            let counts = Dictionary(grouping: days.compactMap { $0.sleepSource?.basis }, by: { $0 }).mapValues(\.count)
            sources["sleep"] = .object(
                Dictionary(uniqueKeysWithValues: SleepBasis.allCases.map { ($0.rawValue, Value.int(counts[$0] ?? 0)) }))
        }
        let usual = usual ?? usualZone(of: days)
        // A day without data has the fallback zone, not one the person lived in: never "away".
        let away = days.filter { hasData($0) && $0.timezoneIdentifier != usual }.map(\.localDate)
        return .object([
            "days": .int(days.count), "from": .text(days.first?.localDate), "to": .text(days.last?.localDate),
            "metrics": .array(metrics), "sources": .object(sources), "usual_timezone": .text(usual),
            "other_timezone_days": .array(away.prefix(Self.coverageZoneDaysShown).map { .string($0) }),
            "other_timezone_days_not_shown": .int(max(0, away.count - Self.coverageZoneDaysShown)),
            "withheld": .array(source.withheld.sorted().map { .string($0.rawValue) }),
        ])
    }

    /// Whether the day holds a value of a metric this reader may see: only such days tell
    /// where the person was (a day without data gets the fallback zone).
    func hasData(_ day: NormalizedDailyMetrics) -> Bool {
        Self.metrics.contains { !source.withheld.contains($0.category) && $0.value(day) != nil }
    }

    /// The zone most of the days with data were in (ties: the first by name); `nil` without any.
    func usualZone(of days: [NormalizedDailyMetrics]) -> String? {
        let zones = Dictionary(grouping: days.filter(hasData).map(\.timezoneIdentifier), by: { $0 }).mapValues(\.count)
        return zones.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
    }
}

import Foundation
import HealthCore
import HealthDaily
import HealthMetrics
import MCP

/// `correlate_metrics` and `compare_around_event` (issue 36 §4; formulas in docs/mcp.md
/// §Analysis): how two daily metrics move together, and how a person's days before and
/// after a day differ, in their own normal range.
extension CoachTools {
    static let analysisTools: [Tool] = [
        Tool(
            name: "correlate_metrics", title: "Correlate two daily metrics",
            description:
                "Pearson's r and Spearman's ρ between two daily metrics over the days both have a value, the second taken `lag` days later (0–3: does a short night go with a lower HRV the next morning?). Needs at least 14 paired days. Says the strength in words (|r| < 0.1 none, < 0.3 weak, < 0.5 moderate, else strong). Correlation is not cause.",
            inputSchema: Schema.object(
                [
                    "metric_a": Schema.string("The first metric.", oneOf: metrics.map(\.name)),
                    "metric_b": Schema.string("The second metric, taken `lag` days after the first.", oneOf: metrics.map(\.name)),
                    "from": Schema.date("First day of the first metric (default 90 days before `to`)."),
                    "to": Schema.date(
                        "Last day of the first metric (default today, or the last day with data when nothing is newer)."),
                    "lag": Schema.integer("Days between the first metric's day and the second's (default 0).", 0...3),
                ], required: ["metric_a", "metric_b"]),
            annotations: Tool.Annotations(readOnlyHint: true, idempotentHint: true, openWorldHint: false),
            outputSchema: OutputSchema.correlation),
        Tool(
            name: "compare_around_event", title: "Before and after a day",
            description:
                "Sleep hours, HRV, resting heart rate and steps in the `days` before a day (an illness, a new medication, a race, a move) against the `days` after it, the event day itself in neither. Each difference is also given in the person's own standard deviations over the 60 days before the event, so 1.0 means one normal day-to-day swing.",
            inputSchema: Schema.object(
                [
                    "date": Schema.date("The event's day."),
                    "days": Schema.integer("Days on each side (default 14).", 3...28),
                ], required: ["date"]),
            annotations: Tool.Annotations(readOnlyHint: true, idempotentHint: true, openWorldHint: false),
            outputSchema: OutputSchema.aroundEvent),
    ]

    func correlateMetrics(_ arguments: ToolArguments) async throws -> Answer {
        try arguments.only(["metric_a", "metric_b", "from", "to", "lag"])
        guard let nameA = try arguments.string("metric_a"), let nameB = try arguments.string("metric_b") else {
            throw ToolError(
                message: "metric_a and metric_b are required",
                hint: "Two of \(Self.metrics.map(\.name).joined(separator: ", ")).")
        }
        let a = try metric(nameA)
        let b = try metric(nameB)
        let lag = try arguments.integer("lag", in: 0...3) ?? 0
        let (last, note) = try await lastDay(arguments, "to", days: 90)
        let first = try arguments.date("from") ?? last.adding(days: -89)
        guard first <= last else { throw ToolError(message: "from is after to", hint: "Give from ≤ to.") }
        guard last.dayNumber - first.dayNumber < 3660 else {
            throw ToolError(message: "the range is over 3,660 days", hint: "Ask for ten years at most.")
        }
        // One day each from `first` (the source's order): metric_a's days, then metric_b's `lag` later.
        let days = try await days(from: first, through: last.adding(days: lag), version: nil)
        let count = last.dayNumber - first.dayNumber + 1
        let x = days.prefix(count).map(a.value)
        let y = days.dropFirst(lag).prefix(count).map(b.value)
        let paired = zip(x, y).filter { $0 != nil && $1 != nil }.count
        guard let correlation = Correlation(x, y) else {
            throw ToolError(
                message:
                    "only \(paired) days from \(first) to \(last) have \(a.name) and \(b.name)\(lag > 0 ? " \(lag) day(s) later" : ""); a correlation needs \(Correlation.minimumPairs)",
                hint: "Ask for a longer range, or metrics measured on more days.")
        }
        var structured: [String: Value] = [
            "metric_a": .string(a.name), "unit_a": .string(a.unit), "metric_b": .string(b.name), "unit_b": .string(b.unit),
            "from": .string(first.description), "to": .string(last.description), "lag_days": .int(lag),
            "pairs": .int(correlation.pairs), "pearson": .number(correlation.pearson),
            "spearman": .number(correlation.spearman), "pearson_strength": .string(Correlation.strength(correlation.pearson)),
            "spearman_strength": .string(Correlation.strength(correlation.spearman)),
            "coverage": coverage(of: Array(days.prefix(count))),
        ]
        let later = lag == 0 ? "the same day" : lag == 1 ? "the next day" : "\(lag) days later"
        let summary =
            "\(a.name) and \(b.name) (\(later)), \(first)–\(last), \(correlation.pairs) paired days: r = \(figure(correlation.pearson, 2)) (\(Correlation.strength(correlation.pearson))), ρ = \(figure(correlation.spearman, 2)) (\(Correlation.strength(correlation.spearman))). Correlation is not cause."
        if note != nil { structured["latest_data"] = .string(last.description) }
        return Answer(structured: .object(structured), summary: summary + Self.noting(note))
    }

    /// The metrics `compare_around_event` compares, by name in ``metrics``.
    static let eventMetrics = ["sleep_hours", "hrv", "resting_hr", "steps"]

    func compareAroundEvent(_ arguments: ToolArguments) async throws -> Answer {
        try arguments.only(["date", "days"])
        guard let event = try arguments.date("date") else {
            throw ToolError(message: "date is required", hint: "The event's day, YYYY-MM-DD.")
        }
        let span = try arguments.integer("days", in: 3...28) ?? 14
        let baselineDays = 60
        // One day each from `baselineDays` before the event (the source's order): day `offset`
        // from the event is at `offset + baselineDays`.
        let days = try await days(from: event.adding(days: -baselineDays), through: event.adding(days: span), version: nil)
        let values = { (value: (NormalizedDailyMetrics) -> Double?, offsets: ClosedRange<Int>) -> [Double] in
            offsets.compactMap { days.indices.contains($0 + baselineDays) ? value(days[$0 + baselineDays]) : nil }
        }
        var rows: [Value] = []
        var withheld: [String] = []
        var lines: [String] = []
        for name in Self.eventMetrics {
            guard let metric = Self.metrics.first(where: { $0.name == name }) else { continue }
            guard !source.withheld.contains(metric.category) else {
                withheld.append(name)
                continue
            }
            let comparison = EventComparison(
                before: values(metric.value, -span...(-1)), after: values(metric.value, 1...span),
                baseline: values(metric.value, -baselineDays...(-1)))
            rows.append(
                .object([
                    "metric": .string(name), "unit": .string(metric.unit), "before_mean": .number(comparison.beforeMean),
                    "before_days": .int(comparison.beforeDays), "after_mean": .number(comparison.afterMean),
                    "after_days": .int(comparison.afterDays), "difference": .number(comparison.difference),
                    "baseline_sd": .number(comparison.baselineSD), "baseline_days": .int(comparison.baselineDays),
                    "difference_in_sd": .number(comparison.differenceInSD),
                ]))
            if let difference = comparison.difference {
                lines.append(
                    "\(name) \(figure(comparison.beforeMean, 1)) → \(figure(comparison.afterMean, 1)) \(metric.unit)"
                        + (comparison.differenceInSD.map { " (\(figure($0, 1)) SD)" } ?? "") + " (\(figure(difference, 1)))")
            } else {
                lines.append("\(name): too few days on a side")
            }
        }
        guard !rows.isEmpty else { throw DataWithheld(kinds: Set(Self.eventMetrics.compactMap(metricCategory))) }
        let structured: [String: Value] = [
            "date": .string(event.description), "days": .int(span),
            "before": .object([
                "from": .string(event.adding(days: -span).description), "to": .string(event.adding(days: -1).description),
            ]),
            "after": .object([
                "from": .string(event.adding(days: 1).description), "to": .string(event.adding(days: span).description),
            ]),
            "baseline": .object([
                "from": .string(event.adding(days: -baselineDays).description),
                "to": .string(event.adding(days: -1).description),
            ]),
            "metrics": .array(rows), "withheld": .array(withheld.map { .string($0) }),
            "coverage": coverage(of: Array(days.suffix(2 * span + 1))),
        ]
        let summary =
            "The \(span) days before \(event) against the \(span) after (the day itself in neither): "
            + lines.joined(separator: "; ") + "." + (withheld.isEmpty ? "" : " Withheld: \(withheld.joined(separator: ", ")).")
        return Answer(structured: .object(structured), summary: summary)
    }

    private func metricCategory(_ name: String) -> HealthDataCategory? {
        Self.metrics.first(where: { $0.name == name })?.category
    }
}

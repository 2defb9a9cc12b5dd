import Foundation
import HealthCore
import HealthDaily
import HealthMetrics
import MCP

/// `get_trends`: a metric's mean over a period against its baseline, by week and by calendar
/// month (totals for counted metrics), optionally without the days spent in another zone
/// (issue 36 §4; docs/mcp.md).
extension CoachTools {
    /// Metrics summed over a day (steps, kcal): their weeks and months also have a total.
    static let countedMetrics: Set<String> = ["steps", "active_energy"]

    /// `get_trends`' metrics: the daily ones and the body weight (kg, the day's mean).
    static var trendMetricNames: [String] { metrics.map(\.name) + ["weight"] }

    /// The baseline before a trend's period.
    static let trendBaselineDays = 60

    func trends(_ arguments: ToolArguments) async throws -> Answer {
        try arguments.only(["metric", "period", "date", "exclude_travel_days"])
        guard let name = try arguments.string("metric") else {
            throw ToolError(message: "metric is required", hint: "One of \(Self.trendMetricNames.joined(separator: ", ")).")
        }
        guard Self.trendMetricNames.contains(name) else {
            throw ToolError(
                message: "no metric '\(name.prefix(40))'", hint: "Use one of \(Self.trendMetricNames.joined(separator: ", ")).")
        }
        let unit: String
        var value: ((NormalizedDailyMetrics) -> Double?)?
        if name == "weight" {
            try require([.body])
            unit = "kg"
        } else {
            let metric = try metric(name)
            (unit, value) = (metric.unit, metric.value)
        }
        guard let period = try arguments.integer("period", in: 1...365), [7, 30, 90, 365].contains(period) else {
            throw ToolError(message: "period must be 7, 30, 90 or 365", hint: "For example period=30.")
        }
        let excludeTravel = try arguments.bool("exclude_travel_days")
        let (end, note) = try await lastDay(arguments, "date", days: period)
        let start = end.adding(days: -(period - 1))
        let baselineStart = start.adding(days: -Self.trendBaselineDays)
        let days = try await days(from: baselineStart, through: end, version: nil)
        var values: [Double?]
        if let value { values = days.map(value) } else { values = try await weights(days) }
        // The person's usual zone: the one most of these days with data were lived in; a day
        // without data (the fallback zone) is never a travel day.
        let usual = usualZone(of: days)
        let travel = days.indices.filter { hasData(days[$0]) && days[$0].timezoneIdentifier != usual }
        if excludeTravel { for index in travel { values[index] = nil } }
        let current = Array(values.suffix(period))
        let periodDays = Array(days.suffix(period))
        let baseline = values.prefix(values.count - period).suffix(Self.trendBaselineDays)
        let (mean, count) = Self.summary(current[...])
        let (baselineMean, baselineCount) = Self.summary(baseline)
        let change = mean.flatMap { now in baselineMean.map { now - $0 } }
        let percent = change.flatMap { delta in baselineMean.flatMap { $0 != 0 ? delta / $0 * 100 : nil } }
        let counted = Self.countedMetrics.contains(name)
        let group = { (range: Range<Int>) -> Value in
            let (groupMean, groupDays) = Self.summary(current[range])
            return .object([
                "from": .string(periodDays[range.lowerBound].localDate),
                "to": .string(periodDays[range.upperBound - 1].localDate),
                "mean": .number(groupMean), "days_with_data": .int(groupDays),
                "total": counted ? .number(Self.total(current[range])) : .null,
            ])
        }
        let weeks = stride(from: 0, to: periodDays.count, by: 7).map { group($0..<min($0 + 7, periodDays.count)) }
        var months: [Value] = []
        var monthStart = 0
        for index in periodDays.indices
        where index == periodDays.count - 1
            || periodDays[index + 1].localDate.prefix(7) != periodDays[index].localDate.prefix(7)
        {
            months.append(group(monthStart..<index + 1))
            monthStart = index + 1
        }
        let travelInPeriod = travel.filter { $0 >= days.count - period }.map { Value.string(days[$0].localDate) }
        var structured: [String: Value] = [
            "metric": .string(name), "unit": .string(unit), "period_days": .int(period), "from": .string(start.description),
            "to": .string(end.description), "mean": .number(mean), "days_with_data": .int(count),
            "total": counted ? .number(Self.total(current[...])) : .null,
            "baseline": .object([
                "from": .string(baselineStart.description), "to": .string(start.adding(days: -1).description),
                "mean": .number(baselineMean), "days_with_data": .int(baselineCount),
            ]),
            "change": .number(change), "change_percent": .number(percent), "weeks": .array(weeks), "months": .array(months),
            "usual_timezone": .text(usual), "travel_days": .array(travelInPeriod),
            "travel_days_excluded": .bool(excludeTravel), "coverage": coverage(of: periodDays, usual: usual),
        ]
        if note != nil { structured["latest_data"] = .string(end.description) }
        let digits = name == "sleep_hours" || name == "weight" ? 1 : 0
        var text =
            "\(name) over the \(period) days to \(end): mean \(figure(mean, digits)) \(unit) on \(count) days"
            + (baselineMean == nil
                ? "; no baseline (no data in the 60 days before)."
                : ", against \(figure(baselineMean, digits)) in the 60 days before (\(change.map { $0 >= 0 ? "+" : "" } ?? "")\(figure(change, digits)), \(figure(percent, 1))%).")
        if !travelInPeriod.isEmpty {
            text +=
                " \(travelInPeriod.count) of the days were in another zone than \(usual ?? "the usual")"
                + (excludeTravel ? " and are left out (with the baseline's)." : "; exclude_travel_days=true leaves them out.")
        }
        return Answer(structured: .object(structured), summary: text + Self.noting(note))
    }

    /// The last day of a tool's range: the argument `name` when given, else today — or the
    /// last day with data when nothing is newer, with the note that says so (`days`: the
    /// range's length, for the note).
    func lastDay(_ arguments: ToolArguments, _ name: String, days: Int) async throws -> (day: LocalDate, note: String?) {
        if let date = try arguments.date(name) { return (date, nil) }
        let anchor = try await source.anchor()
        return (anchor.day, anchor.movedNote(days: days))
    }

    /// The sum of the values present; `nil` without any (no data is never a total of 0).
    static func total(_ values: ArraySlice<Double?>) -> Double? {
        let present = values.compactMap { $0 }
        return present.isEmpty ? nil : present.reduce(0, +)
    }

    /// The mean of the values present, and how many there were.
    static func summary(_ values: ArraySlice<Double?>) -> (mean: Double?, days: Int) {
        let present = values.compactMap { $0 }
        return (HealthMCP.mean(present), present.count)
    }

    /// Each day's mean body weight in kg (the samples starting on it in the home zone).
    private func weights(_ days: [NormalizedDailyMetrics]) async throws -> [Double?] {
        guard let first = days.first.flatMap({ LocalDate($0.localDate) }),
            let last = days.last.flatMap({ LocalDate($0.localDate) })
        else { return [] }
        let zone = source.normalization.homeZone
        let window = DateInterval(start: first.instant(hour: 0, in: zone), end: last.adding(days: 1).instant(hour: 0, in: zone))
        var byDay: [String: [Double]] = [:]
        for sample in try await source.store.samples(of: .bodyMass, overlapping: window) where window.contains(sample.start) {
            guard case .quantity(let raw, let unit) = sample.value,
                let kilograms = try? HealthUnit.convert(raw, from: unit, to: "kg"), kilograms.isFinite
            else { continue }
            byDay[LocalDate(sample.start, in: zone).description, default: []].append(kilograms)
        }
        return days.map { byDay[$0.localDate].flatMap(HealthMCP.mean) }
    }
}

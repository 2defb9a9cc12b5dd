import ArgumentParser
import Foundation
import HealthCore
import HealthDaily
import HealthMetrics
import HealthSQLite

struct Days: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Normalised metrics per local day (steps, active energy, sleep, resting HR, HRV).",
        discussion: """
            Each day is a local day in the zone the person was in (--tz, else HKTimeZone evidence, \
            else --home-tz), with Watch and iPhone never counted twice. Sleep comes from one source \
            per night; "sleep from" says what it recorded, and a night with only time in bed (the \
            iPhone's bedtime schedule) has no sleep hours but its hours in bed. See docs/daily-metrics.md.
            """)

    @OptionGroup var storage: StoreOptions

    @OptionGroup var range: DayRangeOptions

    @OptionGroup var norm: NormOptions

    func validate() throws { try norm.rejectFormerFlag() }

    @Option(help: "user_id written into every payload.")
    var userId: String?

    @Option(help: "table, json (one array in the backend schema) or jsonl.")
    var format = DaysFormat.table

    func run() async throws {
        let days = try await storage.withQueries { try await metrics(from: $0) }
        switch format {
        case .json:
            print(try PrettyJSON.text(days, encoder: NormalizedDailyMetrics.backendEncoder(pretty: true)))
        case .jsonl:
            let encoder = NormalizedDailyMetrics.backendEncoder()
            for day in days { print(String(decoding: try encoder.encode(day), as: UTF8.self)) }
        case .table:
            print(DaysTable.render(days))
        }
    }

    private func metrics(from store: any HealthQuerying) async throws -> [NormalizedDailyMetrics] {
        var configuration = range.configuration()
        configuration.version = norm.version
        configuration.userID = userId
        let normalizer = DailyNormalizer(store: store, configuration: configuration, now: { Date() })
        let (first, last) = try await range.dates(store: store, configuration: configuration)
        return try await normalizer.metrics(from: first, through: last)
    }
}

/// The people's view of daily metrics: aligned columns, units in the header, — for null.
enum DaysTable {
    static func render(_ days: [NormalizedDailyMetrics]) -> String {
        let header = [
            "date", "zone", "steps", "raw steps", "energy kcal", "sleep h", "in bed h", "rest HR bpm", "HRV ms", "steps from",
            "sleep from",
        ]
        var rows = [header]
        for day in days {
            let sources = day.stepsSources.map { meta in
                ([meta.primarySource ?? "—"] + meta.secondarySourcesUsed).joined(separator: "+")
                    + (meta.suspiciousSteps ? " (suspicious)" : "")
            }
            rows.append([
                day.localDate, day.timezoneIdentifier, text(day.stepsNormalized), text(day.stepsRawSum),
                text(day.activeEnergyKcal, 1), text(day.sleepHours, 2), text(day.sleepSource?.inBedHours, 2),
                text(day.restingHRBpm, 1), text(day.hrvMs, 1), sources ?? "—", day.sleepSource?.basis.rawValue ?? "—",
            ])
        }
        return TextTable.render(rows, leftAligned: [0, 1, header.count - 2, header.count - 1])
    }

    private static func text(_ value: Int?) -> String { value.map(String.init) ?? "—" }

    private static func text(_ value: Double?, _ digits: Int) -> String {
        value.map { String(format: "%.\(digits)f", $0) } ?? "—"
    }
}

import ArgumentParser
import Foundation
import HealthCore
import HealthDaily
import HealthMetrics
import HealthReadiness

struct Readiness: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Readiness per local day: a 0–100 score from the daily metrics, with every contributor and why.",
        discussion: """
            Computed from the same daily metrics `healthpipe days` prints (the 60 days before each \
            scored day are read too). Without --date or a range: today, or the last day with data \
            when the store holds nothing newer. See docs/readiness.md.
            """)

    @OptionGroup var storage: StoreOptions

    @Option(help: "Score this local day, YYYY-MM-DD.")
    var date: String?

    @OptionGroup var range: DayRangeOptions

    @Option(help: "Hours of sleep you need a night (4–12).")
    var sleepNeed: Double = 8

    @Option(help: "What measures activity load: energy (active kcal) or steps.")
    var activity = ReadinessConfiguration.ActivityMeasure.activeEnergy

    @OptionGroup var norm: NormOptions

    @Option(help: "table or json.")
    var format = TableOrJSON.table

    func validate() throws {
        try norm.rejectFormerFlag()
        if let date {
            guard LocalDate(date) != nil else { throw ValidationError("--date must be a date YYYY-MM-DD, not '\(date)'") }
            if range.isGiven {
                throw ValidationError("use either --date, --last or --from/--to")
            }
        }
        guard (4.0...12.0).contains(sleepNeed) else { throw ValidationError("--sleep-need must be 4–12 hours") }
    }

    func run() async throws {
        var normalization = range.configuration()
        normalization.version = norm.version
        var settings = ReadinessConfiguration()
        settings.sleepNeedHours = sleepNeed
        settings.activityMeasure = activity
        let engine = try ReadinessEngine(configuration: settings)
        let scores = try await storage.withQueries { store in
            let (first, last) = try await scoredDays(store: store, configuration: normalization)
            let history = try await DailyNormalizer(store: store, configuration: normalization, now: { Date() })
                .metrics(from: first.adding(days: -ReadinessEngine.historyDays), through: last)
            let dates = (first.dayNumber...last.dayNumber).map { LocalDate(dayNumber: $0).description }
            return try engine.scores(on: dates, history: history)
        }
        if format == .json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(try PrettyJSON.text(scores, encoder: encoder))
        } else {
            print(ReadinessTable.render(scores))
        }
    }

    /// `--date`, the range options, or one day: today, or the last day with data.
    private func scoredDays(
        store: any HealthQuerying, configuration: DailyNormalizer.Configuration
    ) async throws -> (
        LocalDate, LocalDate
    ) {
        guard let day = date.flatMap(LocalDate.init) else {
            return try await range.dates(store: store, configuration: configuration, defaultDays: 1)
        }
        let anchor = try await DayRangeOptions.anchor(store: store, configuration: configuration)
        DayRangeOptions.sayWhereTheDataIs(anchor, from: day, through: day)
        return (day, day)
    }
}

/// The people's view of readiness: the score, its band, each contributor's sub-score and
/// the reason line; — where a contributor has no data.
enum ReadinessTable {
    static func render(_ scores: [ReadinessScore]) -> String {
        let kinds = ReadinessContributor.Kind.allCases
        let header = ["date", "score", "band", "conf"] + ["HRV", "RHR", "sleep", "sleep bal", "prev day", "act bal"] + ["why"]
        var rows = [header]
        for day in scores {
            let score = day.score.map { String($0) + (day.calibrating ? "*" : "") } ?? "—"
            let subscores = kinds.map { kind in day[kind]?.subscore.map { String(format: "%.0f", $0) } ?? "—" }
            rows.append(
                [day.date, score, day.band?.label ?? "—", String(format: "%.2f", day.confidence)] + subscores + [day.reason])
        }
        var text = TextTable.render(rows, leftAligned: [0, 2, header.count - 1])
        if scores.contains(where: \.calibrating) { text += "\n* calibrating: fewer than 14 valid days of history" }
        return text
    }
}

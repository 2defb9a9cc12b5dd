import ArgumentParser
import Foundation
import HealthCore
import HealthDaily
import HealthMetrics
import HealthSQLite

struct Sleep: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sleep sessions per wake day: bedtime, wake time, time in bed and asleep, stages, naps.",
        discussion: """
            One source per night by one priority table (Watch stages, another source's stages, asleep \
            without stages, only time in bed), never added up. A night recorded only as time in bed (the \
            iPhone's bedtime schedule) has bedtime, wake time and time in bed; its asleep time is unknown \
            (— in the table, null in JSON). See docs/sleep.md.
            """)

    @OptionGroup var storage: StoreOptions
    @OptionGroup var range: DayRangeOptions

    @Option(help: "table or json.")
    var format = TableOrJSON.table

    func run() async throws {
        let configuration = range.configuration()
        let nights = try await storage.withQueries { store in
            let (first, last) = try await range.dates(store: store, configuration: configuration)
            return try await SleepAnalyzer(store: store, configuration: configuration).nights(from: first, through: last)
        }
        if format == .json {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(try PrettyJSON.text(nights, encoder: encoder))
        } else {
            print(SleepTable.render(nights))
        }
    }
}

/// The people's view of sleep: local clock times, hours, minutes per stage, — for none
/// (and for an unknown time asleep).
enum SleepTable {
    static func render(_ nights: [SleepNight]) -> String {
        let header = [
            "date", "zone", "source", "from", "bed", "wake", "in bed h", "asleep h", "eff %", "deep min", "REM min",
            "core min", "awake min", "wakings", "naps min",
        ]
        var rows = [header]
        for night in nights {
            let zone = TimeZone(identifier: night.timezoneIdentifier) ?? .current
            let napMinutes = night.naps.reduce(0) { $0 + ($1.asleepSeconds ?? 0) } / 60
            guard let main = night.main else {
                rows.append(
                    [night.localDate, night.timezoneIdentifier, night.source ?? "—"] + Array(repeating: "—", count: 11)
                        + [night.naps.isEmpty ? "—" : String(format: "%.0f", napMinutes)])
                continue
            }
            // A figure the source could not have recorded is unknown: —, not 0.
            func minutes(_ stage: SleepStage) -> String { main.stageMinutes(stage).map { String(format: "%.0f", $0) } ?? "—" }
            rows.append([
                night.localDate, night.timezoneIdentifier, night.source ?? "—", main.basis.rawValue, clock(main.bedtime, zone),
                clock(main.waketime, zone), String(format: "%.2f", main.inBedSeconds / 3600),
                main.asleepSeconds.map { String(format: "%.2f", $0 / 3600) } ?? "—",
                main.efficiency.map { String(format: "%.1f", $0) } ?? "—", minutes(.deep), minutes(.rem), minutes(.core),
                minutes(.awake), main.awakenings.map(String.init) ?? "—",
                night.naps.isEmpty ? "—" : String(format: "%.0f", napMinutes),
            ])
        }
        return TextTable.render(rows, leftAligned: [0, 1, 2, 3])
    }

    static func clock(_ instant: Date, _ zone: TimeZone) -> String { ClockTime.format(instant, in: zone) }
}

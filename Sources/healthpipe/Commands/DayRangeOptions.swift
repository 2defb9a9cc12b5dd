import ArgumentParser
import Foundation
import HealthCore
import HealthDaily
import HealthSQLite

/// `--last N | --from --to`, `--today` and the zone options: the days a command reports on.
struct DayRangeOptions: ParsableArguments {
    @Option(help: "The last N local days, ending today, or the last day with data if none is newer (default 7).")
    var last: Int?

    @Option(help: "First local day, YYYY-MM-DD (with --to).")
    var from: String?

    @Option(help: "Last local day, YYYY-MM-DD (with --from).")
    var to: String?

    @OptionGroup var zones: ZoneOptions

    @Option(help: "The day --last ends at, YYYY-MM-DD (default: today in the zone in effect, or the last day with data).")
    var today: String?

    func validate() throws {
        if last != nil, from != nil || to != nil { throw ValidationError("use either --last or --from/--to") }
        if (from == nil) != (to == nil) { throw ValidationError("--from and --to go together") }
        if let last, last < 1 || last > 36600 { throw ValidationError("--last must be 1…36600") }
        for (name, value) in [("--from", from), ("--to", to), ("--today", today)] {
            if let value, LocalDate(value) == nil { throw ValidationError("\(name) must be a date YYYY-MM-DD, not '\(value)'") }
        }
        if let from, let to, let first = LocalDate(from), let end = LocalDate(to), first > end {
            throw ValidationError("--from must not be after --to")
        }
    }

    /// Zones for the normaliser and analysers.
    func configuration() -> DailyNormalizer.Configuration { zones.configuration() }

    /// The first and last local date asked for: --from/--to, or the last N days (`defaultDays`
    /// without --last) to --today — else to today, or to the last day with data when the
    /// store holds nothing newer (``DataAnchor``), which standard error says. A range with no
    /// data says where the data is.
    func dates(
        store: any HealthQuerying, configuration: DailyNormalizer.Configuration, defaultDays: Int = 7
    ) async throws -> (LocalDate, LocalDate) {
        let anchor = try await Self.anchor(store: store, configuration: configuration)
        let range: (LocalDate, LocalDate)
        if let from = from.flatMap(LocalDate.init), let to = to.flatMap(LocalDate.init) {
            range = (from, to)
        } else {
            let days = last ?? defaultDays
            let end = today.flatMap(LocalDate.init) ?? anchor.day
            if today == nil, let note = anchor.movedNote(days: days) { printError(note) }
            range = (end.adding(days: -(days - 1)), end)
        }
        Self.sayWhereTheDataIs(anchor, from: range.0, through: range.1)
        return range
    }

    /// Where relative ranges end in `store` (the CLI's one way to ask).
    static func anchor(store: any HealthQuerying, configuration: DailyNormalizer.Configuration) async throws -> DataAnchor {
        try await DailyNormalizer(store: store, configuration: configuration, now: { Date() }).anchor()
    }

    /// On standard error, when `first` through `last` holds no data: where the data is.
    static func sayWhereTheDataIs(_ anchor: DataAnchor, from first: LocalDate, through last: LocalDate) {
        if let note = anchor.emptyNote(from: first, through: last) { printError(note) }
    }
}

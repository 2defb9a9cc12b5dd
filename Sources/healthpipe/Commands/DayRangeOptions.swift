import ArgumentParser
import Foundation
import HealthCore
import HealthDaily
import HealthSQLite

/// `--last N | --from --to`, `--today` and the zone options: the days a command reports on.
struct DayRangeOptions: ParsableArguments {
    @Option(
        help: "The last N local days, ending today, or the last day with data if none is newer (default 7; readiness: 1).")
    var last: Int?

    @Option(help: "First local day, YYYY-MM-DD (alone: through today, or the last day with data).")
    var from: String?

    @Option(help: "Last local day, inclusive, YYYY-MM-DD (alone: the command's default number of days ending there).")
    var to: String?

    @OptionGroup var zones: ZoneOptions

    @Option(help: "The day --last ends at, YYYY-MM-DD (default: today in the zone in effect, or the last day with data).")
    var today: String?

    /// Whether any of the range's options was given (--last, --from, --to, --today).
    var isGiven: Bool { last != nil || from != nil || to != nil || today != nil }

    func validate() throws {
        if last != nil, from != nil || to != nil { throw ValidationError("use either --last or --from/--to") }
        if today != nil, from != nil || to != nil { throw ValidationError("--today ends --last's days: use --to with --from") }
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

    /// The first and last local date asked for: --from/--to (either alone: ``range(from:to:days:anchor:)``),
    /// or the last N days (`defaultDays` without --last) to --today — else to today, or to the
    /// last day with data when the store holds nothing newer (``DataAnchor``), which standard
    /// error says. A range with no data says where the data is.
    func dates(
        store: any HealthQuerying, configuration: DailyNormalizer.Configuration, defaultDays: Int = 7
    ) async throws -> (LocalDate, LocalDate) {
        let anchor = try await Self.anchor(store: store, configuration: configuration)
        if from == nil, to == nil, let today = today.flatMap(LocalDate.init) {
            let range = (today.adding(days: -((last ?? defaultDays) - 1)), today)
            Self.sayWhereTheDataIs(anchor, from: range.0, through: range.1)
            return range
        }
        return Self.range(
            from: from.flatMap(LocalDate.init), to: to.flatMap(LocalDate.init), days: last ?? defaultDays, anchor: anchor)
    }

    /// `first` through `last` as given; `first` alone: through today, or the last day with
    /// data when the store holds nothing newer (through `first` itself, or today, when that
    /// day is before it); `last` alone, or neither: the `days` days ending there. Standard
    /// error says when the end moved to the last day with data, and where the data is when
    /// the range holds none.
    static func range(from first: LocalDate?, to given: LocalDate?, days: Int, anchor: DataAnchor) -> (LocalDate, LocalDate) {
        var last = given ?? anchor.day
        if given == nil, let first, first > last { last = max(first, anchor.today) }
        let start = first ?? last.adding(days: -(days - 1))
        if given == nil, last == anchor.day, let note = anchor.movedNote(days: last.dayNumber - start.dayNumber + 1) {
            printError(note)
        }
        sayWhereTheDataIs(anchor, from: start, through: last)
        return (start, last)
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

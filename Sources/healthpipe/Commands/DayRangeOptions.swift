import ArgumentParser
import Foundation
import HealthCore
import HealthDaily
import HealthStore

/// `--last N | --from --to`, `--today` and the zone options: the days a command reports on.
struct DayRangeOptions: ParsableArguments {
    @Option(help: "The last N local days, ending today (default 7).")
    var last: Int?

    @Option(help: "First local day, YYYY-MM-DD (with --to).")
    var from: String?

    @Option(help: "Last local day, YYYY-MM-DD (with --from).")
    var to: String?

    @OptionGroup var zones: ZoneOptions

    @Option(help: "Today's date for --last, YYYY-MM-DD (default: now in the zone in effect).")
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

    /// The first and last local date asked for.
    func dates(store: any HealthQuerying, configuration: DailyNormalizer.Configuration) async throws -> (LocalDate, LocalDate) {
        if let from = from.flatMap(LocalDate.init), let to = to.flatMap(LocalDate.init) { return (from, to) }
        var end = today.flatMap(LocalDate.init)
        if end == nil {
            end = try await DailyNormalizer(store: store, configuration: configuration, now: { Date() }).today()
        }
        return (end!.adding(days: -((last ?? 7) - 1)), end!)
    }
}

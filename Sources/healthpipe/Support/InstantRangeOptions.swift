import ArgumentParser
import Foundation
import HealthCore
import HealthMetrics
import HealthSQLite
import HealthServer
import HealthWire

/// `--from`/`--to` as a local date (`YYYY-MM-DD`: the whole day, in the data's zone for
/// that day unless `--tz`) or an RFC 3339 instant.
struct InstantRangeOptions: ParsableArguments {
    @Option(help: "From this local day (YYYY-MM-DD, from its start) or instant (RFC 3339).")
    var from: String?

    @Option(help: "Through this local day (YYYY-MM-DD, inclusive) or until this instant (RFC 3339, exclusive).")
    var to: String?

    @OptionGroup var zones: ZoneOptions

    func validate() throws {
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, LocalDate(value) == nil, RFC3339.parse(value) == nil {
                throw ValidationError("\(name) must be YYYY-MM-DD or an RFC 3339 instant, not '\(value)'")
            }
        }
        if let from = from.flatMap(LocalDate.init), let to = to.flatMap(LocalDate.init), from > to {
            throw ValidationError("--from must not be after --to")
        }
    }

    /// The interval asked for (all time without --from and --to), its dates in the zones of
    /// `store`'s days.
    func interval(in store: any HealthQuerying) async throws -> DateInterval {
        let data = zones.data(store)
        var (start, end) = (Date.distantPast, Date.distantFuture)
        if let from {
            if let day = LocalDate(from) {
                start = try await data.interval(from: day, through: day).start
            } else {
                start = RFC3339.parse(from)!
            }
        }
        if let to {
            if let day = LocalDate(to) {
                end = try await data.interval(from: day, through: day).end
            } else {
                end = RFC3339.parse(to)!
            }
        }
        guard start <= end else { throw ValidationError("--from must not be after --to") }
        return DateInterval(start: start, end: end)
    }
}

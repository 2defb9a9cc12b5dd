import ArgumentParser
import Foundation
import HealthContext
import HealthDaily

/// Instants typed on the command line: ISO 8601 with an offset or `Z`
/// (`2026-11-21T07:30:00-08:00`), or a local wall-clock time `YYYY-MM-DDTHH:MM[:SS]` (a
/// space works too) read in `zone`.
enum InstantOption {
    static func parse(_ text: String, option: String, zone: TimeZone) throws -> Date {
        if let instant = LocalTimestamp.parse(text) { return instant }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm"] {
            formatter.dateFormat = format
            if let instant = formatter.date(from: text) { return instant }
        }
        throw ValidationError(
            "\(option) must be ISO 8601 like 2026-11-21T07:30:00-08:00, or a local time like 2026-11-21T07:30")
    }
}

/// `--tz`, `--home-tz`: the zone of "today" for commands about one moment.
struct ZoneOptions: ParsableArguments {
    @Option(help: "Put every day in this IANA zone (default: the store's HKTimeZone evidence, else --home-tz).")
    var tz: String?

    @Option(help: "Zone of days without HKTimeZone evidence (default: the system's).")
    var homeTz: String?

    func validate() throws {
        for (name, value) in [("--tz", tz), ("--home-tz", homeTz)] {
            if let value, TimeZone(identifier: value) == nil { throw ValidationError("\(name): unknown IANA zone '\(value)'") }
        }
    }

    /// Zones for the normaliser and analysers.
    func configuration() -> DailyNormalizer.Configuration {
        var configuration = DailyNormalizer.Configuration()
        configuration.homeZone = homeTz.flatMap(TimeZone.init(identifier:)) ?? TimeZone.current
        configuration.explicitZone = tz.flatMap(TimeZone.init(identifier:))
        return configuration
    }

    /// The zone local times typed on the command line are read in.
    var inputZone: TimeZone {
        (tz ?? homeTz).flatMap(TimeZone.init(identifier:)) ?? TimeZone.current
    }
}

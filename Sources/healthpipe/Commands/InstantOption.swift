import ArgumentParser
import Foundation
import HealthContext
import HealthCore
import HealthDaily
import HealthMetrics

/// Instants typed on the command line: ISO 8601 with an offset or `Z`
/// (`2026-11-21T07:30:00-08:00`), or a local wall-clock time `YYYY-MM-DDTHH:MM[:SS]` (a
/// space works too) read in the zone of its day.
enum InstantOption {
    static func parse(_ text: String, option: String, zone: TimeZone) throws -> Date {
        if let instant = LocalTimestamp.parse(text) ?? wallClock(text, in: zone) { return try served(instant, option: option) }
        throw ValidationError(
            "\(option) must be ISO 8601 like 2026-11-21T07:30:00-08:00, or a local time like 2026-11-21T07:30")
    }

    /// `instant` when it lies within the years 1900–2199 (as `GET /v1/snapshot`'s `at`).
    private static func served(_ instant: Date, option: String) throws -> Date {
        guard NormalizedDailyMetrics.servedInstants.contains(instant) else {
            throw ValidationError("\(option) must be within the years 1900–2199")
        }
        return instant
    }

    /// `text` with its offset, or as a local time in the zone `zoneOfDay` gives its date.
    static func parse(
        _ text: String, option: String, zoneOfDay: (LocalDate) async throws -> TimeZone
    ) async throws -> Date {
        if let instant = LocalTimestamp.parse(text) { return try served(instant, option: option) }
        let utc = TimeZone(identifier: "UTC")!
        guard let asUTC = wallClock(text, in: utc) else { return try parse(text, option: option, zone: utc) }
        let zone = try await zoneOfDay(LocalDate(asUTC, in: utc))
        // A time skipped by a spring-forward change reads as the same wall time an hour on.
        return try served(
            wallClock(text, in: zone) ?? asUTC.addingTimeInterval(-Double(zone.secondsFromGMT(for: asUTC))), option: option)
    }

    private static func wallClock(_ text: String, in zone: TimeZone) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm"] {
            formatter.dateFormat = format
            if let instant = formatter.date(from: text) { return instant }
        }
        return nil
    }
}

/// `--tz`, `--home-tz`: the one rule of every command for the zone of dates and local
/// times — the data's zone for that day (its `HKTimeZone` evidence, else `--home-tz`), or
/// `--tz` when given — with the same words in every `--help`.
struct ZoneOptions: ParsableArguments {
    /// What `--tz` says in every command's help.
    static let tzHelp =
        "Read every date and local time in this IANA zone (default: the data's zone for that day: its HKTimeZone evidence, else --home-tz)."
    static let homeTzHelp = "The zone of days without HKTimeZone evidence (default: the system's)."

    @Option(help: ArgumentHelp(ZoneOptions.tzHelp))
    var tz: String?

    @Option(help: ArgumentHelp(ZoneOptions.homeTzHelp))
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

    /// A zone to check the syntax of typed local times with (before a store is open).
    var inputZone: TimeZone {
        (tz ?? homeTz).flatMap(TimeZone.init(identifier:)) ?? TimeZone.current
    }

    /// The zones of `store`'s data under these options.
    func data(_ store: any HealthQuerying) -> DataZones {
        DataZones(normalizer: DailyNormalizer(store: store, configuration: configuration(), now: { Date() }))
    }
}

/// A store's zones as the command line reads and writes dates and local times: the zone
/// the daily metrics give each day (``DailyNormalizer/localDays(from:through:)``).
struct DataZones {
    let normalizer: DailyNormalizer

    /// The zone of local date `date`.
    func zone(of date: LocalDate) async throws -> TimeZone {
        try await normalizer.localDays(from: date, through: date)[0].zone
    }

    /// The zone in effect at `instant` (now, for stamps and "today").
    func zone(at instant: Date) async throws -> TimeZone {
        try await normalizer.localDay(containing: instant).zone
    }

    /// From the start of local day `first` to the end of `last`, each in its own zone.
    func interval(from first: LocalDate, through last: LocalDate) async throws -> DateInterval {
        try await normalizer.span(from: first, through: last)
    }

    /// Where the zone changes from `first` through `last`, for stamps.
    func zoneChanges(from first: LocalDate, through last: LocalDate) async throws -> [(start: Date, zone: TimeZone)] {
        try await normalizer.zoneChanges(from: first, through: last)
    }

    /// An instant typed on the command line: with its offset, or a local time in its day's zone.
    func instant(_ text: String, option: String) async throws -> Date {
        try await InstantOption.parse(text, option: option) { try await zone(of: $0) }
    }
}

import ArgumentParser
import Foundation
import HealthContext
import HealthCore
import HealthSQLite
import HealthServerRecords
import HealthWeather

struct Snapshot: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The coach context: today's state from health data, the daily log, the weather and the app.",
        discussion: """
            Every provider runs at once under its own deadline; one that fails or is slow leaves its \
            fields empty with the reason under "missing" and never fails the snapshot. See docs/context.md.
            """)

    @OptionGroup var storage: StoreOptions
    @OptionGroup var zones: ZoneOptions

    @Option(
        help:
            "Take the snapshot as of this instant (default: now, or the newest sample when older): ISO 8601 with an offset, or a local time YYYY-MM-DDTHH:MM; nothing later is used."
    )
    var at: String?

    @Option(
        parsing: .unconditional, help: "Latitude for the weather (with --lon), e.g. --lat -33.87.",
        transform: { try Snapshot.coordinate($0, "--lat") })
    var lat: Double?

    @Option(
        parsing: .unconditional, help: "Longitude for the weather (with --lat), e.g. --lon -122.42.",
        transform: { try Snapshot.coordinate($0, "--lon") })
    var lon: Double?

    @Option(help: "json or text.")
    var format = SnapshotFormat.text

    @Option(help: "Deadline per health and app provider, in seconds.")
    var timeout: Double = 1.5

    @Option(help: "Deadline for the weather, in seconds.")
    var weatherTimeout: Double = 1.0

    @Option(help: ArgumentHelp("The Open-Meteo base URL.", visibility: .hidden))
    var weatherURL: String = "https://api.open-meteo.com"

    static func coordinate(_ text: String, _ name: String) throws -> Double {
        guard let value = Double(text) else { throw ValidationError("\(name) must be a number in degrees") }
        return value
    }

    func validate() throws {
        if (lat == nil) != (lon == nil) { throw ValidationError("--lat and --lon go together") }
        if let lat, let lon, GeoLocation(latitude: lat, longitude: lon) == nil {
            throw ValidationError("--lat must be within -90…90 and --lon within -180…180")
        }
        for (name, value) in [("--timeout", timeout), ("--weather-timeout", weatherTimeout)] where !(value > 0 && value <= 60) {
            throw ValidationError("\(name) must be more than 0 and at most 60 seconds")
        }
        guard URL(string: weatherURL)?.scheme != nil else { throw ValidationError("--weather-url must be an absolute URL") }
        if let at { _ = try InstantOption.parse(at, option: "--at", zone: zones.inputZone) }
    }

    func run() async throws {
        try await storage.withStore { try await run(on: $0) }
    }

    private func run(on store: any UserHealthStore) async throws {
        var instant = Date()
        if let at {
            instant = try await zones.data(store.queries).instant(at, option: "--at")
        } else {
            // As of the newest sample when the store holds nothing newer than an earlier day.
            let anchor = try await DayRangeOptions.anchor(store: store.queries, configuration: zones.configuration())
            instant = anchor.instant(now: instant)
            if let note = anchor.snapshotNote { printError(note) }
        }
        var weather = OpenMeteoClient.Configuration()
        weather.baseURL = URL(string: weatherURL)!
        weather.timeout = weatherTimeout
        var configuration = ContextAssembler.Configuration()
        configuration.daily = zones.configuration()
        configuration.providerTimeout = timeout
        configuration.timeouts["weather"] = weatherTimeout
        let location = lat.flatMap { lat in lon.flatMap { GeoLocation(latitude: lat, longitude: $0) } }
        let assembler = ContextAssembler.standard(
            store: store.queries, appData: store.appData, weather: OpenMeteoClient(configuration: weather), location: location,
            configuration: configuration)
        let snapshot = await assembler.assemble(at: instant)
        if format == .json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(try PrettyJSON.text(snapshot, encoder: encoder))
        } else {
            print(snapshot.summary)
        }
    }
}

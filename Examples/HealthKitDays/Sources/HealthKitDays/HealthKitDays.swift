import Foundation
import HealthBasics
import HealthDaily
import HealthKitCompat
import HealthKitQuerying
import HealthMetrics

/// Daily metrics and sleep from HealthKit, printed exactly as `healthpipe days --format jsonl`
/// and `healthpipe sleep --format json` print them from a store.
///
///     healthkit-days days|sleep --from YYYY-MM-DD --to YYYY-MM-DD [--tz ZONE] [--home-tz ZONE]
///                              [--norm norm_v1|norm_v2]
///
/// The HealthKit code is what an iOS app would write: ask for read access, then read through
/// `HealthKitQuerying`, our pipeline's queries written against HealthKit's API. On Linux,
/// `HKHealthStore()` is the store at `$HEALTHKIT_STORE`, with access granted as the policy
/// file at `$HEALTHKIT_AUTHORIZATION` says (everything when unset).
@main
struct HealthKitDays {
    static func main() async {
        do {
            let request = try Request(arguments: Array(CommandLine.arguments.dropFirst()))
            try await run(request)
        } catch {
            FileHandle.standardError.write(Data("healthkit-days: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run(_ request: Request) async throws {
        guard HKHealthStore.isHealthDataAvailable() else { throw Failure("Health data is not available on this device") }
        let healthStore = HKHealthStore()
        let health = HealthKitQuerying(healthStore: healthStore)
        try await healthStore.requestAuthorization(toShare: [], read: health.readTypes)

        switch request.command {
        case "days":
            let normalizer = DailyNormalizer(store: health, configuration: request.configuration, now: { Date() })
            let encoder = NormalizedDailyMetrics.backendEncoder()
            for day in try await normalizer.metrics(from: request.first, through: request.last) {
                print(String(decoding: try encoder.encode(day), as: UTF8.self))
            }
        default:
            let analyzer = SleepAnalyzer(store: health, configuration: request.configuration)
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let nights = try await analyzer.nights(from: request.first, through: request.last)
            print(try PrettyJSON.text(nights, encoder: encoder))
        }
    }
}

/// The command line, checked.
struct Request {
    var command: String
    var first: LocalDate
    var last: LocalDate
    var configuration = DailyNormalizer.Configuration()

    init(arguments: [String]) throws {
        guard let command = arguments.first, ["days", "sleep"].contains(command) else {
            throw Failure(
                "usage: healthkit-days days|sleep --from YYYY-MM-DD --to YYYY-MM-DD [--tz ZONE] [--home-tz ZONE]"
                    + " [--norm norm_v1|norm_v2]")
        }
        self.command = command
        var options: [String: String] = [:]
        var rest = arguments.dropFirst()
        while let name = rest.popFirst() {
            guard ["--from", "--to", "--tz", "--home-tz", "--norm"].contains(name) else {
                throw Failure("unknown option \(name)")
            }
            guard let value = rest.popFirst() else { throw Failure("\(name) needs a value") }
            options[name] = value
        }
        guard let first = options["--from"].flatMap(LocalDate.init), let last = options["--to"].flatMap(LocalDate.init),
            first <= last
        else { throw Failure("--from and --to must be dates YYYY-MM-DD, --from not after --to") }
        (self.first, self.last) = (first, last)
        configuration.homeZone = try options["--home-tz"].map(Self.zone) ?? TimeZone.current
        configuration.explicitZone = try options["--tz"].map(Self.zone)
        if let version = options["--norm"] {
            guard let known = NormalizationVersion(rawValue: version) else { throw Failure("unknown --norm \(version)") }
            configuration.version = known
        }
    }

    private static func zone(_ identifier: String) throws -> TimeZone {
        guard let zone = TimeZone(identifier: identifier) else { throw Failure("unknown IANA zone '\(identifier)'") }
        return zone
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

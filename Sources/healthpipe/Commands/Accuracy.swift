import ArgumentParser
import Foundation
import HealthCore
import HealthDaily
import HealthMetrics
import HealthSQLite
import HealthSynth

struct BenchAccuracy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accuracy",
        abstract: "Compare `healthpipe days` with a synthetic export's ground truth.",
        discussion:
            "Import the export first; the days of the truth file are normalised from the store (--db or --postgres) and compared."
    )

    @Option(help: "The FILE.truth.json written beside a synthetic export.")
    var truth: String

    @OptionGroup var storage: StoreOptions

    @OptionGroup var norm: NormOptions

    func validate() throws { try norm.rejectFormerFlag() }

    @Option(help: "Zone of days without HKTimeZone evidence (default: the truth's home zone).")
    var homeTz: String?

    @Flag(help: "Print every day.")
    var verbose = false

    func run() async throws {
        let truth = try JSONDecoder().decode(GroundTruth.self, from: Data(contentsOf: URL(fileURLWithPath: self.truth)))
        guard let first = truth.days.first.flatMap({ LocalDate($0.date) }),
            let last = truth.days.last.flatMap({ LocalDate($0.date) })
        else { throw ValidationError("the truth file has no days") }
        var configuration = DailyNormalizer.Configuration()
        configuration.homeZone = TimeZone(identifier: homeTz ?? truth.homeZone) ?? .current
        configuration.version = norm.version
        try await storage.withQueries { store in try await report(store, configuration, truth, first, last) }
    }

    private func report(
        _ store: any HealthQuerying, _ configuration: DailyNormalizer.Configuration, _ truth: GroundTruth,
        _ first: LocalDate, _ last: LocalDate
    ) async throws {
        let started = Date()
        let metrics = try await DailyNormalizer(store: store, configuration: configuration, now: { Date() })
            .metrics(from: first, through: last)
        let report = AccuracyReport(truth: truth, metrics: metrics)
        print(
            "\(norm.version.rawValue), \(truth.persona ?? "watch") persona, normalised in "
                + "\(String(format: "%.2f", Date().timeIntervalSince(started))) s")
        print(report.summary)
        let nights = try await SleepAnalyzer(store: store, configuration: configuration).nights(from: first, through: last)
        print(SleepAccuracy(truth: truth, nights: nights).summary)
        if verbose {
            for day in report.days {
                print(
                    "\(day.date) \(day.zone) steps \(day.steps ?? -1)/\(day.truthSteps) observable \(day.observableSteps ?? -1) "
                        + "raw \(day.rawSteps ?? -1) "
                        + String(format: "sleep %.1f/%.1f", day.sleepMinutes ?? -1, day.truthSleepMinutes)
                        + " from \(day.sleepBasis?.rawValue ?? "—")/\(day.truthSleepBasis?.rawValue ?? "—")")
            }
        }
    }
}

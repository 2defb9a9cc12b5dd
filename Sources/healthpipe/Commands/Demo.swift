import ArgumentParser
import Foundation
import HealthCore
import HealthDaily
import HealthImport
import HealthReadiness
import HealthSQLite
import HealthSynth

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Generate a synthetic export, import it, and query it: the whole pipeline in one command.")

    @Option(help: "Days of synthetic data.")
    var days = 60

    @Option(help: "Where to keep the demo files (default: a fresh temporary folder).")
    var dir: String?

    func run() async throws {
        let folder = URL(
            fileURLWithPath: dir ?? NSTemporaryDirectory() + "healthpipe-demo-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let export = folder.appendingPathComponent("export.zip")
        let dbPath = folder.appendingPathComponent("health.sqlite").path
        print("1. Generating \(days) days of synthetic Apple Health data → \(export.path)")
        let truth = try await SyntheticExport(configuration: .init(days: days, seed: 42)).write(to: export)
        let database = try HealthDatabase(path: dbPath)
        print("2. Importing it")
        let summary = try await HealthImporter(database: database).run(path: export.path)
        print(ImportReport.render(summary).split(separator: "\n").prefix(2).joined(separator: "\n"))
        print("3. Importing the same file again")
        let again = try await HealthImporter(database: database).run(path: export.path)
        print(
            String(
                format: "  recognised in %.3f s: %@", again.elapsed,
                again.alreadyImported == nil ? "re-read" : "already imported, nothing to do"))
        print("4. Querying through the HealthQuerying protocol")
        let store = database.store
        let lastDay = truth.days[truth.days.count - 1]
        let zone = TimeZone(identifier: lastDay.timeZone)!
        let date = LocalDate(lastDay.date)!
        let day = DateInterval(start: date.instant(hour: 0, in: zone), end: date.adding(days: 1).instant(hour: 0, in: zone))
        let steps = try await store.statistics(of: .stepCount, over: day, unit: HealthUnit(parsing: "count"))
        let rawSum = Int(truncatingSaturating: steps.sum ?? 0) ?? 0
        print(
            "  \(lastDay.date): \(steps.count) step samples; raw sum over all sources \(rawSum) (Watch and iPhone double count), true steps \(lastDay.steps)"
        )
        if let weight = try await store.latestSample(of: .bodyMass), let kilograms = weight.value.number {
            let pounds = try HealthUnit.convert(kilograms, from: "kg", to: "lb")
            print(String(format: "  latest body mass: %.2f kg = %.2f lb", kilograms, pounds))
        }
        let changes = try await store.changes(of: .heartRate, since: .initial, limit: 1_000_000)
        print("  heart-rate changes since the initial anchor: \(changes.samples.count), next anchor \(changes.nextAnchor)")
        print("5. Readiness of the last 3 days, from the daily metrics")
        var settings = DailyNormalizer.Configuration()
        settings.homeZone = TimeZone(identifier: truth.homeZone) ?? .current
        let first = LocalDate(truth.days[0].date)!
        let last = LocalDate(lastDay.date)!
        let metrics = try await DailyNormalizer(store: store, configuration: settings, now: { Date() })
            .metrics(from: first, through: last)
        let scores = try ReadinessEngine().scores(on: truth.days.suffix(3).map(\.date), history: metrics)
        print(ReadinessTable.render(scores).split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        print("Store: \(dbPath)")
    }
}

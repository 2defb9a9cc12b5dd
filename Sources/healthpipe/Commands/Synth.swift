import ArgumentParser
import Foundation
import HealthSynth

struct Synth: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a deterministic synthetic Apple Health export and its ground truth.",
        discussion: """
            The export models Watch + iPhone double counting, phone-only mornings, charging gaps, \
            overlapping sleep sources, naps, a trip abroad, DST, duplicated records and export-time \
            offsets. Beside FILE it writes FILE.truth.json: the zone, true and observable steps, \
            asleep minutes and the source each night should be reported from, for every local day. \
            About 0.37 MB of XML per day. --persona no-watch lives the same days without an Apple \
            Watch: iPhone and Garmin steps, an Oura ring and a Withings mat at night, and nights \
            of only the iPhone's bedtime schedule. See docs/synthetic.md.
            """)

    @Option(help: "Number of local days.")
    var days = 30

    @Option(help: "Seed: the same seed gives the same bytes.")
    var seed: UInt64 = 1

    @Option(help: "First local day, YYYY-MM-DD.")
    var start = "2024-01-01"

    @Option(help: "Heart-rate samples per worn hour (raises the size per day).")
    var heartRatePerHour = 12

    @Option(help: "First day of the 7-day trip abroad, YYYY-MM-DD (default: 40% into the range).")
    var tripStart: String?

    @Option(help: "Who is recorded: watch (Apple Watch and iPhone) or no-watch (iPhone, Garmin, Oura ring, Withings mat).")
    var persona = SyntheticExport.Persona.watch

    @Option(help: "Output: FILE.zip (a full export archive) or FILE.xml (export.xml, routes beside it).")
    var out: String

    func validate() throws {
        guard days > 0 else { throw ValidationError("--days must be at least 1") }
        guard (1...3600).contains(heartRatePerHour) else { throw ValidationError("--heart-rate-per-hour must be 1…3600") }
        let ext = URL(fileURLWithPath: out).pathExtension.lowercased()
        guard ext == "zip" || ext == "xml" else { throw ValidationError("--out must end in .zip or .xml") }
    }

    func run() throws {
        var configuration = SyntheticExport.Configuration(days: days, seed: seed)
        configuration.startDate = start
        configuration.heartRatePerHour = heartRatePerHour
        configuration.tripStartDate = tripStart
        configuration.persona = persona
        let started = Date()
        let truth = try SyntheticExport(configuration: configuration).write(to: URL(fileURLWithPath: out))
        let records = truth.uniqueRecords.values.reduce(0, +)
        print(
            String(
                format: "Wrote %@ (%@ persona): %d days, %@ of XML, %@ distinct records (+%d duplicate copies) in %.1f s",
                out, persona.rawValue, days, ImportReport.bytes(truth.xmlBytes), ImportReport.count(records),
                truth.duplicateCopies,
                Date().timeIntervalSince(started)))
        print("Ground truth: " + URL(fileURLWithPath: out).deletingPathExtension().appendingPathExtension("truth.json").path)
    }
}

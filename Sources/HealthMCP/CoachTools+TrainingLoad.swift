import Foundation
import HealthCore
import HealthDaily
import MCP

/// `get_training_load`: the acute:chronic workload ratio of the person's workouts
/// (``TrainingLoad``; docs/workouts.md §Training load).
extension CoachTools {
    static var trainingLoadTool: Tool {
        Tool(
            name: "get_training_load", title: "Training load (acute:chronic)",
            description:
                "How the last 7 days of workouts compare with the last 28: each day's load is the active energy (kcal; needs energy data) or the minutes of the workouts that start on it; acute = the 7-day mean, chronic = the 28-day mean (the week included), ratio = acute ÷ chronic. Bands: below 0.8 low, 0.8–1.3 sweet spot, 1.3–1.5 caution, above 1.5 high. Days before the data begins do not count; the chronic mean needs 21 covered days.",
            inputSchema: Schema.object([
                "date": Schema.date(
                    "The last day of both windows (default today, or the last day with data when nothing is newer)."),
                "basis": Schema.string(
                    "energy (kcal, the default when energy may be read) or duration (minutes).",
                    oneOf: TrainingLoad.Basis.allCases.map(\.rawValue)),
            ]),
            annotations: Tool.Annotations(readOnlyHint: true, idempotentHint: true, openWorldHint: false),
            outputSchema: OutputSchema.trainingLoad)
    }

    func trainingLoad(_ arguments: ToolArguments) async throws -> Answer {
        try arguments.only(["date", "basis"])
        var basis = try arguments.choice("basis", TrainingLoad.Basis.allCases.map(\.rawValue)).flatMap(TrainingLoad.Basis.init)
        if basis == .energy, source.withheld.contains(.energy) {
            throw DataWithheld(kinds: [.energy])
        }
        basis = basis ?? (source.withheld.contains(.energy) ? .duration : .energy)
        let (through, note) = try await lastDay(arguments, "date", days: TrainingLoad.chronicDays)
        let zone = source.normalization.homeZone
        let first = through.adding(days: -(TrainingLoad.chronicDays - 1))
        let window = DateInterval(
            start: first.instant(hour: 0, in: zone), end: through.adding(days: 1).instant(hour: 0, in: zone))
        let summarizer = WorkoutSummarizer(
            store: source.store, withheld: basis == .energy ? source.withheld : source.withheld.union([.energy]))
        let workouts = try await summarizer.workouts(in: window, limit: 10_000, routePoints: 0)
            .filter { window.contains($0.start) }
        var withoutEnergy = 0
        let loads: [(day: LocalDate, load: Double)] = workouts.map { workout in
            let day = LocalDate(workout.start, in: zone)
            guard basis == .energy else { return (day, max(0, workout.end.timeIntervalSince(workout.start)) / 60) }
            if workout.energyKcal == nil { withoutEnergy += 1 }
            return (day, workout.energyKcal ?? 0)
        }
        let dataSince = try await source.store.storedSpan().map { LocalDate($0.start, in: zone) }
        let load = TrainingLoad(basis: basis!, through: through, loads: loads, dataSince: dataSince)
        let unit = load.basis == .energy ? "kcal" : "min"
        let rounded = { (value: Double?) in Value.number(value.map { ($0 * 10).rounded() / 10 }) }
        var structured: [String: Value] = [
            "basis": .string(load.basis.rawValue), "unit": .string(unit), "from": .string(first.description),
            "to": .string(through.description), "acute_daily_mean": rounded(load.acute),
            "chronic_daily_mean": rounded(load.chronic), "ratio": .number(load.ratio.map { ($0 * 100).rounded() / 100 }),
            "band": .text(load.band?.rawValue), "covered_days": .int(load.coveredDays), "workouts": .int(workouts.count),
            "days": .array(
                load.days.map { day in
                    .object(["date": .string(day.date.description), "load": rounded(day.load), "workouts": .int(day.workouts)])
                }),
        ]
        if load.basis == .energy { structured["workouts_without_energy"] = .int(withoutEnergy) }
        var summary = "Training load (\(load.basis.rawValue)) through \(through): "
        if let ratio = load.ratio, let band = load.band {
            summary +=
                "acute \(figure(load.acute)) \(unit)/day, chronic \(figure(load.chronic)) \(unit)/day, ratio \(figure(ratio, 2)) ("
                + band.rawValue.replacingOccurrences(of: "_", with: " ") + ")."
        } else if load.coveredDays < TrainingLoad.minimumChronicDays {
            summary +=
                "no ratio: the data covers \(load.coveredDays) of the last \(TrainingLoad.chronicDays) days; it needs \(TrainingLoad.minimumChronicDays)."
        } else if workouts.isEmpty {
            summary +=
                "no ratio: no workouts in the last \(TrainingLoad.chronicDays) days."
                + (try await whereTheDataIs(from: first, through: through))
        } else {
            summary +=
                "no ratio: the \(workouts.count) workouts of the last \(TrainingLoad.chronicDays) days have no "
                + (load.basis == .energy ? "energy figure; basis=duration counts their minutes." : "duration.")
        }
        if let note {
            structured["note"] = .string(note)
            summary += " " + note
        }
        return Answer(structured: .object(structured), summary: summary)
    }
}

import ArgumentParser
import Foundation
import HealthCore
import HealthSQLite
import HealthServerRecords

struct Plan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Planned workouts: add, list, start, finish.",
        discussion: "The snapshot shows the workout in progress and the next one planned for today or tomorrow.",
        subcommands: [Add.self, List.self, Start.self, Finish.self])
}

/// `ID [--at]`: a change of a planned workout's state.
struct PlanTransition: ParsableArguments {
    @OptionGroup var storage: StoreOptions
    @OptionGroup var zones: ZoneOptions

    @Argument(help: "The workout's id (healthpipe plan list).")
    var id: Int64

    @Option(help: "When (default: now): ISO 8601 with an offset, or a local time YYYY-MM-DDTHH:MM.")
    var at: String?

    func validate() throws {
        if let at { _ = try InstantOption.parse(at, option: "--at", zone: zones.inputZone) }
    }

    func apply(verb: String, _ change: (inout PlannedWorkout, Date) -> Void) async throws {
        try await storage.withStore { try await apply(verb: verb, change, in: $0) }
    }

    private func apply(verb: String, _ change: (inout PlannedWorkout, Date) -> Void, in opened: any UserHealthStore) async throws
    {
        let data = zones.data(opened.queries)
        var instant = Date()
        if let at { instant = try await data.instant(at, option: "--at") }
        let appData = opened.appData
        guard var workout = try await appData.plannedWorkout(id: id) else {
            printError("error: there is no planned workout #\(id); see `healthpipe plan list`.")
            throw ExitCode(2)
        }
        change(&workout, instant)
        try await appData.updatePlannedWorkout(workout)
        let zone = try await data.zone(at: workout.scheduledAt)
        print("\(verb) #\(id): \(PlanTable.describe(workout, zone: zone))")
    }
}

enum PlanTable {
    static func render(_ workouts: [PlannedWorkout], zone: TimeZone) -> String {
        let now = Date()
        var rows = [["id", "when", "name", "min", "status"]]
        for workout in workouts {
            rows.append([
                String(workout.id), LocalTimestampText.short(workout.scheduledAt, zone), workout.name,
                workout.durationMinutes.map(String.init) ?? "—", workout.status(at: now).rawValue,
            ])
        }
        return TextTable.render(rows, leftAligned: [1, 2, 4])
    }

    static func describe(_ workout: PlannedWorkout, zone: TimeZone) -> String {
        "\(workout.name) at \(LocalTimestampText.short(workout.scheduledAt, zone))"
            + (workout.durationMinutes.map { ", \($0) min" } ?? "")
    }
}

/// `YYYY-MM-DD HH:MM` in a zone, for tables.
enum LocalTimestampText {
    static func short(_ instant: Date, _ zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: instant)
    }
}

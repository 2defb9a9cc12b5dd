import ArgumentParser
import Foundation
import HealthCore
import HealthSQLite
import HealthServerRecords

extension Plan {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List planned workouts from a day on.")

        @OptionGroup var storage: StoreOptions
        @OptionGroup var zones: ZoneOptions

        @Option(help: "List from this instant (default: 7 days ago): ISO 8601 with an offset, or a local time YYYY-MM-DDTHH:MM.")
        var from: String?

        func validate() throws {
            if let from { _ = try InstantOption.parse(from, option: "--from", zone: zones.inputZone) }
        }

        func run() async throws {
            try await storage.withStore { try await list(from: $0) }
        }

        private func list(from opened: any UserHealthStore) async throws {
            let data = zones.data(opened.queries)
            var start = Date().addingTimeInterval(-7 * 86400)
            if let from { start = try await data.instant(from, option: "--from") }
            let workouts = try await opened.appData.plannedWorkouts(scheduledIn: DateInterval(start: start, end: .distantFuture))
            guard !workouts.isEmpty else { return print("no planned workouts") }
            let zone = try await data.zone(at: Date())
            print(PlanTable.render(workouts, zone: zone))
        }
    }
}

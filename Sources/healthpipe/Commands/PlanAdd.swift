import ArgumentParser
import Foundation
import HealthCore
import HealthSQLite
import HealthServerRecords

extension Plan {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Plan a workout.")

        @OptionGroup var storage: StoreOptions
        @OptionGroup var zones: ZoneOptions

        @Argument(help: "What the workout is, e.g. \"Tempo run\".")
        var name: String

        @Option(help: "When: ISO 8601 with an offset, or a local time YYYY-MM-DDTHH:MM.")
        var at: String

        @Option(help: "Planned length in minutes.")
        var duration: Int?

        func validate() throws {
            guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("the name must not be empty") }
            if let duration, !(1...1440).contains(duration) { throw ValidationError("--duration must be 1…1440 minutes") }
            _ = try InstantOption.parse(at, option: "--at", zone: zones.inputZone)
        }

        func run() async throws {
            try await storage.withStore(creating: true) { try await add(to: $0) }
        }

        private func add(to opened: any UserHealthStore) async throws {
            let data = zones.data(opened.queries)
            let scheduled = try await data.instant(at, option: "--at")
            let stored = try await opened.appData.addPlannedWorkout(
                PlannedWorkout(name: name, scheduledAt: scheduled, durationMinutes: duration))
            let zone = try await data.zone(at: scheduled)
            print("planned #\(stored.id): \(PlanTable.describe(stored, zone: zone))")
        }
    }
}

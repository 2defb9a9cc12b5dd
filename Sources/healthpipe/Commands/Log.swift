import ArgumentParser
import Foundation
import HealthCore
import HealthDaily
import HealthSQLite
import HealthServerRecords

struct Log: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Log today's energy, mood and stress (1–5) and a note; without values, show the day's log.",
        discussion: """
            A second log for the same day updates only what it sets. The coach snapshot reads it \
            (healthpipe snapshot).
            """)

    @OptionGroup var storage: StoreOptions
    @OptionGroup var zones: ZoneOptions

    @Option(help: "The local day, YYYY-MM-DD (default: today).")
    var date: String?

    @Option(help: "Energy, 1 (drained) to 5 (full of energy).")
    var energy: Int?

    @Option(help: "Mood, 1 (low) to 5 (great).")
    var mood: Int?

    @Option(help: "Stress, 1 (calm) to 5 (very stressed).")
    var stress: Int?

    @Option(help: "A short note.")
    var note: String?

    func validate() throws {
        if let date, LocalDate(date) == nil { throw ValidationError("--date must be a date YYYY-MM-DD, not '\(date)'") }
        for (name, value) in [("--energy", energy), ("--mood", mood), ("--stress", stress)] {
            if let value, !DailyLogEntry.scale.contains(value) {
                throw ValidationError("\(name) must be a whole number from 1 to 5")
            }
        }
    }

    func run() async throws {
        // Showing a day's log only reads: no store is created for it.
        let writes = energy != nil || mood != nil || stress != nil || note != nil
        try await storage.withStore(creating: writes) { try await run(on: $0) }
    }

    private func run(on store: any UserHealthStore) async throws {
        let day: LocalDate
        if let date = date.flatMap(LocalDate.init) {
            day = date
        } else {
            day = try await DailyNormalizer(store: store.queries, configuration: zones.configuration(), now: { Date() }).today()
        }
        let entry = try DailyLogEntry(date: day, energy: energy, mood: mood, stress: stress, note: note)
        let stored = entry.isEmpty ? try await store.appData.dailyLog(on: day) : try await store.appData.saveDailyLog(entry)
        guard let stored else {
            print("\(day): nothing logged")
            return
        }
        func rating(_ value: Int?) -> String { value.map { "\($0)/5" } ?? "—" }
        print(
            "\(day): energy \(rating(stored.energy)), mood \(rating(stored.mood)), stress \(rating(stored.stress))"
                + (stored.note.map { ", note: \($0)" } ?? ""))
    }
}

import ArgumentParser
import Foundation
import HealthCore
import HealthSQLite
import HealthServerRecords

struct Coach: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record that the user talked with the coach (when and what kind, never what was said).",
        discussion: "The snapshot reports the minutes since the last interaction.")

    @OptionGroup var storage: StoreOptions
    @OptionGroup var zones: ZoneOptions

    @Option(help: "When (default: now): ISO 8601 with an offset, or a local time YYYY-MM-DDTHH:MM.")
    var at: String?

    @Option(help: "A short label: chat, check-in, plan…")
    var kind: String = "chat"

    func validate() throws {
        guard !kind.isEmpty, kind.count <= 40 else { throw ValidationError("--kind must be 1…40 characters") }
        if let at { _ = try InstantOption.parse(at, option: "--at", zone: zones.inputZone) }
    }

    func run() async throws {
        try await storage.withStore(creating: true) { try await record(in: $0) }
    }

    private func record(in opened: any UserHealthStore) async throws {
        let data = zones.data(opened.queries)
        var instant = Date()
        if let at { instant = try await data.instant(at, option: "--at") }
        let stored = try await opened.appData.recordCoachInteraction(CoachInteraction(at: instant, kind: kind))
        let zone = try await data.zone(at: stored.at)
        print("recorded \(stored.kind) #\(stored.id) at \(LocalTimestampText.short(stored.at, zone))")
    }
}

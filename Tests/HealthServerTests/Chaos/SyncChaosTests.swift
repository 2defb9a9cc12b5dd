import Foundation
import HealthCore
import Testing

/// The sync under faults, end to end, with real processes (``SyncChaos``): after the
/// faults stop and the device drains, the server holds exactly the device's samples.
/// `scripts/sync-chaos` runs the same test at full size (100,000 samples).
@Suite struct SyncChaosTests {
    @Test func nothingIsLostOrDuplicatedUnderFaults() async throws {
        let chaos = try SyncChaos(settings: .fromEnvironment())
        let outcome: SyncChaos.Outcome
        do {
            outcome = try await chaos.run()
        } catch {
            Issue.record("\(error)\n\(chaos.logTail())")
            chaos.cleanUp()
            return
        }
        print(outcome.summary)
        let missing = Set(outcome.device.keys).subtracting(outcome.server.keys)
        let extra = Set(outcome.server.keys).subtracting(outcome.device.keys)
        let different = outcome.device.filter { uuid, sample in outcome.server[uuid].map { $0 != sample } ?? false }
        #expect(
            missing.isEmpty && extra.isEmpty && different.isEmpty,
            "\(missing.count) missing on the server, \(extra.count) not deleted or duplicated, \(different.count) different\n\(chaos.logTail())"
        )
        #expect(outcome.device.count >= chaos.settings.samples / 2)
        #expect(outcome.pendingBatches == 0 && outcome.deadLetters == 0)
        // The faults happened: every kind, kills on both sides, deletions among the writes.
        for fault in FaultProxy.Fault.allCases { #expect(outcome.faults[fault, default: 0] > 0, "no \(fault.rawValue)") }
        #expect(outcome.clientKills > 0 && outcome.serverKills > 0)
        #expect(outcome.writerAdded > 0 && outcome.writerDeleted > 0)
        chaos.cleanUp()
    }
}

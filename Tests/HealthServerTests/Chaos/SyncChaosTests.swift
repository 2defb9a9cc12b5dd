import Foundation
import HealthCore
import Testing

/// The sync under faults, end to end, with real processes (``SyncChaos``): after the
/// faults stop and the device drains, the server holds exactly the device's samples; and
/// after each ending scenario (a type deleted whole, a store whose data ended a year ago)
/// exactly what it should.
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
        // Samples dated ahead, stored before the first sync, went too (issue 33 §2).
        #expect(outcome.futureDated > 0)
        // The ending scenarios: a whole type deleted, a store whose data ended a year ago
        // (90 days, then all): each leaves the server with exactly what it should hold.
        #expect(outcome.scenarios.count == 3)
        for scenario in outcome.scenarios {
            #expect(
                scenario.missing.isEmpty && scenario.extra.isEmpty && scenario.different == 0 && !scenario.expected.isEmpty,
                "\(scenario.summary)\n\(chaos.logTail())")
        }
        chaos.cleanUp()
    }
}

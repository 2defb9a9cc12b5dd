import Foundation
import HealthCore
import HealthServer
import HealthServerRecords
import HealthServerStorage
import HealthWire
import Hummingbird
import HummingbirdTesting
import Testing

/// Finding L3 (issue 32): a sync delete item's `type` was ignored, so "delete this step
/// count" removed a night's sleep. A UUID stored as another type is refused (422), and the
/// whole batch changes nothing.
@Suite struct L3SyncDeleteTypeTests {
    @Test(arguments: ServerBackend.enabled) func l3_aDeleteNamingAnotherTypeIsRefused(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let device = try await SyncRouteTests.enrol(client, harness)
            let night = Sample(
                type: .sleepAnalysis, start: SyncRouteTests.start.addingTimeInterval(-8 * 3600), end: SyncRouteTests.start,
                value: .category("HKCategoryValueSleepAnalysisAsleepCore"), source: Source(name: "Jane’s Apple Watch"),
                uuid: UUID())
            let steps = SyncRouteTests.samples(1)
            let first = try SyncRouteTests.envelope(
                [.add(SampleWire(night)), .add(SampleWire(steps[0]))], device: device, sequence: 1)
            #expect(try await SyncRouteTests.post(client, harness, first).0 == .ok)
            // A step-count deletion of the night's UUID, after a step deletion that is right.
            let wrong = try SyncRouteTests.envelope(
                [
                    .delete(uuid: steps[0].uuid, type: SampleType.stepCount.identifier),
                    .delete(uuid: night.uuid, type: SampleType.stepCount.identifier),
                ], device: device, sequence: 2)
            let (status, problem, _) = try await SyncRouteTests.post(client, harness, wrong)
            #expect(status == .unprocessableContent)
            #expect((problem["detail"] as? String)?.contains("another type") == true)
            // Nothing deleted: the night and the steps are both still there.
            try await client.execute(
                uri: "/v1/changes?type=HKCategoryTypeIdentifierSleepAnalysis&since=0", method: .get,
                headers: harness.headers("alice")
            ) { response in
                let changes = ServerHarness.json(response.body)["changes"] as? [[String: Any]] ?? []
                #expect(changes.map { $0["deleted"] as? Bool } == [false])
            }
            try await client.execute(
                uri: "/v1/changes?type=HKQuantityTypeIdentifierStepCount&since=0", method: .get,
                headers: harness.headers("alice")
            ) { response in
                let changes = ServerHarness.json(response.body)["changes"] as? [[String: Any]] ?? []
                #expect(changes.map { $0["deleted"] as? Bool } == [false])
            }
        }
    }
}

/// A probe of 2026-11-28: an envelope's `compression: "none"` was refused pointing at `/v`,
/// and a ciphertext too short for its tag at `/nonce`. Each refusal points at its field.
@Suite struct SyncEnvelopePointerTests {
    @Test func aRefusedEnvelopePointsAtTheFieldItRefuses() async throws {
        let harness = try await ServerHarness(.sqlite)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let device = try await SyncRouteTests.enrol(client, harness)
            let sealed = try SyncRouteTests.envelope(
                [.add(SampleWire(SyncRouteTests.samples(1)[0]))], device: device, sequence: 1)
            var plain = sealed
            plain.compression = "none"
            var shortNonce = sealed
            shortNonce.nonce = Data(repeating: 1, count: 5)
            var shortCiphertext = sealed
            shortCiphertext.ciphertext = Data(repeating: 1, count: 3)
            for (envelope, pointer) in [(plain, "/compression"), (shortNonce, "/nonce"), (shortCiphertext, "/ciphertext")] {
                let (status, problem, _) = try await SyncRouteTests.post(client, harness, envelope)
                #expect(status == .unprocessableContent && problem["pointer"] as? String == pointer, "\(pointer): \(problem)")
            }
        }
    }
}

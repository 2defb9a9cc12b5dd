import Foundation
import HealthCore
import HealthServer
import HealthServerRecords
import HealthServerStorage
import HealthWire
import Hummingbird
import HummingbirdTesting
import Testing

/// Finding M8 (issue 32): a 285 KB sync batch inflating to 60 MiB of tiny items took the
/// server to 575 MB before the 20,000-item cap refused it (every item was decoded first).
/// The plaintext is capped at 16 MiB and its items are counted before any is decoded.
@Suite struct M8SyncItemCapTests {
    @Test func m8_itemsAreCountedWithoutDecoding() {
        let json = Data(#"{"items": [{"a": "{[}]\"{"}, {"b": [{}, {}]}, {}], "other": {"x": {}}}"#.utf8)
        #expect(SyncBatchContent.itemCount(in: json, stoppingAfter: 10) == 3)
        #expect(SyncBatchContent.itemCount(in: json, stoppingAfter: 1) == 2)
        let items = (0..<5).map { _ in SyncItem.delete(uuid: UUID(), type: SampleType.stepCount.identifier) }
        let encoded = try! SampleWire.encoder().encode(SyncBatchContent(items: items))
        #expect(SyncBatchContent.itemCount(in: encoded, stoppingAfter: 100) == 5)
    }

    @Test(arguments: ServerBackend.enabled) func m8_aMillionTinyItemsAreRefusedBeforeDecoding(
        _ backend: ServerBackend
    )
        async throws
    {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let device = try await SyncRouteTests.enrol(client, harness)
            // 1,000,000 empty objects: 3 MB of plaintext, a few KB sealed. Not one of them is
            // a valid item, so a server that decoded first would answer "Batch unreadable".
            var plaintext = Data(#"{"items":["#.utf8)
            plaintext.append(contentsOf: Array(repeating: Array("{},".utf8), count: 999_999).joined())
            plaintext.append(contentsOf: Array("{}]}".utf8))
            let envelope = try SyncEnvelope.seal(
                plaintext, userID: device.userID, deviceID: device.id, key: device.key, batchID: UUID(), sequence: 1,
                createdAt: Date())
            let (status, problem, _) = try await SyncRouteTests.post(client, harness, envelope)
            #expect(status == .unprocessableContent)
            #expect((problem["detail"] as? String)?.contains("at most 20000 items") == true)
            #expect(problem["pointer"] as? String == "/ciphertext")
        }
    }
}

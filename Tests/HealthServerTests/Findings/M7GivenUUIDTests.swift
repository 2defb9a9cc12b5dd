import Foundation
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import Testing

/// Finding M7 (issue 32): a sample with its own UUID and the content of a stored one was
/// dropped as a duplicate; deleting the first then lost both. Two glasses of water in the
/// same minute are two samples: a writer-given UUID is never merged into another UUID's row.
@Suite struct M7GivenUUIDTests {
    static let first = "6F1C2A8E-3B5D-4E0A-9C7B-2D4E6F8A0B1C"
    static let second = "0B6D1F3A-5C7E-4A9B-8D2F-4E6A8C0B2D4F"

    static func water(_ uuid: String) -> String {
        #"{"uuid": "\#(uuid)", "type": "HKQuantityTypeIdentifierDietaryWater", "start": "2024-06-01T08:00:00Z", "#
            + #""end": "2024-06-01T08:00:00Z", "value": 250, "unit": "mL", "source": "Jane’s iPhone"}"#
    }

    @Test(arguments: ServerBackend.enabled) func m7_twoGlassesOfWaterAreTwoSamples(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            func post(_ body: String, key: String) async throws -> [String: Any] {
                try await client.execute(
                    uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: key),
                    body: ByteBuffer(string: body)
                ) { response in
                    #expect(response.status == .ok)
                    return ServerHarness.json(response.body)
                }
            }
            let both = #"{"samples": [\#(Self.water(Self.first)), \#(Self.water(Self.second))]}"#
            let stored = try await post(both, key: "m7-1")
            #expect(stored["added"] as? Int == 2 && stored["duplicates"] as? Int == 0)
            // Sent again (each UUID with its content): duplicates, nothing added.
            let again = try await post(both, key: "m7-2")
            #expect(again["added"] as? Int == 0 && again["duplicates"] as? Int == 2)
            // One at a time, in the other order: still the same two.
            let second = try await post(#"{"samples": [\#(Self.water(Self.second))]}"#, key: "m7-3")
            #expect(second["added"] as? Int == 0 && second["duplicates"] as? Int == 1)
            // Deleting the first leaves the second.
            try await client.execute(
                uri: "/v1/samples", method: .delete, headers: harness.headers("alice", idempotencyKey: "m7-4"),
                body: ByteBuffer(string: #"{"uuids": ["\#(Self.first)"]}"#)
            ) { response in
                #expect(response.status == .ok)
                #expect(ServerHarness.json(response.body)["deleted"] as? [String] == [Self.first])
            }
            try await client.execute(
                uri: "/v1/changes?type=HKQuantityTypeIdentifierDietaryWater&since=0", method: .get,
                headers: harness.headers("alice")
            ) { response in
                let changes = ServerHarness.json(response.body)["changes"] as? [[String: Any]] ?? []
                let live = changes.filter { $0["deleted"] as? Bool == false }.compactMap { $0["uuid"] as? String }
                let gone = changes.filter { $0["deleted"] as? Bool == true }.compactMap { $0["uuid"] as? String }
                #expect(live == [Self.second])
                #expect(gone == [Self.first])
            }
        }
    }
}

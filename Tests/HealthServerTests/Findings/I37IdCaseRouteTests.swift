import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HealthServer

/// An import job's id written in upper case was a 404 for its owner (and a device's), while
/// the workout and sample routes take either case: ids are lower-case UUIDs, and one in upper
/// case is the same.
@Suite struct I37IdCaseRouteTests {
    @Test(arguments: ServerBackend.enabled) func anIdInUpperCaseIsTheSame(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let zip = try Data(
            contentsOf: URL(fileURLWithPath: CommandLine33.fixture("apple-health/jshrake-healthkit-to-sqlite/export.zip")))
        try await harness.app.test(.router) { client in
            let id = try await client.execute(
                uri: "/v1/imports", method: .post, headers: harness.upload("alice"), body: ByteBuffer(data: zip)
            ) { response in ServerHarness.json(response.body)["id"] as? String ?? "" }
            #expect(!id.isEmpty && id == id.lowercased())
            try await client.execute(uri: "/v1/imports/\(id.uppercased())", method: .get, headers: harness.headers("alice")) {
                response in
                #expect(response.status == .ok && ServerHarness.json(response.body)["id"] as? String == id)
            }
            // Another user's job stays unknown, whatever its case.
            try await client.execute(uri: "/v1/imports/\(id.uppercased())", method: .get, headers: harness.headers("bob")) {
                response in #expect(response.status == .notFound)
            }
            _ = try await ImportsRouteTests.finished(id, client, harness.headers("alice"))
        }
    }
}

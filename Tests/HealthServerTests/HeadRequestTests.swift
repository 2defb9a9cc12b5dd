import Foundation
import HealthServer
import Hummingbird
import HummingbirdTesting
import Testing

/// A probe of 2026-11-28: `HEAD` on the `GET` routes was a 405 (`Allow: GET`), though RFC
/// 9110 asks every server that answers GET to answer HEAD — a load balancer's `HEAD /readyz`
/// failed. A HEAD runs as the GET and answers its status and headers without a body.
@Suite struct HeadRequestTests {
    @Test(arguments: ServerBackend.enabled) func aHeadAnswersAsTheGetWithoutTheBody(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await harness.postSampleBatch(client)
            for (uri, user) in [("/readyz", nil), ("/v1/daily-metrics?from=2024-05-25&to=2024-06-05", "alice")] {
                let headers = user.map { harness.headers($0, json: false) } ?? [:]
                let get = try await client.execute(uri: uri, method: .get, headers: headers) { $0 }
                let head = try await client.execute(uri: uri, method: .head, headers: headers) { $0 }
                #expect(get.status == .ok && head.status == .ok, "\(uri)")
                #expect(head.body.readableBytes == 0 && get.body.readableBytes > 0, "\(uri)")
                #expect(head.headers[.contentLength] == String(get.body.readableBytes), "\(uri)")
                #expect(head.headers[.eTag] == get.headers[.eTag], "\(uri)")
            }
            // Without a token: the GET's 401, without its body.
            let refused = try await client.execute(uri: "/v1/daily-metrics?from=2024-05-25&to=2024-06-05", method: .head) { $0 }
            #expect(refused.status == .unauthorized && refused.body.readableBytes == 0)
        }
    }
}

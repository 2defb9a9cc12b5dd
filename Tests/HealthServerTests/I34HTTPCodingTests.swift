import Foundation
import HealthServer
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 34 §3: the routes are Hummingbird route collections with the contexts' own coders.
/// What clients see stays as it was: JSON as `application/json` with sorted keys, a body
/// that does not decode answered with the field's pointer, a 405 that lists the methods.
@Suite struct I34HTTPCodingTests {
    @Test func i34_answersAreJSONWithSortedKeysAndNoCharset() async throws {
        let harness = try await ServerHarness(.sqlite)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                #expect(String(buffer: response.body) == #"{"status":"ok"}"#)
            }
            try await client.execute(uri: "/v1/devices", method: .get, headers: harness.headers("alice")) { response in
                #expect(response.headers[.contentType] == "application/json")
                #expect(String(buffer: response.body) == #"{"devices":[]}"#)
            }
        }
    }

    /// Hummingbird's own `request.decode` answers a `DecodingError` with a 400 of its own,
    /// without the field; the server's decoder names it.
    @Test func i34_aDeviceBodyThatDoesNotDecodeNamesTheField() async throws {
        let harness = try await ServerHarness(.sqlite)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            for (body, detail, pointer) in [
                ("{}", "missing field 'name'", "/name"), (#"{"name": 5}"#, "expected a string here", "/name"),
                // An array where an object belongs: said in JSON's words, not Swift's.
                ("[]", "expected an object here", ""),
            ] {
                try await client.execute(
                    uri: "/v1/devices", method: .post, headers: harness.headers("alice"), body: ByteBuffer(string: body)
                ) { response in
                    let problem = ServerHarness.json(response.body)
                    #expect(response.status == .badRequest)
                    #expect(response.headers[.contentType] == "application/problem+json")
                    #expect(problem["title"] as? String == "Bad request")
                    #expect(problem["detail"] as? String == detail)
                    #expect(problem["pointer"] as? String == pointer)
                }
            }
            // Over the limit of JSON bodies (4 MiB): a 413 that says the limit.
            let large = #"{"name": ""# + String(repeating: "a", count: 4 << 20) + #""}"#
            try await client.execute(
                uri: "/v1/devices", method: .post, headers: harness.headers("alice"), body: ByteBuffer(string: large)
            ) { response in
                #expect(response.status == .contentTooLarge)
                #expect((ServerHarness.json(response.body)["detail"] as? String)?.contains("4194304 bytes") == true)
            }
        }
    }

    @Test func i34_aMethodAPathDoesNotHaveIsA405ListingTheOthers() async throws {
        let harness = try await ServerHarness(.sqlite)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            for (method, path, allowed) in [
                (HTTPRequest.Method.put, "/v1/devices/abc", "DELETE"), (.get, "/mcp", "POST"),
                (.put, "/v1/samples", "POST, DELETE"),
            ] {
                try await client.execute(uri: path, method: method, headers: harness.headers("alice")) { response in
                    #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                    #expect(response.headers[.allow] == allowed, "\(method) \(path)")
                }
            }
        }
    }
}

import Foundation
import HealthServer
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HealthServer
@testable import HealthServerRecords
@testable import HealthServerStorage

/// Finding L4 (issue 32): `/mcp`'s 403 gate read duplicate JSON keys differently from the
/// MCP SDK, so a tool call could pass the gate as one tool and run as another. Every JSON
/// body with a key twice in one object is refused (400) before any parser reads it.
@Suite struct L4DuplicateKeyTests {
    @Test func l4_duplicateKeysAreFoundWhereverTheyAre() {
        func first(_ json: String) -> String? { JSONDuplicateKeys.first(in: Data(json.utf8)) }
        #expect(first(#"{"a": 1, "b": {"c": 2, "d": [1, {"e": 1}]}}"#) == nil)
        #expect(first(#"{"a": 1, "a": 2}"#) == "/a")
        #expect(first(#"{"a": 1, "b": {"c": 2, "c": 3}}"#) == "/b/c")
        #expect(first(#"{"x": [{"k": 1}, {"k": 1, "k": 2}]}"#) == "/x/1/k")
        #expect(first(#"{"a": "\"a\"", "b": "a", "\u0061": 3}"#) == "/a")
        #expect(first(#"{"a/b": 1, "a/b": 2}"#) == "/a~1b")
        // Many keys: found, and not at the square of their number.
        let many = (0..<50_000).map { "\"k\($0)\": 1" }.joined(separator: ", ")
        #expect(first("{\(many), \"k49999\": 2}") == "/k49999")
    }

    @Test(arguments: ServerBackend.enabled) func l4_aToolCallWithATwiceNamedToolIsRefused(
        _ backend: ServerBackend
    )
        async throws
    {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let call =
                #"{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "list_data_types", "name": "get_sleep", "arguments": {}}}"#
            let headers = harness.mcpHeaders("alice")
            try await client.execute(uri: "/mcp", method: .post, headers: headers, body: ByteBuffer(string: call)) { response in
                #expect(response.status == .badRequest)
                #expect(ServerHarness.json(response.body)["pointer"] as? String == "/params/name")
            }
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "l4"),
                body: ByteBuffer(string: #"{"samples": [], "samples": []}"#)
            ) { response in
                #expect(response.status == .badRequest)
            }
        }
    }
}

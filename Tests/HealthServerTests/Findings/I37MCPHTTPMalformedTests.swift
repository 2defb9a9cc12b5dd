import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HealthServer

/// `POST /mcp` answered a request with `"id": null` or a fractional id with 202 and no body
/// (dropped), an empty batch with a parse error, and refused curl's default `Accept: */*`
/// with 406 — while `healthpipe mcp` answers the JSON-RPC errors with `"id": null`.
@Suite struct I37MCPHTTPMalformedTests {
    @Test(arguments: ServerBackend.enabled) func malformedMessagesGetJSONRPCErrors(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            for (body, code) in [
                (#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#, -32600),
                (#"{"jsonrpc":"2.0","id":1.5,"method":"tools/list"}"#, -32600), ("[]", -32600), ("{nope", -32700),
            ] {
                try await client.execute(
                    uri: "/mcp", method: .post, headers: harness.mcpHeaders("alice"), body: ByteBuffer(string: body)
                ) { response in
                    let text = String(buffer: response.body)
                    #expect(response.status == .badRequest, "\(body): \(response.status)")
                    #expect(text.contains(#""id":null"#) && text.contains(#""code":\#(code)"#), "\(body): \(text)")
                }
            }
            var anyType = harness.mcpHeaders("alice")
            anyType[.accept] = "*/*"
            try await client.execute(
                uri: "/mcp", method: .post, headers: anyType,
                body: ByteBuffer(string: #"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#)
            ) { response in
                #expect(response.status == .ok && String(buffer: response.body).contains(#""id":7"#), "\(response.status)")
            }
        }
    }
}

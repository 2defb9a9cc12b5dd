import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// A probe of 2026-11-28: `POST /mcp` answered `{}` (JSON, but no JSON-RPC message) with
/// Parse error (-32700), `"jsonrpc": "1.0"` with Parse error under HTTP 200, and a batch with
/// Parse error; stdio answered `{}` under an id the SDK made up. Each is Invalid Request
/// (-32600) with `"id": null` now, HTTP 400; a batch over HTTP says it is one
/// (`JSONRPCRefusalTests` pins the refusals themselves).
@Suite struct MCPMessageShapeTests {
    static func code(_ data: Data?) -> Int? {
        guard let data, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        #expect(object["id"] is NSNull)
        return (object["error"] as? [String: Any])?["code"] as? Int
    }

    @Test func postMCPAnswersThemWithA400() async throws {
        let harness = try await ServerHarness(.sqlite)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            for shape in [
                #"{}"#, #"{"jsonrpc":"1.0","id":1,"method":"ping"}"#,
                #"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#,
            ] {
                try await client.execute(
                    uri: "/mcp", method: .post, headers: harness.mcpHeaders("alice"), body: ByteBuffer(string: shape)
                ) { response in
                    #expect(response.status == .badRequest, "\(shape)")
                    #expect(Self.code(Data(response.body.readableBytesView)) == -32600, "\(shape)")
                }
            }
        }
    }
}

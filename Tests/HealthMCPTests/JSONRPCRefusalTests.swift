import Foundation
import Testing

@testable import HealthMCP

/// A probe of 2026-11-28: JSON that is no JSON-RPC 2.0 message (`{}`, `"jsonrpc": "1.0"`, a
/// method that is no string) got Parse error (-32700) from the SDK, over stdio under an id
/// it made up; a batch over HTTP got Parse error. Each is Invalid Request, `"id": null`.
@Suite struct JSONRPCRefusalTests {
    static func code(_ data: Data?) -> Int? {
        guard let data, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        #expect(object["id"] is NSNull)
        return (object["error"] as? [String: Any])?["code"] as? Int
    }

    @Test func messagesThatAreNoJSONRPCAreInvalidRequests() {
        for shape in [#"{}"#, #"{"jsonrpc":"1.0","id":1,"method":"ping"}"#, #"{"jsonrpc":"2.0","id":1,"method":5}"#] {
            #expect(Self.code(JSONRPCRefusal.of(Data(shape.utf8))) == -32600, "\(shape)")
        }
        // Requests, notifications and responses pass.
        for shape in [
            #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            #"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        ] {
            #expect(JSONRPCRefusal.of(Data(shape.utf8)) == nil, "\(shape)")
        }
        #expect(Self.code(JSONRPCRefusal.ofBatch(Data(#" [{"jsonrpc":"2.0","id":1,"method":"ping"}]"#.utf8))) == -32600)
        #expect(JSONRPCRefusal.ofBatch(Data(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.utf8)) == nil)
    }

}

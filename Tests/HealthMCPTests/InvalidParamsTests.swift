import Foundation
import Logging
import MCP
import Testing

@testable import HealthMCP

#if canImport(Glibc)
    import Glibc
#endif

/// A request whose params its method cannot read is answered with Invalid params (-32602)
/// under its own id, naming the field; the SDK answered Internal error (-32603), "The data
/// isn't in the correct format".
@Suite struct InvalidParamsTests {
    @Test func paramsAMethodCannotReadAreInvalidParamsNamingTheField() async throws {
        let tools = try await CoachStore.tools()
        let input = try I37StdioLineTransportTests.pipePair()
        let output = try I37StdioLineTransportTests.pipePair()
        defer { close(output.read) }
        let bad = [
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":"x"}"#,
            #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_sleep","arguments":"x"}}"#,
            #"{"jsonrpc":"2.0","id":4,"method":"tools/call"}"#,
            #"{"jsonrpc":"2.0","id":"5","method":"resources/read","params":{}}"#,
            #"{"jsonrpc":"2.0","id":6,"method":"prompts/get","params":{"name":"weekly_review","arguments":{"from":7}}}"#,
        ]
        // In a batch, one array of answers: the SDK's (JSON-RPC 2.0 §6), its error included.
        let mixed = #"[{"jsonrpc":"2.0","id":10,"method":"ping"},{"jsonrpc":"2.0","id":11,"method":"tools/list","params":[1]}]"#
        let lines =
            [I37StdioLineTransportTests.requests[0], I37StdioLineTransportTests.requests[1]] + bad
            + [mixed, #"{"jsonrpc":"2.0","id":9,"method":"tools/list"}"#]
        I37StdioLineTransportTests.write(lines.joined(separator: "\n") + "\n", to: input.write)
        close(input.write)
        let server = await CoachServer.make(tools)
        let transport = StdioLineTransport(
            input: input.read, output: output.write, logger: Logger(label: "test"), answerTimeout: .seconds(600))
        async let written = I37StdioLineTransportTests.readAll(output.read)
        try await server.start(transport: transport)
        await server.waitUntilCompleted()
        close(output.write)
        close(input.read)
        let answers = String(decoding: await written, as: UTF8.self).split(separator: "\n").map(String.init)
        let messages = answers.flatMap { answer -> [[String: Any]] in
            let value = try? JSONSerialization.jsonObject(with: Data(answer.utf8))
            return (value as? [[String: Any]]) ?? [(value as? [String: Any]) ?? [:]]
        }
        func error(_ id: String) -> (Int?, String?) {
            let message = messages.first { "\($0["id"] ?? "")" == id }
            let error = message?["error"] as? [String: Any]
            return (error?["code"] as? Int, error?["message"] as? String)
        }
        #expect(error("1") == (-32602, "Invalid params: tools/call: name must be a string"), "\(answers)")
        #expect(error("2") == (-32602, "Invalid params: tools/call: params must be an object"))
        #expect(error("3").0 == -32602 && error("3").1?.hasPrefix("Invalid params: tools/call: arguments") == true)
        #expect(error("4") == (-32602, "Invalid params: tools/call: params is missing"))
        #expect(error("5") == (-32602, "Invalid params: resources/read: uri is missing"))
        #expect(error("6") == (-32602, "Invalid params: prompts/get: arguments.from must be a string"))
        #expect(error("11").0 != nil)
        let batch = answers.filter { $0.hasPrefix("[") }
        #expect(batch.count == 1 && batch[0].contains(#""id":10"#) && batch[0].contains(#""id":11"#), "\(answers)")
        #expect(messages.first { "\($0["id"] ?? "")" == "10" }?["result"] != nil)
        #expect(messages.first { "\($0["id"] ?? "")" == "9" }?["result"] != nil)
        #expect(!answers.filter { !$0.hasPrefix("[") }.contains { $0.contains("-32603") })
    }
}

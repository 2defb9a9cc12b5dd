import Foundation
import MCP
import Testing

@testable import HealthMCP

/// `query_samples` with a unit of another dimension (`kg` for a heart rate) answered without
/// an error — every bucket's mean, min and max null, the text still promising them. A unit
/// that does not convert from the type's own is a tool error naming the type's unit.
@Suite struct I37QueryUnitTests {
    func text(_ result: CallTool.Result) -> String {
        result.content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }.joined()
    }

    @Test func aUnitOfAnotherDimensionIsAToolError() async throws {
        let tools = try await CoachStore.tools()
        let range: [String: Value] = ["type": "heart_rate", "from": "2024-04-01", "to": "2024-04-02"]
        let wrong = await tools.call("query_samples", arguments: range.merging(["unit": "kg"]) { $1 })
        #expect(wrong.isError == true && text(wrong).contains("'kg' is no unit of"), "\(text(wrong))")
        let converted = await tools.call("query_samples", arguments: range.merging(["unit": "count/s"]) { $1 })
        #expect(converted.isError != true, "\(text(converted))")
        let unknown = await tools.call("query_samples", arguments: range.merging(["unit": "furlongs"]) { $1 })
        #expect(unknown.isError == true && text(unknown).contains("is not a unit"), "\(text(unknown))")
    }
}

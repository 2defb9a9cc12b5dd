import Foundation
import MCP
import Testing

@testable import HealthMCP

/// Issue 36 §6: the bundle's manifest (MCPB 0.3) starts `healthpipe mcp` on the person's
/// store and zone, and lists the tools a read-only server offers and every prompt.
@Suite struct I36BundleTests {
    @Test func i36_theBundlesManifestStartsTheServerOnTheChosenStore() throws {
        let data = try CoachBundle.manifest(version: "1.2.3", platform: "linux")
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(manifest["manifest_version"] as? String == "0.3" && manifest["version"] as? String == "1.2.3")
        #expect(manifest["name"] as? String == "healthpipeline" && (manifest["author"] as? [String: Any])?["name"] != nil)
        let server = try #require(manifest["server"] as? [String: Any])
        #expect(server["type"] as? String == "binary" && server["entry_point"] as? String == "server/healthpipe")
        let config = try #require(server["mcp_config"] as? [String: Any])
        #expect(config["command"] as? String == "${__dirname}/server/healthpipe")
        #expect(config["args"] as? [String] == ["mcp", "--db", "${user_config.store}", "--home-tz", "${user_config.home_tz}"])
        let settings = try #require(manifest["user_config"] as? [String: [String: Any]])
        #expect(settings["store"]?["type"] as? String == "file" && settings["store"]?["required"] as? Bool == true)
        #expect(settings["home_tz"]?["default"] as? String == "UTC")
        let tools = try #require(manifest["tools"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(tools == CoachTools.definitions(allowWrites: false).map(\.name))
        #expect(!tools.contains("log_subjective") && tools.contains("correlate_metrics"))
        let prompts = try #require(manifest["prompts"] as? [[String: Any]])
        #expect(prompts.compactMap { $0["name"] as? String } == CoachPrompts.prompts.map(\.name))
        #expect(prompts.allSatisfy { ($0["text"] as? String)?.isEmpty == false })
        #expect((manifest["compatibility"] as? [String: Any])?["platforms"] as? [String] == ["linux"])
    }
}

import Foundation
import MCP

/// The manifest of the coach's MCP Bundle (`.mcpb`, manifest version 0.3): a zip of this
/// manifest and the `healthpipe` binary at `server/healthpipe`, installed in one click by a
/// desktop client, which asks for the store file and the home zone and starts
/// `healthpipe mcp` over stdio (docs/mcp.md §One-click install).
public enum CoachBundle {
    /// Where the binary sits in the bundle.
    public static let entryPoint = "server/healthpipe"

    /// The manifest's JSON (sorted keys, pretty): the tools and prompts listed for the
    /// client's install page; `platform` is `darwin`, `linux` or `win32`.
    public static func manifest(version: String, platform: String) throws -> Data {
        // The tools a store without writes offers: log_subjective is off unless asked for.
        let tools = CoachTools.definitions(allowWrites: false)
        let manifest: Value = .object([
            "manifest_version": "0.3",
            "name": "healthpipeline",
            "display_name": "HealthPipeline",
            "version": .string(version),
            "description":
                "Your Apple Health data, cleaned, for an AI coach: days in your own zone, Watch and iPhone never counted twice.",
            "long_description": .string(
                """
                A local MCP server over a HealthPipeline store (a file made by `healthpipe import` from an \
                Apple Health export). It answers daily metrics, sleep per night with stages, readiness with its \
                reasons, workouts, trends, correlations and before/after comparisons, each answer typed and \
                saying when data is missing. Nothing leaves your machine: the server reads the file you choose.
                """),
            "author": .object(["name": "HealthPipeline"]),
            "license": "MIT",
            "keywords": ["health", "apple-health", "healthkit", "sleep", "fitness", "coach"],
            "server": .object([
                "type": "binary",
                "entry_point": .string(entryPoint),
                "mcp_config": .object([
                    "command": .string("${__dirname}/" + entryPoint),
                    "args": ["mcp", "--db", "${user_config.store}", "--home-tz", "${user_config.home_tz}"],
                ]),
            ]),
            "user_config": .object([
                "store": .object([
                    "type": "file", "title": "Health store",
                    "description": "The store `healthpipe import` wrote from your Apple Health export (a .sqlite file).",
                    "required": true,
                ]),
                "home_tz": .object([
                    "type": "string", "title": "Home time zone",
                    "description": "Your usual IANA time zone, e.g. Europe/Paris: the zone of days without a recorded one.",
                    "required": true, "default": "UTC",
                ]),
            ]),
            "tools": .array(
                tools.map { tool in .object(["name": .string(tool.name), "description": .string(tool.description ?? "")]) }),
            "tools_generated": false,
            "prompts": .array(
                CoachPrompts.entries.map { entry in
                    .object([
                        "name": .string(entry.prompt.name), "description": .string(entry.prompt.description ?? ""),
                        "arguments": .array((entry.prompt.arguments ?? []).map { .string($0.name) }),
                        "text": .string((try? entry.text([:]).text) ?? entry.prompt.description ?? entry.prompt.name),
                    ])
                }),
            "compatibility": .object(["platforms": .array([.string(platform)])]),
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(manifest)
    }
}

import Foundation
import HealthCore
import MCP

/// The MCP server of the coach: the tools of ``CoachTools``, three resources, a template and
/// the prompts of ``CoachPrompts``.
/// `healthpipe mcp` runs it over stdio; `POST /mcp` on the server runs one per request
/// (stateless HTTP), limited to what the token may read.
public enum CoachServer {
    /// Resources: today's context, readiness today, the last seven days, and days by range (a template).
    static let resources = [
        Resource(
            name: "coach-context", uri: "health://coach/context", title: "Coach context now",
            description: "The person's state right now, as get_coach_context gives it.", mimeType: "application/json"),
        Resource(
            name: "readiness-today", uri: "health://readiness/today", title: "Readiness today",
            description: "Today's readiness score with its contributors.", mimeType: "application/json"),
        Resource(
            name: "last-7-days", uri: "health://days/last-7", title: "The last seven days",
            description:
                "The daily metrics of the seven days ending today (or the last day with data when nothing is newer), as get_daily_metrics gives them.",
            mimeType: "application/json"),
    ]

    static let templates = [
        Resource.Template(
            uriTemplate: "health://days/{from}/{to}", name: "days", title: "Daily metrics",
            description: "The daily metrics from one date to another (YYYY-MM-DD), as get_daily_metrics gives them.",
            mimeType: "application/json")
    ]

    /// A server over `tools` (not started: call `start(transport:)`).
    public static func make(_ tools: CoachTools, version: String = HealthPipelineVersion.current) async -> Server {
        let server = Server(
            name: "healthpipeline", version: version, title: "HealthPipeline",
            instructions: """
                One person's health data, already cleaned: steps never counted twice across Apple Watch and \
                iPhone, days in the person's own time zone, sleep sessions with stages, a readiness score with \
                its reasons. Start with get_coach_context; use get_daily_metrics, get_sleep, get_readiness and \
                get_trends for history. Answers are small; ranged tools page with next_from.
                """,
            capabilities: .init(
                prompts: .init(listChanged: false), resources: .init(subscribe: false, listChanged: false),
                tools: .init(listChanged: false)))
        await server.withMethodHandler(ListTools.self) { _ in .init(tools: tools.definitions) }
        await server.withMethodHandler(CallTool.self) { params in await tools.call(params.name, arguments: params.arguments) }
        await server.withMethodHandler(ListResources.self) { _ in .init(resources: resources) }
        await server.withMethodHandler(ListResourceTemplates.self) { _ in .init(templates: templates) }
        await server.withMethodHandler(ReadResource.self) { params in try await read(params.uri, tools) }
        await server.withMethodHandler(ListPrompts.self) { _ in .init(prompts: CoachPrompts.prompts) }
        await server.withMethodHandler(GetPrompt.self) { params in
            try CoachPrompts.get(params.name, params.arguments, anchor: try? await tools.source.anchor())
        }
        return server
    }

    /// A resource, as the tool behind it answers it; an unknown URI or a tool error is an
    /// invalid-params error with the tool's message.
    static func read(_ uri: String, _ tools: CoachTools) async throws -> ReadResource.Result {
        let (name, arguments): (String, [String: Value]?)
        switch uri {
        case "health://coach/context": (name, arguments) = ("get_coach_context", nil)
        case "health://readiness/today": (name, arguments) = ("get_readiness", nil)
        case "health://days/last-7":
            let last = try await tools.source.anchor().day
            (name, arguments) = (
                "get_daily_metrics", ["from": .string(last.adding(days: -6).description), "to": .string(last.description)]
            )
        default:
            let parts = uri.split(separator: "/", omittingEmptySubsequences: false)
            guard uri.hasPrefix("health://days/"), parts.count == 5 else {
                throw MCPError.invalidParams(
                    "no resource \(uri.prefix(80)); there are health://coach/context, health://readiness/today, health://days/last-7, health://days/{from}/{to}"
                )
            }
            (name, arguments) = ("get_daily_metrics", ["from": .string(String(parts[3])), "to": .string(String(parts[4]))])
        }
        let result = await tools.call(name, arguments: arguments)
        if result.isError == true {
            let message = result.content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }.joined()
            throw MCPError.invalidParams(message)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(result.structuredContent ?? .null), as: UTF8.self)
        return .init(contents: [.text(text, uri: uri, mimeType: "application/json")])
    }
}

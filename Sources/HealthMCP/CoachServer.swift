import Foundation
import HealthCore
import MCP

/// The MCP server of the coach: the tools of ``CoachTools``, three resources and two prompts.
/// `healthpipe mcp` runs it over stdio; `POST /mcp` on the server runs one per request
/// (stateless HTTP), limited to what the token may read.
public enum CoachServer {
    /// Resources: today's context, readiness today, and days by range (a template).
    static let resources = [
        Resource(
            name: "coach-context", uri: "health://coach/context", title: "Coach context now",
            description: "The person's state right now, as get_coach_context gives it.", mimeType: "application/json"),
        Resource(
            name: "readiness-today", uri: "health://readiness/today", title: "Readiness today",
            description: "Today's readiness score with its contributors.", mimeType: "application/json"),
    ]

    static let templates = [
        Resource.Template(
            uriTemplate: "health://days/{from}/{to}", name: "days", title: "Daily metrics",
            description: "The daily metrics from one date to another (YYYY-MM-DD), as get_daily_metrics gives them.",
            mimeType: "application/json")
    ]

    static let prompts = [
        Prompt(
            name: "weekly-review", title: "Weekly review",
            description: "A short review of the last seven days: activity, sleep and recovery against the week before.",
            arguments: [.init(name: "week_ending", description: "The week's last day, YYYY-MM-DD (default today).")]),
        Prompt(
            name: "morning-check-in", title: "Morning check-in",
            description: "How ready the person is today and what that means for today's training."),
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
        await server.withMethodHandler(ListPrompts.self) { _ in .init(prompts: prompts) }
        await server.withMethodHandler(GetPrompt.self) { params in try prompt(params.name, params.arguments) }
        return server
    }

    /// A resource, as the tool behind it answers it; an unknown URI or a tool error is an
    /// invalid-params error with the tool's message.
    static func read(_ uri: String, _ tools: CoachTools) async throws -> ReadResource.Result {
        let (name, arguments): (String, [String: Value]?)
        switch uri {
        case "health://coach/context": (name, arguments) = ("get_coach_context", nil)
        case "health://readiness/today": (name, arguments) = ("get_readiness", nil)
        default:
            let parts = uri.split(separator: "/", omittingEmptySubsequences: false)
            guard uri.hasPrefix("health://days/"), parts.count == 5 else {
                throw MCPError.invalidParams(
                    "no resource \(uri.prefix(80)); there are health://coach/context, health://readiness/today, health://days/{from}/{to}"
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

    static func prompt(_ name: String, _ arguments: [String: String]?) throws -> GetPrompt.Result {
        switch name {
        case "weekly-review":
            let ending = arguments?["week_ending"]
            if let ending, LocalDate(ending) == nil {
                throw MCPError.invalidParams("week_ending must be a date YYYY-MM-DD")
            }
            let week = ending.map { "the seven days ending \($0)" } ?? "the last seven days (ending today)"
            return .init(
                description: "Weekly review of \(week)",
                messages: [
                    .user(
                        .text(
                            text: """
                                Review my week: \(week). Use get_daily_metrics for those days, get_sleep for the same \
                                nights, get_readiness for the last day, and compare_periods against the seven days before. \
                                In five sentences at most: how my activity, sleep and recovery went, one thing that went \
                                well and one to change next week. Use only the numbers the tools give; say when data is missing.
                                """))
                ])
        case "morning-check-in":
            return .init(
                description: "Morning check-in",
                messages: [
                    .user(
                        .text(
                            text: """
                                Good morning. Use get_coach_context and get_readiness for today. Tell me in three sentences \
                                how ready I am today and why (name the contributors that moved the score), and what kind of \
                                training suits today. If something is missing, say so instead of guessing.
                                """))
                ])
        default:
            throw MCPError.invalidParams("no prompt \(name.prefix(60)); there are weekly-review and morning-check-in")
        }
    }
}

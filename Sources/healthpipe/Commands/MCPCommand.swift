import ArgumentParser
import Foundation
import HealthBasics
import HealthDaily
import HealthDashboard
import HealthMCP
import HealthSQLite
import HealthWeather
import Logging
import MCP

struct MCPServe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "An MCP server for AI coaches over standard input and output, on the local store.",
        discussion: """
            Tools: get_coach_context, get_daily_metrics, get_sleep, get_readiness, get_workouts, \
            get_workout_details, get_workout_route, get_training_load, get_trends, compare_periods, \
            correlate_metrics, compare_around_event, list_data_types, query_samples (and log_subjective \
            with --allow-writes), each with the schema of its answer. Resources: health://coach/context, \
            health://readiness/today, health://days/last-7, health://days/{from}/{to}. Prompts: \
            weekly-review, morning-check-in, sleep-deep-dive, training-load-check, doctor-visit-summary, \
            travel-honest-monthly-review. Standard output carries only the protocol; messages go to \
            standard error. `healthpipe mcp bundle` writes a one-click bundle. See docs/mcp.md.
            """,
        subcommands: [MCPBundle.self])

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var zones: ZoneOptions

    @OptionGroup var norm: NormOptions

    func validate() throws { try norm.rejectFormerFlag() }

    @Flag(help: "Offer log_subjective, the one tool that writes (the daily log of energy, mood, stress).")
    var allowWrites = false

    func run() async throws {
        let store = try database.open()
        var settings = zones.configuration()
        settings.version = norm.version
        try await store.withDaysCache(settings) { cache in
            let tools = CoachTools(
                source: CoachSource(
                    store: store.store, appData: store.appData, weather: OpenMeteoClient(configuration: .init()),
                    daily: cache, normalization: settings, allowWrites: allowWrites))
            var logger = Logger(label: "healthpipe.mcp") { StreamLogHandler.standardError(label: $0) }
            logger.logLevel = .warning
            let server = await CoachServer.make(tools)
            printError("healthpipe mcp: serving \(database.path) on stdio\(allowWrites ? " (writes allowed)" : " (read-only)")")
            try await server.start(transport: StdioLineTransport(logger: logger))
            await server.waitUntilCompleted()
        }
    }
}

import Foundation
import HealthCore
import HealthDaily
import HealthTestSupport
import HealthWeather
import MCP
import Testing

@testable import HealthMCP

/// Issue 33 §1: over a store whose data ends a year ago, the tools' default "today" is the
/// last day with data (the answer says so), an empty range says where the data is, and
/// `log_subjective` still logs today.
@Suite struct I33LastDayToolsTests {
    static func tools(now: Date = YearOldStore.now) -> CoachTools {
        let store = InMemoryHealthStore(samples: YearOldStore.samples)
        var settings = DailyNormalizer.Configuration()
        settings.homeZone = YearOldStore.utc
        var source = CoachSource(
            store: store, appData: InMemoryAppData(), weather: OpenMeteoClient(configuration: .init()),
            daily: DailyNormalizer(store: store, configuration: settings, now: { now }), normalization: settings,
            allowWrites: true, now: { now })
        // The whole test suite runs at once on two cores: a part of the context may take longer
        // than the 1.5 s a live request gives it.
        source.providerTimeout = 60
        return CoachTools(source: source)
    }

    func answer(_ tools: CoachTools, _ name: String, _ arguments: [String: Value]) async throws -> ([String: Value], String) {
        let result = await tools.call(name, arguments: arguments)
        let text = result.content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }.joined()
        #expect(result.isError == false, "\(name): \(text)")
        return (try #require(result.structuredContent?.objectValue), text)
    }

    @Test func i33_lastday_toolsWithDefaultArgumentsShowTheLastData() async throws {
        let tools = Self.tools()
        let (readiness, readinessText) = try await answer(tools, "get_readiness", [:])
        let scores = try #require(readiness["scores"]?.arrayValue).compactMap(\.objectValue)
        #expect(scores.map { $0["date"]?.stringValue } == ["2024-12-30"])
        #expect(readiness["latest_data"]?.stringValue == "2024-12-30")
        #expect(readinessText.hasSuffix(" Latest data 2024-12-30; showing that day."), "\(readinessText)")

        let (trend, trendText) = try await answer(tools, "get_trends", ["metric": "steps", "period": 7])
        #expect(trend["to"]?.stringValue == "2024-12-30" && trend["latest_data"]?.stringValue == "2024-12-30")
        #expect(trend["mean"]?.doubleValue == 1100 && trend["days_with_data"]?.intValue == 3)
        #expect(trendText.hasSuffix(" Latest data 2024-12-30; showing the 7 days to it."), "\(trendText)")

        let (context, contextText) = try await answer(tools, "get_coach_context", [:])
        #expect(context["date"]?.stringValue == "2024-12-30" && context["step_count_today"]?.intValue == 1200, "\(context)")
        #expect(contextText.hasSuffix(" Latest data 2024-12-30; the snapshot is as of its newest sample."))

        // Logging how the person feels is about today, whatever the data.
        let (logged, _) = try await answer(tools, "log_subjective", ["energy": 3])
        #expect(logged["date"]?.stringValue == "2025-12-31")
    }

    @Test func i33_lastday_anEmptyRangeSaysWhereTheDataIs() async throws {
        let tools = Self.tools()
        let (_, text) = try await answer(tools, "get_daily_metrics", ["from": "2025-12-01", "to": "2025-12-31"])
        #expect(text.hasSuffix(" No data from 2025-12-01 to 2025-12-31; the data runs from 2024-12-28 to 2024-12-30."), "\(text)")
        let (_, sleep) = try await answer(tools, "get_sleep", ["from": "2025-12-25", "to": "2025-12-31"])
        #expect(sleep.hasSuffix(" No data from 2025-12-25 to 2025-12-31; the data runs from 2024-12-28 to 2024-12-30."))
        // A range that reaches the data says nothing of the kind.
        let (_, within) = try await answer(tools, "get_daily_metrics", ["from": "2024-12-24", "to": "2024-12-30"])
        #expect(!within.contains("No data"))
    }

    @Test func i33_lastday_aStoreWithTodaysDataAnswersForToday() async throws {
        let tools = Self.tools(now: YearOldStore.lastDay.instant(hour: 20, in: YearOldStore.utc))
        let (readiness, text) = try await answer(tools, "get_readiness", [:])
        let scores = try #require(readiness["scores"]?.arrayValue).compactMap(\.objectValue)
        #expect(scores.map { $0["date"]?.stringValue } == ["2024-12-30"])
        #expect(readiness["latest_data"] == nil && !text.contains("Latest data"))
    }
}

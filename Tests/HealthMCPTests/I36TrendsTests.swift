import Foundation
import HealthCore
import HealthMetrics
import MCP
import Testing

@testable import HealthMCP

/// Issue 36 §4: `get_trends` by week and calendar month with totals for counted metrics, the
/// days lived in another zone listed and, when asked, left out; the body weight's trend.
@Suite struct I36TrendsTests {
    /// 90 days to 2024-06-10 of 1,000 steps in Paris, but 4,000 on 1–3 June in Tokyo.
    static var days: [NormalizedDailyMetrics] {
        let end = LocalDate("2024-06-10")!
        return (0..<90).map { back in
            let date = end.adding(days: -back)
            let travel = (1...3).contains(date.dayNumber - LocalDate("2024-05-31")!.dayNumber)
            var day = I36AnalysisToolsTests.day(date, steps: travel ? 4000 : 1000)
            day.timezoneIdentifier = travel ? "Asia/Tokyo" : "Europe/Paris"
            return day
        }
    }

    func answer(_ arguments: [String: Value], samples: [Sample] = []) async throws -> ([String: Value], String) {
        let result = await I36AnalysisToolsTests.tools(Self.days, samples: samples).call("get_trends", arguments: arguments)
        let text = result.content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }.joined()
        #expect(result.isError == false, "\(text)")
        return (try #require(result.structuredContent?.objectValue), text)
    }

    @Test func i36_trendsGiveMonthsAndTotalsAndListTheTravelDays() async throws {
        let (trend, text) = try await answer(["metric": "steps", "period": 30, "date": "2024-06-10"])
        // (27 × 1,000 + 3 × 4,000) / 30 against 1,000 in the 60 days before.
        #expect(trend["mean"]?.doubleValue == 1300 && trend["total"]?.doubleValue == 39_000)
        #expect(trend["change"]?.doubleValue == 300 && trend["change_percent"]?.doubleValue == 30)
        #expect(trend["usual_timezone"]?.stringValue == "Europe/Paris")
        #expect(trend["travel_days"]?.arrayValue == ["2024-06-01", "2024-06-02", "2024-06-03"])
        #expect(trend["travel_days_excluded"]?.boolValue == false)
        let months = try #require(trend["months"]?.arrayValue).compactMap(\.objectValue)
        #expect(months.map { $0["from"]?.stringValue } == ["2024-05-12", "2024-06-01"])
        #expect(months.map { $0["to"]?.stringValue } == ["2024-05-31", "2024-06-10"])
        #expect(months.map { $0["total"]?.doubleValue } == [20_000, 19_000])
        #expect(months.map { $0["mean"]?.doubleValue } == [1000, 1900])
        #expect(months.map { $0["days_with_data"]?.intValue } == [20, 10])
        let weeks = try #require(trend["weeks"]?.arrayValue).compactMap(\.objectValue)
        #expect(weeks.count == 5 && weeks.first?["total"]?.doubleValue == 7000 && weeks.last?["total"]?.doubleValue == 2000)
        #expect(text.contains("3 of the days were in another zone than Europe/Paris; exclude_travel_days=true leaves them out."))
    }

    @Test func i36_excludeTravelDaysLeavesThemOut() async throws {
        let (trend, text) = try await answer(
            ["metric": "steps", "period": 30, "date": "2024-06-10", "exclude_travel_days": true])
        #expect(trend["mean"]?.doubleValue == 1000 && trend["days_with_data"]?.intValue == 27)
        #expect(trend["total"]?.doubleValue == 27_000 && trend["change"]?.doubleValue == 0)
        #expect(trend["travel_days_excluded"]?.boolValue == true)
        let months = try #require(trend["months"]?.arrayValue).compactMap(\.objectValue)
        #expect(months.map { $0["days_with_data"]?.intValue } == [20, 7])
        #expect(text.contains("are left out"))
    }

    /// Two weighings on 5 June (70 and 71 kg), 70,500 g on 8 June, 72 kg on 1 May (the baseline).
    @Test func i36_weightIsTheDaysMeanInKilograms() async throws {
        let scale = Source(name: "Smart scale")
        func weighing(_ instant: String, _ value: Double, _ unit: String) -> Sample {
            let start = ISO8601DateFormatter().date(from: instant)!
            return Sample(type: .bodyMass, start: start, end: start, value: .quantity(value, unit: unit), source: scale)
        }
        let samples = [
            weighing("2024-06-05T08:00:00Z", 70, "kg"), weighing("2024-06-05T20:00:00Z", 71, "kg"),
            weighing("2024-06-08T07:00:00Z", 70_500, "g"), weighing("2024-05-01T07:00:00Z", 72, "kg"),
        ]
        let (trend, _) = try await answer(["metric": "weight", "period": 30, "date": "2024-06-10"], samples: samples)
        #expect(trend["unit"]?.stringValue == "kg" && trend["mean"]?.doubleValue == 70.5)
        #expect(trend["days_with_data"]?.intValue == 2 && trend["total"] == .null)
        let baseline = try #require(trend["baseline"]?.objectValue)
        #expect(baseline["mean"]?.doubleValue == 72 && baseline["days_with_data"]?.intValue == 1)
        #expect(trend["change"]?.doubleValue == -1.5)
        let withheld = await I36AnalysisToolsTests.tools(Self.days, samples: samples, withheld: [.body])
            .call("get_trends", arguments: ["metric": "weight", "period": 30, "date": "2024-06-10"])
        #expect(withheld.isError == true)
        #expect(CoachTools.kindsNeeded(tool: "get_trends", metric: "weight", type: nil) == [.body])
    }

    /// Days before the data have no zone of their own (the fallback, UTC here): they neither
    /// decide the usual zone nor count as travel, though they outnumber the days with data.
    @Test func i36_daysWithoutDataAreNeverTravelDays() async throws {
        let end = LocalDate("2024-06-10")!
        let days = (0..<90).map { back -> NormalizedDailyMetrics in
            let date = end.adding(days: -back)
            guard back < 20 else {
                var empty = I36AnalysisToolsTests.day(date)
                empty.timezoneIdentifier = "UTC"
                return empty
            }
            var day = I36AnalysisToolsTests.day(date, steps: back < 3 ? 4000 : 1000)
            day.timezoneIdentifier = back < 3 ? "Asia/Tokyo" : "Europe/Paris"
            return day
        }
        let result = await I36AnalysisToolsTests.tools(days).call(
            "get_trends", arguments: ["metric": "steps", "period": 90, "date": "2024-06-10", "exclude_travel_days": true])
        let trend = try #require(result.structuredContent?.objectValue)
        #expect(trend["usual_timezone"]?.stringValue == "Europe/Paris")
        #expect(trend["travel_days"]?.arrayValue == ["2024-06-08", "2024-06-09", "2024-06-10"])
        #expect(trend["mean"]?.doubleValue == 1000 && trend["days_with_data"]?.intValue == 17)
        // A week without data has no total: null, never 0.
        let weeks = try #require(trend["weeks"]?.arrayValue).compactMap(\.objectValue)
        #expect(weeks.first?["days_with_data"]?.intValue == 0 && weeks.first?["total"] == .null)
        let coverage = try #require(trend["coverage"]?.objectValue)
        #expect(coverage["other_timezone_days"]?.arrayValue == ["2024-06-08", "2024-06-09", "2024-06-10"])
        let unknown = await I36AnalysisToolsTests.tools(days).call("get_trends", arguments: ["metric": "mood", "period": 7])
        let text = unknown.content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }.joined()
        #expect(unknown.isError == true && text.contains("hrv, weight"), "\(text)")
    }
}

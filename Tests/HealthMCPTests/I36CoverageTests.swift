import Foundation
import HealthCore
import HealthMetrics
import MCP
import Testing

@testable import HealthMCP

/// Issue 36 §3: every day-based answer says how complete its days are — the days without a
/// value of each metric, the devices behind the steps and the nights, the days in another
/// zone, and the kinds withheld — on days with gaps, a trip and a withheld kind.
@Suite struct I36CoverageTests {
    /// 1–10 July 2024 in London, 5–6 July in New York; steps but on the 3rd, 4th and 8th (the
    /// 9th from the iPhone, the others from the Watch); nights measured by the Watch on the
    /// 1st–5th and by a ring on the 6th–7th; HRV every day (withheld from the reader).
    static var days: [NormalizedDailyMetrics] {
        (1...10).map { number in
            let date = LocalDate(year: 2024, month: 7, day: number)
            let hasSteps = ![3, 4, 8].contains(number)
            var day = I36AnalysisToolsTests.day(date, steps: hasSteps ? 5000 + number : nil, hrv: 50)
            day.timezoneIdentifier = (5...6).contains(number) ? "America/New_York" : "Europe/London"
            if hasSteps {
                day.stepsSources = StepsSourcesMetadata(
                    primarySource: number == 9 ? "iphone" : "apple_watch", secondarySourcesUsed: [], ignoredSources: [],
                    suspiciousSteps: false, rawSampleCount: 10)
            }
            if number <= 7 {
                day.sleepHours = 7
                day.sleepSource = SleepSourceMetadata(basis: number <= 5 ? .watchStages : .trackerStages, inBedHours: 8)
            }
            return day
        }
    }

    static func coverage(
        _ tool: String, _ arguments: [String: Value], at path: [String] = ["coverage"],
        withheld: Set<HealthDataCategory> = [.heart]
    ) async throws -> [String: Value] {
        let result = await I36AnalysisToolsTests.tools(days, withheld: withheld).call(tool, arguments: arguments)
        #expect(result.isError == false)
        var value = try #require(result.structuredContent)
        for key in path { value = try #require(value.objectValue?[key]) }
        return try #require(value.objectValue)
    }

    @Test func i36_theCoverageOfDaysWithGapsATripAndAWithheldKind() async throws {
        let coverage = try await Self.coverage("get_daily_metrics", ["from": "2024-07-01", "to": "2024-07-10"])
        #expect(coverage["days"]?.intValue == 10 && coverage["from"]?.stringValue == "2024-07-01")
        let metrics = try #require(coverage["metrics"]?.arrayValue).compactMap(\.objectValue)
        // Heart withheld: no resting heart rate or HRV rows at all, and heart said withheld.
        #expect(metrics.map { $0["metric"]?.stringValue } == ["steps", "active_energy", "sleep_hours"])
        #expect(coverage["withheld"]?.arrayValue == ["heart"])
        let steps = metrics[0]
        #expect(steps["days_with_data"]?.intValue == 7)
        #expect(
            steps["missing"]?.arrayValue == [
                .object(["from": "2024-07-03", "to": "2024-07-04"]), .object(["from": "2024-07-08", "to": "2024-07-08"]),
            ])
        #expect(metrics[1]["days_with_data"]?.intValue == 0 && metrics[1]["missing"]?.arrayValue?.count == 1)
        #expect(metrics[2]["missing"]?.arrayValue == [.object(["from": "2024-07-08", "to": "2024-07-10"])])
        let sources = try #require(coverage["sources"]?.objectValue)
        #expect(sources["steps"] == .object(["apple_watch": 6, "iphone": 1, "other": 0]))
        #expect(
            sources["sleep"] == .object(["watch_stages": 5, "tracker_stages": 2, "asleep_unspecified": 0, "in_bed_only": 0]))
        #expect(coverage["usual_timezone"]?.stringValue == "Europe/London")
        #expect(coverage["other_timezone_days"]?.arrayValue == ["2024-07-05", "2024-07-06"])
        #expect(coverage["other_timezone_days_not_shown"]?.intValue == 0)
    }

    /// The same coverage in the other day-based answers, each of its own days.
    @Test func i36_everyDayBasedAnswerHasItsCoverage() async throws {
        let trend = try await Self.coverage("get_trends", ["metric": "steps", "period": 7, "date": "2024-07-10"])
        #expect(trend["from"]?.stringValue == "2024-07-04" && trend["days"]?.intValue == 7)
        let a = try await Self.coverage(
            "compare_periods",
            ["a_from": "2024-07-01", "a_to": "2024-07-05", "b_from": "2024-07-06", "b_to": "2024-07-10"],
            at: ["coverage", "a"])
        #expect(a["other_timezone_days"]?.arrayValue == ["2024-07-05"] && a["usual_timezone"]?.stringValue == "Europe/London")
        let around = try await Self.coverage("compare_around_event", ["date": "2024-07-05", "days": 3])
        #expect(around["from"]?.stringValue == "2024-07-02" && around["to"]?.stringValue == "2024-07-08")
        // Readiness needs every kind: the history behind the score, nothing withheld.
        let readiness = try await Self.coverage("get_readiness", ["date": "2024-07-10"], withheld: [])
        #expect(readiness["to"]?.stringValue == "2024-07-10" && readiness["withheld"]?.arrayValue == [])
        let rows = try #require(readiness["metrics"]?.arrayValue).compactMap(\.objectValue)
        #expect(rows.first { $0["metric"] == "hrv" }?["days_with_data"]?.intValue == 10)
    }
}

import Foundation
import HealthCore
import HealthDaily
import HealthMetrics
import HealthTestSupport
import HealthWeather
import MCP
import Testing

@testable import HealthMCP

/// Issue 36 §4: `correlate_metrics` against scipy's figures for the same days (pinned below,
/// from `scipy.stats.pearsonr` and `spearmanr`), and `compare_around_event` against a hand
/// computation.
@Suite struct I36AnalysisToolsTests {
    /// Days given as they are: the tools read them, not the samples.
    struct GivenDays: DailyMetricsSource {
        let days: [String: NormalizedDailyMetrics]

        func metrics(from first: LocalDate, through last: LocalDate) async throws -> [NormalizedDailyMetrics] {
            (first.dayNumber...last.dayNumber).map { number in
                let date = LocalDate(dayNumber: number)
                return days[date.description]
                    ?? NormalizedDailyMetrics(
                        localDate: date.description, timezoneIdentifier: "UTC", utcDayStart: date.instant(hour: 0, in: .gmt),
                        utcDayEnd: date.adding(days: 1).instant(hour: 0, in: .gmt), normalizationVersion: "norm_v1",
                        createdAt: Date(timeIntervalSince1970: 0))
            }
        }
    }

    static func day(_ date: LocalDate, steps: Int? = nil, sleep: Double? = nil, hrv: Double? = nil) -> NormalizedDailyMetrics {
        NormalizedDailyMetrics(
            localDate: date.description, timezoneIdentifier: "UTC", utcDayStart: date.instant(hour: 0, in: .gmt),
            utcDayEnd: date.adding(days: 1).instant(hour: 0, in: .gmt), stepsNormalized: steps, sleepHours: sleep, hrvMs: hrv,
            normalizationVersion: "norm_v1", createdAt: Date(timeIntervalSince1970: 0))
    }

    static func tools(
        _ days: [NormalizedDailyMetrics], samples: [Sample] = [], withheld: Set<HealthDataCategory> = []
    ) -> CoachTools {
        let store = InMemoryHealthStore(samples: samples)
        var settings = DailyNormalizer.Configuration()
        settings.homeZone = .gmt
        let now = Date(timeIntervalSince1970: 1_735_000_000)
        return CoachTools(
            source: CoachSource(
                store: store, appData: InMemoryAppData(), weather: OpenMeteoClient(configuration: .init()),
                daily: GivenDays(days: Dictionary(uniqueKeysWithValues: days.map { ($0.localDate, $0) })),
                normalization: settings, withheld: withheld, now: { now }))
    }

    static let steps = [
        8000, 9500, 7200, 12000, 6500, 8000, 10100, 5400, 9900, 11000, 7600, 8000, 13200, 4800, 9100, 10400, 7700, 8800,
        12500, 6900,
    ]
    static let sleep: [Double?] = [
        7.5, 6.0, 8.1, nil, 7.0, 6.5, 7.5, 8.4, nil, 6.2, 7.9, 7.5, 5.8, 8.8, 6.9, 7.2, 7.0, 6.4, 8.0, 7.7,
    ]
    static let may = LocalDate("2024-05-01")!
    static var twentyDays: [NormalizedDailyMetrics] {
        (0..<20).map { day(may.adding(days: $0), steps: steps[$0], sleep: sleep[$0]) }
    }

    func answer(_ tools: CoachTools, _ name: String, _ arguments: [String: Value]) async throws -> ([String: Value], String) {
        let result = await tools.call(name, arguments: arguments)
        let text = result.content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }.joined()
        #expect(result.isError == false, "\(name): \(text)")
        return (try #require(result.structuredContent?.objectValue), text)
    }

    @Test func i36_ranksShareTiesAsScipyDoes() {
        #expect(Correlation.ranks([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]) == [4.5, 1.5, 6, 1.5, 8, 11, 3, 10, 8, 4.5, 8])
    }

    @Test(arguments: [
        (0, "2024-05-20", 18, -0.5814269935374028, -0.5940902820058046),
        (1, "2024-05-19", 17, 0.5099748914567988, 0.5129155171541412),
    ])
    func i36_correlateMetricsEqualsScipy(lag: Int, to: String, pairs: Int, pearson: Double, spearman: Double) async throws {
        let tools = Self.tools(Self.twentyDays)
        let (answer, text) = try await answer(
            tools, "correlate_metrics",
            ["metric_a": "steps", "metric_b": "sleep_hours", "from": "2024-05-01", "to": .string(to), "lag": .int(lag)])
        #expect(answer["pairs"]?.intValue == pairs)
        #expect(abs(try #require(answer["pearson"]?.doubleValue) - pearson) < 1e-12)
        #expect(abs(try #require(answer["spearman"]?.doubleValue) - spearman) < 1e-12)
        #expect(answer["pearson_strength"]?.stringValue == (lag == 0 ? "strong negative" : "strong positive"))
        #expect(answer["lag_days"]?.intValue == lag && answer["unit_b"]?.stringValue == "h")
        #expect(text.contains("Correlation is not cause."))
    }

    @Test func i36_correlateMetricsRefusesFewerThanFourteenPairs() async throws {
        let tools = Self.tools(Self.twentyDays)
        let result = await tools.call(
            "correlate_metrics",
            arguments: ["metric_a": "steps", "metric_b": "sleep_hours", "from": "2024-05-01", "to": "2024-05-15"])
        #expect(result.isError == true)
        let text = result.content.compactMap { if case .text(let text, _, _) = $0 { text } else { nil } }.joined()
        // 15 days, two without sleep: 13 pairs.
        #expect(text.contains("only 13 days from 2024-05-01 to 2024-05-15 have steps and sleep_hours"), "\(text)")
        let withheld = await Self.tools(Self.twentyDays, withheld: [.sleep]).call(
            "correlate_metrics", arguments: ["metric_a": "steps", "metric_b": "sleep_hours", "to": "2024-05-20"])
        #expect(withheld.isError == true)
        let lagged = await tools.call("correlate_metrics", arguments: ["metric_a": "steps", "metric_b": "hrv", "lag": 4])
        #expect(lagged.isError == true)
    }

    /// HRV: the 60 days before alternate 48 and 52 ms (mean 50, sample SD √(240/59) =
    /// 2.016877936358443), the 14 after are 45: −5 ms, −2.479079130107253 SD. The event day
    /// (100 ms) is in neither side. Steps: 10,000 every day before (SD 0: no SD figure), two
    /// days after (too few for a mean). Sleep withheld; resting heart rate never measured.
    @Test func i36_compareAroundEventEqualsAHandComputation() async throws {
        let event = LocalDate("2024-06-15")!
        var days: [NormalizedDailyMetrics] = []
        for offset in -60...(-1) {
            days.append(Self.day(event.adding(days: offset), steps: 10_000, sleep: 7, hrv: offset % 2 == 0 ? 48 : 52))
        }
        days.append(Self.day(event, steps: 30_000, sleep: 3, hrv: 100))
        for offset in 1...14 {
            days.append(Self.day(event.adding(days: offset), steps: offset <= 2 ? 12_000 : nil, sleep: 9, hrv: 45))
        }
        let (answer, text) = try await answer(
            Self.tools(days, withheld: [.sleep]), "compare_around_event", ["date": "2024-06-15"])
        #expect(answer["withheld"]?.arrayValue == [.string("sleep_hours")])
        #expect(answer["before"]?.objectValue?["from"]?.stringValue == "2024-06-01")
        #expect(answer["after"]?.objectValue?["to"]?.stringValue == "2024-06-29")
        let rows = try #require(answer["metrics"]?.arrayValue).compactMap(\.objectValue)
        #expect(rows.map { $0["metric"]?.stringValue } == ["hrv", "resting_hr", "steps"])
        let hrv = rows[0]
        #expect(hrv["before_mean"]?.doubleValue == 50 && hrv["after_mean"]?.doubleValue == 45)
        #expect(hrv["difference"]?.doubleValue == -5 && hrv["before_days"]?.intValue == 14 && hrv["after_days"]?.intValue == 14)
        #expect(abs(try #require(hrv["baseline_sd"]?.doubleValue) - 2.016877936358443) < 1e-12)
        #expect(abs(try #require(hrv["difference_in_sd"]?.doubleValue) - -2.479079130107253) < 1e-12)
        #expect(hrv["baseline_days"]?.intValue == 60)
        let resting = rows[1]
        #expect(resting["before_days"]?.intValue == 0 && resting["before_mean"] == .null && resting["difference"] == .null)
        let steps = rows[2]
        #expect(steps["before_mean"]?.doubleValue == 10_000 && steps["after_days"]?.intValue == 2)
        #expect(steps["after_mean"] == .null && steps["difference_in_sd"] == .null && steps["baseline_sd"]?.doubleValue == 0)
        #expect(text.contains("hrv 50.0 → 45.0 ms (-2.5 SD)"), "\(text)")
    }
}

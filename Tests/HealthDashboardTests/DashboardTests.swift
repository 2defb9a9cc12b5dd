import Foundation
import HealthCore
import HealthDaily
import HealthImport
import HealthMetrics
import HealthReadiness
import HealthSQLite
import HealthSynth
import HealthTestSupport
import Testing

@testable import HealthDashboard

/// A generated 90 days (Watch + iPhone, naps, a trip abroad, weighings, workouts) imported
/// once per test process.
enum GeneratedStore {
    static let shared = Task { () throws -> HealthDatabase in
        try await GeneratedStores.imported(days: 90, seed: 5, start: "2024-01-01", heartRatePerHour: 2)
    }

    static let today = LocalDate("2024-03-29")!

    static func settings(range: Int = 30) -> DashboardAssembler.Settings {
        var settings = DashboardAssembler.Settings()
        settings.normalization.homeZone = TimeZone(identifier: "America/Los_Angeles")!
        settings.rangeDays = range
        return settings
    }
}

/// The cells of the data table of chart `id`: date → the cells after it.
func tableRows(_ html: String, chart id: String) throws -> [String: [String]] {
    let start = try #require(html.range(of: "id=\"chart-\(id)\""))
    let end = try #require(html.range(of: "</figure>", range: start.upperBound..<html.endIndex))
    let figure = html[start.upperBound..<end.lowerBound]
    var rows: [String: [String]] = [:]
    for row in figure.components(separatedBy: "<tr>").dropFirst() {
        guard row.contains("<th scope=\"row\">") else { continue }
        let cells = row.components(separatedBy: "</t").compactMap { part -> String? in
            guard let open = part.range(of: ">", options: .backwards) else { return nil }
            return String(part[open.upperBound...])
        }.filter { !$0.isEmpty && $0 != "r>" }
        let date = try #require(cells.first)
        rows[date] = Array(cells.dropFirst())
    }
    return rows
}

/// A value as the CLI's tables print it without decimals (`%.0f`: halves to even).
func printed(_ value: Double) -> Double { Double(String(format: "%.0f", value))! }

/// `12 345` (thin space) or `—` as a number.
func number(_ cell: String) -> Double? {
    Double(cell.replacingOccurrences(of: "\u{2009}", with: "").replacingOccurrences(of: "−", with: "-"))
}

@Suite struct DashboardTests {
    @Test func thePageShowsTheNumbersOfDaysSleepAndReadiness() async throws {
        let database = try await GeneratedStore.shared.value
        let settings = GeneratedStore.settings()
        let today = GeneratedStore.today
        let data = try await DashboardAssembler(store: database.store, settings: settings, now: { Date() })
            .assemble(today: today)
        let html = DashboardPage(data: data).html()

        // `healthpipe days` for the same 30 days.
        let normalizer = DailyNormalizer(store: database.store, configuration: settings.normalization, now: { Date() })
        let days = try await normalizer.metrics(from: today.adding(days: -29), through: today)
        func stripped(_ days: [NormalizedDailyMetrics]) -> [NormalizedDailyMetrics] {
            days.map { day in
                var day = day
                day.createdAt = Date(timeIntervalSince1970: 0)
                return day
            }
        }
        #expect(stripped(data.days) == stripped(days))
        let steps = try tableRows(html, chart: "steps")
        let energy = try tableRows(html, chart: "energy")
        let restingHR = try tableRows(html, chart: "resting-hr")
        #expect(steps.count == 30 && energy.count == 30)
        for day in days {
            #expect(steps[day.localDate].flatMap { number($0[0]) } == day.stepsNormalized.map(Double.init))
            #expect(energy[day.localDate].flatMap { number($0[0]) } == day.activeEnergyKcal.map(printed))
            #expect(restingHR[day.localDate].flatMap { number($0[0]) } == day.restingHRBpm.map(printed))
        }
        #expect(days.filter { $0.stepsNormalized != nil }.count >= 28)

        // `healthpipe sleep`: minutes per stage, night by night.
        let nights = try await SleepAnalyzer(store: database.store, configuration: settings.normalization)
            .nights(from: today.adding(days: -29), through: today)
        let stages = try tableRows(html, chart: "sleep-stages")
        #expect(nights.filter { $0.main != nil }.count >= 25)
        for night in nights {
            // A night without sleep, or a stage its source could not have recorded: —, not 0.
            let expected = [SleepStage.deep, .core, .rem, .unspecified, .awake].map { stage in
                night.main?.stageMinutes(stage).map(printed) ?? -1
            }
            #expect(stages[night.localDate]?.map { number($0) ?? -1 } == expected)
        }
        #expect(nights.contains { $0.main == nil } == stages.values.contains { $0.allSatisfy { $0 == "—" } })

        // `healthpipe readiness`: today's score from the 60 days before.
        let history = try await normalizer.metrics(from: today.adding(days: -ReadinessEngine.historyDays), through: today)
        let score = try ReadinessEngine().score(on: today.description, history: history)
        let value = try #require(score.score)
        #expect(data.readiness?.score == value)
        #expect(html.contains("<span class=\"big\">\(value)</span>"))
        // With how sure it is (a score of 100 on a bedtime schedule alone said nothing of its
        // confidence of 0, found by a probe).
        #expect(html.contains("confidence \(Int((score.confidence * 100).rounded())) %"), "\(score.confidence)")
    }

    @Test func everyPanelAndChartIsThereAndNothingReadsNaN() async throws {
        let database = try await GeneratedStore.shared.value
        // One days cache for the four ranges, the longest first: each day is computed once.
        let cache = DailyMetricsCache(
            normalizer: DailyNormalizer(
                store: database.store, configuration: GeneratedStore.settings().normalization, now: { Date() }))
        for range in DashboardAssembler.Settings.ranges.reversed() {
            let data = try await DashboardAssembler(
                store: database.store, settings: GeneratedStore.settings(range: range), now: { Date() }, daily: cache
            ).assemble(today: GeneratedStore.today)
            let html = DashboardPage(data: data).html()
            for panel in DashboardPanel.allCases { #expect(html.contains("id=\"\(panel.elementID)\"")) }
            // Rings; steps, energy, resting HR, HRV, weight; sleep stages and consistency.
            let hasWeight = data.weights.contains { $0 != nil }
            #expect(html.components(separatedBy: "<figure class=\"chart\"").count - 1 == (hasWeight ? 8 : 7))
            #expect(data.days.count == range)
            Self.expectNoJunk(html)
            #expect(!data.workouts.isEmpty)
            // Each generated workout has a route: drawn, thinned to at most 400 points.
            #expect(data.workouts.allSatisfy { (2...400).contains($0.route.count) })
            #expect(html.components(separatedBy: "<svg class=\"route\"").count - 1 == data.workouts.count)
            #expect(html.components(separatedBy: "<li class=\"workout\">").count - 1 == data.workouts.count)
        }
    }

    @Test func theRingsGoalsComeFromTheDaysActivitySummary() async throws {
        let database = try await GeneratedStore.shared.value
        let summary = try #require(try await database.store.activitySummary(on: GeneratedStore.today.description))
        let data = try await DashboardAssembler(store: database.store, settings: GeneratedStore.settings(), now: { Date() })
            .assemble(today: GeneratedStore.today)
        // The generator writes goals of 500 Cal (kcal), 30 min and 12 h.
        #expect(summary.activeEnergyBurnedGoal == 500 && summary.activeEnergyBurnedUnit == "Cal")
        #expect(data.rings.moveGoalKcal == 500)
        #expect(data.rings.exerciseGoalMinutes == summary.appleExerciseTimeGoal)
        #expect(data.rings.standGoalHours == summary.appleStandHoursGoal)
        #expect(data.rings.moveKcal == data.todayMetrics?.activeEnergyKcal)
        #expect(try await database.store.activitySummary(on: "1999-01-01") == nil)
    }

    @Test func theCacheAnswersAsTheNormalizerAndForgetsOnClear() async throws {
        let store = InMemoryHealthStore()
        let day = DateInterval(start: ISO8601DateFormatter().date(from: "2024-03-02T12:00:00Z")!, duration: 600)
        func steps(_ count: Double, minute: Double) -> Sample {
            Sample(
                type: .stepCount, start: day.start.addingTimeInterval(minute * 60),
                end: day.start.addingTimeInterval(minute * 60 + 300), value: .quantity(count, unit: "count"),
                source: Source(name: "Watch"),
                device: Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardware: "Watch6,1"))
        }
        try await store.add([steps(100, minute: 0)])
        var configuration = DailyNormalizer.Configuration()
        configuration.homeZone = TimeZone(identifier: "UTC")!
        let normalizer = DailyNormalizer(store: store, configuration: configuration, now: { Date() })
        let cache = DailyMetricsCache(normalizer: normalizer)
        let first = LocalDate("2024-03-01")!
        let last = LocalDate("2024-03-03")!
        #expect(try await cache.metrics(from: first, through: last).map(\.stepsNormalized) == [nil, 100, nil])
        // A wider range around the cached days computes only the new ones, and agrees.
        let wide = try await cache.metrics(from: first.adding(days: -2), through: last.adding(days: 2))
        let direct = try await normalizer.metrics(from: first.adding(days: -2), through: last.adding(days: 2))
        #expect(wide.map(\.stepsNormalized) == direct.map(\.stepsNormalized) && wide.count == 7)
        try await store.add([steps(50, minute: 10)])
        #expect(try await cache.metrics(from: first, through: last).map(\.stepsNormalized) == [nil, 100, nil])
        await cache.clear()
        #expect(try await cache.metrics(from: first, through: last).map(\.stepsNormalized) == [nil, 150, nil])
    }

    @Test func anEmptyStoreShowsPlaceholdersNotZeros() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dashboard-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = try HealthDatabase(path: folder.appendingPathComponent("health.sqlite").path)
        let data = try await DashboardAssembler(store: database.store, settings: GeneratedStore.settings(), now: { Date() })
            .assemble(today: GeneratedStore.today)
        let html = DashboardPage(data: data).html()
        for panel in DashboardPanel.allCases { #expect(html.contains("id=\"\(panel.elementID)\"")) }
        #expect(html.contains("Nothing recorded today yet."))
        #expect(html.contains("No daily metrics in these 30 days."))
        #expect(html.contains("No sleep recorded in these days."))
        #expect(html.contains("No workouts in the last 90 days."))
        #expect(html.components(separatedBy: "<figure class=\"chart\"").count - 1 == 1)  // the rings, empty
        Self.expectNoJunk(html)
    }

    @Test func aDeniedPanelShowsTheDeniedViewAndNoneOfItsData() async throws {
        let database = try await GeneratedStore.shared.value
        var settings = GeneratedStore.settings()
        settings.withheld = [.sleep]
        let data = try await DashboardAssembler(store: database.store, settings: settings, now: { Date() })
            .assemble(today: GeneratedStore.today)
        #expect(data.nights.isEmpty && data.readiness == nil)
        let html = DashboardPage(data: data, consentPath: "/consent").html()
        #expect(html.components(separatedBy: "You have not allowed this page").count - 1 == 2)
        #expect(html.contains("href=\"/consent\""))
        #expect(!html.contains("chart-sleep-stages"))
        #expect(html.contains("chart-steps"))
        #expect(data.days.allSatisfy { $0.sleepHours == nil } && data.days.contains { $0.stepsNormalized != nil })
    }

    @Test func trendsDrawOnlyTheChartsOfGrantedData() async throws {
        let database = try await GeneratedStore.shared.value
        var settings = GeneratedStore.settings()
        settings.withheld = [.heart, .body]
        let data = try await DashboardAssembler(store: database.store, settings: settings, now: { Date() })
            .assemble(today: GeneratedStore.today)
        #expect(data.denied == [.readiness])
        #expect(data.weights.isEmpty && data.days.allSatisfy { $0.restingHRBpm == nil && $0.hrvMs == nil })
        let html = DashboardPage(data: data, consentPath: "/consent").html()
        #expect(html.contains("chart-steps") && html.contains("chart-energy") && html.contains("chart-sleep-stages"))
        #expect(!html.contains("chart-resting-hr") && !html.contains("chart-hrv") && !html.contains("chart-weight"))
        // Readiness's view names heart; the trends panel names heart and body measurements.
        #expect(html.contains("use your <strong>heart</strong> data"))
        #expect(html.contains("use your <strong>heart</strong> and <strong>body measurements</strong> data"))
    }

    /// Issue 33 §6: a day with only resting HR or only HRV is a day with data.
    @Test func i33_edges_aDayWithRestingHROrHRVHasData() {
        func day(_ date: String, restingHR: Double? = nil, hrv: Double? = nil) -> NormalizedDailyMetrics {
            NormalizedDailyMetrics(
                localDate: date, timezoneIdentifier: "UTC", utcDayStart: Date(timeIntervalSince1970: 0),
                utcDayEnd: Date(timeIntervalSince1970: 86400), restingHRBpm: restingHR, hrvMs: hrv,
                normalizationVersion: "norm_v1", createdAt: Date(timeIntervalSince1970: 0))
        }
        let data = DashboardData(
            today: "2024-01-03", zone: "UTC", rangeDays: 7,
            days: [day("2024-01-01", restingHR: 52), day("2024-01-02", hrv: 48.5), day("2024-01-03")], nights: [],
            readiness: nil, weights: [], workouts: [],
            rings: ActivityRings(
                moveKcal: nil, moveGoalKcal: 500, exerciseMinutes: nil, exerciseGoalMinutes: 30, standHours: nil,
                standGoalHours: 12))
        let html = DashboardPage(data: data).html()
        #expect(html.contains("<dt>Days with no data</dt><dd>1 of 3</dd>"))
    }

    @Test func textFromTheStoreIsEscaped() {
        let workout = WorkoutSummary(
            activity: "<script>alert(1)</script>", start: Date(timeIntervalSince1970: 0),
            end: Date(timeIntervalSince1970: 1800), energyKcal: 200, distanceKm: nil, averageHeartRate: .nan)
        let data = DashboardData(
            today: "2024-01-01", zone: "Europe/Paris\"><b>", rangeDays: 7, days: [], nights: [], readiness: nil, weights: [],
            workouts: [workout],
            rings: ActivityRings(
                moveKcal: nil, moveGoalKcal: 500, exerciseMinutes: nil, exerciseGoalMinutes: 30, standHours: nil,
                standGoalHours: 12))
        let html = DashboardPage(data: data).html()
        #expect(!html.contains("<script>") && !html.contains("\"><b>"))
        #expect(html.contains("&lt;script&gt;"))
        Self.expectNoJunk(html)
    }

    @Test func numbersAndDurationsFormatExactly() {
        #expect(HTML.number(1_234_567.0, 0) == "1\u{2009}234\u{2009}567")
        #expect(HTML.number(-1234.5, 1) == "−1\u{2009}234.5")
        #expect(HTML.number(Double.nan, 1) == "—" && HTML.number(nil as Double?, 1) == "—")
        #expect(HTML.duration(seconds: 7 * 3600 + 5 * 60) == "7 h 05 min")
        #expect(HTML.duration(seconds: 45 * 60) == "45 min")
        #expect(Smoothing.weightTrend([80, nil, 81, 79]) == [80, 80, 80.1, 79.99])
    }

    static func expectNoJunk(_ html: String) {
        for junk in ["NaN", "nan,", "undefined", ">null<", "inf"] {
            #expect(!html.contains(junk), "the page contains \(junk)")
        }
    }
}

/// Finding M4 (issue 32): `healthpipe dashboard` answered any `Host`, so a page on another
/// site could read it through DNS rebinding. Only loopback names are answered (else 421).
@Suite struct M4LoopbackHostTests {
    @Test func m4_onlyLoopbackHostNamesAreAnswered() {
        for allowed in ["127.0.0.1:8087", "localhost:8087", "LOCALHOST", "[::1]:8087", "127.0.0.1", "127.1.2.3:80"] {
            #expect(LoopbackHost.allows(allowed), "\(allowed)")
        }
        for refused in [
            nil, "", "attacker.example:8087", "127.0.0.1.attacker.example", "localhost.attacker.example", "[::2]:8087",
            "127.0.0.1:80x", "0.0.0.0:8087", "192.168.1.2:8087", "127.0.0.256", "[::1]x", "127.½.0.1", "127.0.0.1:½",
        ] {
            #expect(!LoopbackHost.allows(refused), "\(refused ?? "nil")")
        }
    }
}

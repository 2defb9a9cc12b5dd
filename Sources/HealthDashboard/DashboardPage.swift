import Foundation
import HealthCore
import HealthDaily
import HealthMetrics
import HealthReadiness

/// The dashboard as one HTML document: semantic sections, inline SVG charts each with a
/// text alternative and a data table, styles inline (no script, no font, no fetch), a
/// layout that folds to a phone's width and follows the system's dark mode.
public struct DashboardPage: Sendable {
    public var data: DashboardData
    /// The path the range links point at (`/dashboard` on the server, `/` locally), with
    /// any query it keeps (`/dashboard?date=2024-12-30`).
    public var path: String
    /// Where a denied panel's "review access" link goes; `nil` hides the link.
    public var consentPath: String?
    /// Extra markup for the header's right side (the server's sign-out form).
    public var headerExtra: String
    /// Markup above the panels (the server's re-prompt, ``AccessPages/reprompt(off:consentPath:laterAction:csrf:)``).
    public var banner: String
    /// Where a workout's page is, its id appended (`/dashboard/workouts/` on the server);
    /// `nil`: workouts are not links (a page written to a file).
    public var workoutPath: String?

    public init(
        data: DashboardData, path: String = "/", consentPath: String? = nil, headerExtra: String = "", banner: String = "",
        workoutPath: String? = nil
    ) {
        self.data = data
        self.path = path
        self.consentPath = consentPath
        self.headerExtra = headerExtra
        self.banner = banner
        self.workoutPath = workoutPath
    }

    /// The response headers of every dashboard page (besides `Content-Type`): no script,
    /// no fetch, no framing, nothing cached — the page is private.
    public static let responseHeaders: [(name: String, value: String)] = [
        ("Cache-Control", "no-store"),
        (
            "Content-Security-Policy",
            "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]

    /// The document.
    public func html() -> String {
        let panels: [(DashboardPanel, () -> String)] = [
            (.today, todayPanel), (.readiness, readinessPanel), (.trends, trendsPanel), (.sleep, sleepPanel),
            (.workouts, workoutsPanel), (.quality, qualityPanel),
        ]
        let sections = panels.map { panel, body in
            let content =
                data.denied.contains(panel) ? deniedView(panel.categories.intersection(data.withheld)) : body()
            return """
                <section class="panel panel-\(panel.rawValue)" id="\(panel.elementID)" aria-labelledby="\(panel.elementID)-h">\
                <h2 id="\(panel.elementID)-h">\(panel.title)</h2>\(content)</section>
                """
        }.joined(separator: "\n")
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>Health — \(HTML.escape(data.today))</title>
            <style>\(DashboardStyle.css)</style></head>
            <body><header class="top"><div><h1>Health, \(HTML.escape(longDate(data.today)))</h1>\
            <p class="meta">Days in \(HTML.escape(data.zone)) · Watch and iPhone never counted twice</p>\
            \(latestDataNote())</div>\
            \(rangeNavigation())\(headerExtra)</header>\(banner)
            <main class="grid">
            \(sections)
            </main>
            <footer><p>Numbers from HealthPipeline: the same as <code>healthpipe days</code>, \
            <code>sleep</code> and <code>readiness</code> for these days.</p></footer>
            </body></html>
            """
    }

    // MARK: Panels

    private func todayPanel() -> String {
        let rings = data.rings
        let chart = Charts.rings(
            id: "rings",
            rings: [
                ("Move", rings.moveKcal, rings.moveGoalKcal, "kcal"),
                ("Exercise", rings.exerciseMinutes, rings.exerciseGoalMinutes, "min"),
                ("Stand", rings.standHours, rings.standGoalHours, "h"),
            ])
        guard let day = data.todayMetrics,
            day.stepsNormalized != nil || day.activeEnergyKcal != nil || day.restingHRBpm != nil || day.hrvMs != nil
        else {
            let ringsOnly = [rings.moveKcal, rings.exerciseMinutes, rings.standHours].contains { $0 != nil }
            return chart.html
                + placeholder(
                    ringsOnly ? "No steps, energy or heart figures on this day: its rings only." : "Nothing recorded today yet.")
        }
        let sources = day.stepsSources.map { meta in
            ([meta.primarySource].compactMap { $0 } + meta.secondarySourcesUsed).map(sourceName).joined(separator: " + ")
        }
        return chart.html + """
            <dl class="figures">\
            <div><dt>Steps</dt><dd>\(HTML.number(day.stepsNormalized))</dd></div>\
            <div><dt>Active energy</dt><dd>\(HTML.figure(day.activeEnergyKcal, "kcal"))</dd></div>\
            <div><dt>Exercise</dt><dd>\(HTML.figure(rings.exerciseMinutes, "min"))</dd></div>\
            <div><dt>Stand</dt><dd>\(HTML.figure(rings.standHours, "h"))</dd></div>\
            <div><dt>Resting HR</dt><dd>\(HTML.figure(day.restingHRBpm, "bpm"))</dd></div>\
            <div><dt>HRV</dt><dd>\(HTML.figure(day.hrvMs, "ms"))</dd></div>\
            </dl><p class="note">Steps from \(HTML.escape(sources.flatMap { $0.isEmpty ? nil : $0 } ?? "no source"))\
            \(day.stepsSources?.suspiciousSteps == true ? " — <strong>suspicious</strong> (see Data quality)" : "").</p>
            """
    }

    private func readinessPanel() -> String {
        guard let score = data.readiness else { return placeholder("Readiness needs daily metrics.") }
        guard let value = score.score, let band = score.band else {
            return placeholder(score.reason.isEmpty ? "Not enough days to score readiness yet." : score.reason)
        }
        let notes = score.contributors.contains { !($0.note ?? "").isEmpty }
        let rows = score.contributors.map { contributor -> String in
            let baseline = contributor.baseline.map { HTML.number($0, 1) + " " + contributor.unit } ?? "—"
            return """
                <tr><th scope="row">\(HTML.escape(contributor.kind.title))</th>\
                <td>\(HTML.number(contributor.subscore, 0))</td>\
                <td>\(contributor.value.map { HTML.escape(HTML.number($0, 1) + " " + contributor.unit) } ?? "—")</td>\
                <td>\(HTML.escape(baseline))</td>\(notes ? "<td>\(HTML.escape(contributor.note ?? ""))</td>" : "")</tr>
                """
        }.joined()
        return """
            <p class="score band-\(band.rawValue)"><span class="big">\(value)</span> \
            <span class="label">\(HTML.escape(band.label))\(score.calibrating ? " · calibrating" : "") · \
            confidence \(Int((score.confidence * 100).rounded())) %</span></p>\
            <p class="note">\(HTML.escape(score.reason))</p>\
            <table class="contributors"><caption>What the score is made of</caption><thead><tr><th scope="col">Contributor</th>\
            <th scope="col">Score</th><th scope="col">Value</th><th scope="col">Baseline</th>\(notes ? "<th scope=\"col\">Why</th>" : "")</tr>\
            </thead><tbody>\(rows)</tbody></table>
            """
    }

    private func trendsPanel() -> String {
        guard
            data.days.contains(where: { $0.stepsNormalized != nil || $0.activeEnergyKcal != nil || $0.restingHRBpm != nil })
                || data.weights.contains(where: { $0 != nil })
        else { return placeholder("No daily metrics in these \(data.rangeDays) days.") }
        let dates = data.days.map(\.localDate)
        let band = { (kind: ReadinessContributor.Kind) -> ClosedRange<Double>? in
            guard let band = data.readiness?.contributors.first(where: { $0.kind == kind })?.band,
                let lower = band.lower, let upper = band.upper, lower <= upper
            else { return nil }
            return lower...upper
        }
        let weights = data.weights.count == dates.count ? data.weights : Array(repeating: nil, count: dates.count)
        let withheld = data.withheld
        var charts: [Chart] = []
        if !withheld.contains(.steps) {
            charts.append(
                Charts.dailyBars(
                    id: "steps", title: "Steps", unit: "steps", dates: dates,
                    values: data.days.map { $0.stepsNormalized.map(Double.init) }))
        }
        if !withheld.contains(.energy) {
            charts.append(
                Charts.dailyBars(
                    id: "energy", title: "Active energy", unit: "kcal", dates: dates, values: data.days.map(\.activeEnergyKcal),
                    goal: data.rings.moveGoalKcal))
        }
        if !withheld.contains(.heart) {
            charts.append(
                Charts.dailyLine(
                    id: "resting-hr", title: "Resting heart rate", unit: "bpm", dates: dates,
                    values: data.days.map(\.restingHRBpm), band: band(.restingHeartRate), digits: 0))
            charts.append(
                Charts.dailyLine(
                    id: "hrv", title: "HRV (SDNN)", unit: "ms", dates: dates, values: data.days.map(\.hrvMs),
                    band: band(.hrvBalance), digits: 0))
        }
        if weights.contains(where: { $0 != nil }) {
            charts.append(
                Charts.dailyLine(
                    id: "weight", title: "Weight", unit: "kg", dates: dates, values: weights,
                    smoothed: Smoothing.weightTrend(weights), digits: 1))
        }
        let missingWeight =
            withheld.contains(.body) || weights.contains(where: { $0 != nil }) ? "" : placeholder("No weighings in these days.")
        let notShown = DashboardPanel.trends.categories.intersection(withheld)
        return "<div class=\"charts\">" + charts.map(\.html).joined() + "</div>" + missingWeight
            + (notShown.isEmpty ? "" : deniedView(notShown))
            + "<p class=\"note\">Shaded: your normal band from readiness's 60-day baseline. "
            + "Weight trend: an exponential average, a tenth of each day's change.</p>"
    }

    private func sleepPanel() -> String {
        let recorded = data.nights.filter { $0.main != nil }
        guard !recorded.isEmpty else { return placeholder("No sleep recorded in these days.") }
        let names = ["deep", "core", "rem", "unspecified", "awake"]
        let stages: [SleepStage] = [.deep, .core, .rem, .unspecified, .awake]
        let stacks = data.nights.map { night in
            zip(names, stages).map { name, stage in (name: name, minutes: night.main?.stageMinutes(stage)) }
        }
        let dates = data.nights.map(\.localDate)
        let stagesChart = Charts.stackedMinutes(
            id: "sleep-stages", title: "Sleep stages per night", dates: dates, stacks: stacks, names: names)
        let secondsOfDay = { (date: Date?, zone: String) -> Double? in
            date.map { ClockTime.secondsOfDay($0, in: TimeZone(identifier: zone) ?? .gmt) }
        }
        let consistency = Charts.consistency(
            id: "sleep-consistency", title: "Bedtime and wake time", dates: dates,
            bed: data.nights.map { secondsOfDay($0.main?.bedtime, $0.timezoneIdentifier) },
            wake: data.nights.map { secondsOfDay($0.main?.waketime, $0.timezoneIdentifier) })
        let last = recorded.last!
        let main = last.main!
        let zone = TimeZone(identifier: last.timezoneIdentifier) ?? .gmt
        let naps = data.nights.flatMap(\.naps)
        let napText =
            naps.isEmpty
            ? "No naps."
            : "\(naps.count) \(naps.count == 1 ? "nap" : "naps"), "
                + "\(HTML.duration(seconds: naps.reduce(0) { $0 + ($1.asleepSeconds ?? 0) })) in all."
        // Only time in bed (the iPhone's bedtime schedule): asleep is unknown, not 0.
        let asleep = main.asleepSeconds.map { HTML.duration(seconds: $0) } ?? "unknown (only time in bed was recorded)"
        return """
            <p class="lead">Last night (\(HTML.escape(last.localDate))): asleep \
            \(asleep), in bed \(HTML.duration(seconds: main.inBedSeconds)), \
            \(HTML.escape(ClockTime.format(main.bedtime, in: zone)))–\(HTML.escape(ClockTime.format(main.waketime, in: zone))), \
            efficiency \(HTML.number(main.efficiency, 0)) %.</p>\
            <div class="charts">\(stagesChart.html)\(consistency.html)</div>\
            <p class="legend"><span class="key stage-deep"></span>deep <span class="key stage-core"></span>core \
            <span class="key stage-rem"></span>REM <span class="key stage-unspecified"></span>asleep (no stage) \
            <span class="key stage-awake"></span>awake · <span class="key bed"></span>bedtime \
            <span class="key wake"></span>wake time</p><p class="note">\(HTML.escape(napText))</p>
            """
    }

    private func workoutsPanel() -> String {
        guard !data.workouts.isEmpty else { return placeholder("No workouts in the last 90 days.") }
        let pageZone = TimeZone(identifier: data.zone) ?? .gmt
        let items = data.workouts.enumerated().map { index, workout -> String in
            // Its clock in the zone of its day unless it recorded one, as its page and
            // `healthpipe workouts` show it.
            let zone =
                data.workoutZones.indices.contains(index)
                ? TimeZone(identifier: data.workoutZones[index]) ?? pageZone
                : workout.timeZone.flatMap(TimeZone.init(identifier:)) ?? pageZone
            let route = Charts.route(
                id: "route-\(index)", title: "Route of the \(workout.activity) workout",
                points: workout.route.map { ($0.latitude, $0.longitude) })
            return """
                <li class="workout"><div><h3>\(title(workout))</h3>\
                <p class="when">\(HTML.escape(HTML.localTime(workout.start, zone)))</p><dl class="figures small">\
                <div><dt>Duration</dt><dd>\(HTML.duration(seconds: workout.durationSeconds ?? workout.end.timeIntervalSince(workout.start)))</dd></div>\
                <div><dt>Energy</dt>\(sourced(HTML.figure(workout.energyKcal, "kcal"), workout.energySource))</div>\
                <div><dt>Distance</dt>\(sourced(HTML.figure(workout.distanceKm, "km", 2), workout.distanceSource))</div>\
                <div><dt>Heart rate</dt>\(sourced(HTML.figure(workout.averageHeartRate, "bpm"), workout.heartRateSource))</div>\
                </dl></div>\
                \(route ?? "")</li>
                """
        }
        return totals() + "<ul class=\"workouts\">" + items.joined() + "</ul>"
    }

    /// A workout's name, a link to its page when there is one.
    private func title(_ workout: WorkoutSummary) -> String {
        let name = HTML.escape(HTML.spaced(workout.activity))
        guard let workoutPath, let id = workout.id else { return name }
        return "<a href=\"\(HTML.escape(workoutPath + id.uuidString.lowercased()))\">\(name)</a>"
    }

    /// The month's totals per activity: workouts, time, distance, energy.
    private func totals() -> String {
        guard !data.workoutTotals.isEmpty else { return "" }
        let rows = data.workoutTotals.map { total in
            [
                HTML.spaced(total.activity), "\(total.count)", HTML.duration(seconds: total.seconds),
                HTML.figure(total.distanceKm, "km", 1), HTML.figure(total.energyKcal, "kcal"),
            ]
        }
        return DataTable(header: ["Activity", "Workouts", "Time", "Distance", "Energy"], rows: rows)
            .html(caption: "The last 30 days, per activity")
    }

    private func qualityPanel() -> String {
        let withSteps = data.days.filter { $0.stepsNormalized != nil }
        let noWatch = withSteps.filter { $0.stepsSources?.primarySource != SourceCategory.appleWatch.rawValue }
        let suspicious = data.days.filter { $0.stepsSources?.suspiciousSteps == true }
        // A day with any figure — resting HR or HRV alone too, or a night of only time in bed
        // (no sleep hours, a sleep source) — is a day with data.
        let empty = data.days.filter {
            $0.stepsNormalized == nil && $0.activeEnergyKcal == nil && $0.sleepHours == nil && $0.sleepSource == nil
                && $0.restingHRBpm == nil && $0.hrvMs == nil
        }
        var sources = Set<String>()
        for day in data.days {
            guard let meta = day.stepsSources else { continue }
            sources.formUnion([meta.primarySource].compactMap { $0 } + meta.secondarySourcesUsed + meta.ignoredSources)
        }
        func list(_ days: [NormalizedDailyMetrics]) -> String {
            days.isEmpty ? "none" : days.suffix(10).map(\.localDate).joined(separator: ", ") + (days.count > 10 ? " …" : "")
        }
        return """
            <dl class="quality">\
            <div><dt>Days without the Watch</dt><dd>\(noWatch.count) of \(withSteps.count) days with steps \
            <span class="dates">(\(HTML.escape(list(noWatch))))</span></dd></div>\
            <div><dt>Suspicious step days</dt><dd>\(suspicious.count) <span class="dates">(\(HTML.escape(list(suspicious))))</span>\
            </dd></div>\
            <div><dt>Days with no data</dt><dd>\(empty.count) of \(data.days.count)</dd></div>\
            <div><dt>Step sources</dt><dd>\(HTML.escape(sources.isEmpty ? "none" : sources.sorted().map(sourceName).joined(separator: ", ")))</dd></div>\
            </dl>
            """
    }

    // MARK: Pieces

    /// The denied view: what is not shown and why, with the way back to the consent page.
    private func deniedView(_ categories: Set<HealthDataCategory>) -> String {
        let link = consentPath.map { "<a class=\"button\" href=\"\(HTML.escape($0))\">Review access</a>" } ?? ""
        let names = categories.sorted().map { "<strong>\(HTML.escape($0.title.lowercased()))</strong>" }
        let list = names.count > 1 ? names.dropLast().joined(separator: ", ") + " and " + names.last! : names.joined()
        return """
            <div class="placeholder denied" role="note"><p>You have not allowed this page to use your \
            \(list) data, so it is not shown.</p>\(link)</div>
            """
    }

    /// A workout's figure as its `<dd>`, saying where it comes from (`data-source`, and a
    /// tooltip): what the workout recorded of itself, or the samples of its span.
    private func sourced(_ text: String, _ source: WorkoutSummary.FigureSource?) -> String {
        guard let source else { return "<dd>\(text)</dd>" }
        let title = source == .workout ? "recorded by the workout" : "from the samples of the workout's span"
        return "<dd data-source=\"\(source.rawValue)\" title=\"\(HTML.escape(title))\">\(text)</dd>"
    }

    private func placeholder(_ text: String) -> String {
        "<div class=\"placeholder\" role=\"note\"><p>\(HTML.escape(text))</p></div>"
    }

    /// "Latest data 2024-12-30; showing the 30 days to it." when the page opened on the last
    /// day with data instead of today.
    private func latestDataNote() -> String {
        guard let note = data.latestDataNote, let initial = note.first else { return "" }
        return
            "<p class=\"meta\" role=\"status\">\(HTML.escape(String(initial).uppercased() + String(note.dropFirst()) + "."))</p>"
    }

    private func rangeNavigation() -> String {
        let links = DashboardAssembler.Settings.ranges.map { days in
            let current = days == data.rangeDays ? " aria-current=\"page\"" : ""
            let separator = path.contains("?") ? "&" : "?"
            return "<a href=\"\(HTML.escape(path + separator))range=\(days)\"\(current)>\(days) days</a>"
        }.joined()
        return "<nav class=\"ranges\" aria-label=\"Trend range\">\(links)</nav>"
    }

    private func longDate(_ date: String) -> String {
        let parser = DateFormatter()
        parser.locale = Locale(identifier: "en_GB")
        parser.timeZone = .gmt
        parser.dateFormat = "yyyy-MM-dd"
        guard let day = parser.date(from: date) else { return date }
        parser.dateFormat = "EEEE d MMMM yyyy"
        return parser.string(from: day)
    }

    /// `apple_watch` → `Apple Watch`.
    private func sourceName(_ key: String) -> String {
        switch SourceCategory(rawValue: key) {
        case .appleWatch: "Apple Watch"
        case .iPhone: "iPhone"
        case .other: "other devices"
        case nil: key
        }
    }
}

/// Smoothing for noisy daily series.
public enum Smoothing {
    /// An exponential moving average with a tenth of each day's change, carried over days
    /// without a weighing (the trend line of "The Hacker's Diet"); `nil` before the first.
    public static func weightTrend(_ values: [Double?], alpha: Double = 0.1) -> [Double?] {
        var trend: Double?
        return values.map { value in
            if let value, value.isFinite { trend = trend.map { $0 + alpha * (value - $0) } ?? value }
            return trend
        }
    }
}

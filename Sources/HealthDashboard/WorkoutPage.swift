import Foundation
import HealthCore
import HealthDaily

/// One workout's page: what it recorded of itself, its route drawn to scale and coloured by
/// pace or heart rate, its elevation profile, its splits, its heart-rate curve over the five
/// zones, its statistics and events. One HTML document like the dashboard's (no script, no
/// font, no map tiles); what the viewer may not see is said, never drawn.
public struct WorkoutPage: Sendable {
    public var data: WorkoutPageData
    /// The dashboard's path, for the link back.
    public var backPath: String
    /// What the route is coloured by: `pace` (the default) or `heart`.
    public var colouring: String
    /// Extra markup for the header's right side (the server's sign-out form).
    public var headerExtra: String

    public init(data: WorkoutPageData, backPath: String = "/", colouring: String = "pace", headerExtra: String = "") {
        self.data = data
        self.backPath = backPath
        self.colouring = colouring
        self.headerExtra = headerExtra
    }

    /// The document.
    public func html() -> String {
        let workout = data.workout
        let activity = HTML.spaced(HealthKitWorkoutActivities.shortName(workout.activityType))
        let sections = [figuresSection(), routeSection(), splitsSection(), heartSection(), recordedSection()]
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(HTML.escape(activity)) — \(HTML.escape(HTML.localTime(workout.start, data.zone)))</title>
            <style>\(DashboardStyle.css)</style></head>
            <body><header class="top"><div><p class="meta"><a href="\(HTML.escape(backPath))">← Dashboard</a></p>\
            <h1>\(HTML.escape(activity)), \(HTML.escape(HTML.localTime(workout.start, data.zone)))</h1>\
            <p class="meta">Until \(HTML.escape(HTML.localTime(workout.end, data.zone))) in \
            \(HTML.escape(data.zone.identifier)) · \(HTML.escape(workout.source.name))</p></div>\(headerExtra)</header>
            <main class="grid">
            \(sections.joined(separator: "\n"))
            </main>
            <footer><p>As the workout recorded itself; the same as <code>healthpipe workouts</code> and \
            <code>GET /v1/workouts/\(workout.uuid.uuidString.lowercased())</code>.</p></footer>
            </body></html>
            """
    }

    private func section(_ id: String, _ title: String, _ content: String) -> String {
        """
        <section class="panel panel-\(id)" id="\(id)" aria-labelledby="\(id)-h"><h2 id="\(id)-h">\(title)</h2>\(content)</section>
        """
    }

    /// A kind of data the viewer does not see, said in place of what it would show.
    private func withheldNote(_ kind: HealthDataCategory, _ what: String) -> String {
        "<div class=\"placeholder denied\" role=\"note\"><p>\(what): not shown — you have not allowed this page to use "
            + "your <strong>\(HTML.escape(kind.title.lowercased()))</strong> data.</p></div>"
    }

    private func figuresSection() -> String {
        let workout = data.workout
        let recorded = WorkoutTotals(workout)
        let distance = recorded.distanceKm ?? data.routeMetres.map { $0 / 1_000 }
        let seconds = workout.durationSeconds
        let pace = distance.flatMap { $0 > 0.05 ? seconds / $0 : nil }
        var items = [("Duration", HTML.duration(seconds: seconds))]
        if !data.withheld.contains(.activity) {
            items += [("Distance", HTML.figure(distance, "km", 2)), ("Pace", pace.map(Self.pace) ?? "—")]
        }
        if !data.withheld.contains(.energy) { items.append(("Active energy", HTML.figure(recorded.energyKcal, "kcal"))) }
        if let heart = data.heart {
            // The readings' mean, else what the workout recorded (its statistic), as in its list.
            items.append(("Mean heart rate", HTML.figure(heart.meanBpm ?? recorded.heartRateBpm, "bpm")))
        }
        if let metres = workout.elevationAscendedMetres, !data.withheld.contains(.activity) {
            items.append(("Elevation gain", HTML.figure(metres, "m")))
        }
        let figures = items.map { "<div><dt>\($0.0)</dt><dd>\($0.1)</dd></div>" }.joined()
        return section("summary", "Summary", "<dl class=\"figures\">\(figures)</dl>")
    }

    private func routeSection() -> String {
        guard !data.withheld.contains(.activity) else { return section("route", "Route", withheldNote(.activity, "The route")) }
        // Heart rate without readings colours nothing: pace then.
        let colouring = WorkoutCharts.Colouring(rawValue: colouring).flatMap {
            $0 == .heart && (data.heart?.readings.count ?? 0) < 2 ? nil : $0
        }
        guard
            let map = WorkoutCharts.routeMap(
                points: data.points, colouring: colouring ?? .pace, heart: data.heart?.readings ?? [],
                metres: data.routeMetres ?? 0)
        else {
            let what = data.points.count == 1 ? "a route of one point, nothing to draw" : "no route"
            return section("route", "Route", "<p class=\"placeholder\">This workout recorded \(what).</p>")
        }
        let profile = WorkoutCharts.elevationProfile(points: data.points)?.html ?? ""
        return section("route", "Route", "<figure class=\"chart map\">\(map.svg)\(map.legend)</figure>\(profile)")
    }

    private func splitsSection() -> String {
        guard !data.withheld.contains(.activity), !data.splits.isEmpty else { return "" }
        let rows = data.splits.map { split in
            [
                "\(split.index)", HTML.number(split.meters / 1_000, 2), Self.clock(split.seconds),
                split.meters > 0 ? Self.pace(split.seconds / (split.meters / 1_000)) : "—",
            ]
        }
        let table = DataTable(header: ["Split", "km", "Time", "Pace"], rows: rows)
        return section("splits", "Splits per km", table.html(caption: "Time of each kilometre along the route"))
    }

    private func heartSection() -> String {
        guard let heart = data.heart else {
            return data.withheld.contains(.heart) ? section("heart", "Heart rate", withheldNote(.heart, "The heart rate")) : ""
        }
        guard let chart = WorkoutCharts.heartRateCurve(heart, start: data.workout.start, end: data.workout.end) else {
            return section("heart", "Heart rate", "<p class=\"placeholder\">No heart-rate readings during this workout.</p>")
        }
        let source =
            switch data.maximumSource {
            case "given": "Zones of a maximum of \(HTML.number(heart.maximumHeartRate)) bpm."
            case "observed":
                "Zones of \(HTML.number(heart.maximumHeartRate)) bpm, the highest heart rate recorded in the year before "
                    + "(give your own maximum with max_hr)."
            default: "No zones: no maximum heart rate known."
            }
        return section("heart", "Heart rate", chart.html + "<p class=\"note\">\(source)</p>")
    }

    private func recordedSection() -> String {
        let workout = data.workout
        let statistics = workout.statistics.map { figure in
            [
                SampleTypeNames.shortName(of: figure.type) ?? figure.type.identifier, HTML.number(figure.sum, 2),
                HTML.number(figure.average, 1), HTML.number(figure.minimum, 1), HTML.number(figure.maximum, 1),
                figure.unit ?? "",
            ]
        }
        let events = workout.events.map { event in
            [
                event.type.replacingOccurrences(of: "HKWorkoutEventType", with: ""),
                HTML.localTime(event.date, data.zone),
                HTML.duration(seconds: Workout.seconds(event.duration, unit: event.durationUnit)),
            ]
        }
        var content = ""
        if !statistics.isEmpty {
            content += DataTable(header: ["Type", "Sum", "Average", "Minimum", "Maximum", "Unit"], rows: statistics)
                .html(caption: "Statistics the workout recorded")
        }
        if !events.isEmpty {
            content += DataTable(header: ["Event", "At", "Duration"], rows: events).html(caption: "Events")
        }
        return content.isEmpty ? "" : section("recorded", "Recorded", content)
    }

    /// `6:32` (minutes and seconds), `1:02:05` past an hour.
    static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 1e7 else { return "—" }
        let whole = Int(seconds.rounded())
        return whole >= 3_600
            ? String(format: "%d:%02d:%02d", whole / 3_600, whole / 60 % 60, whole % 60)
            : String(format: "%d:%02d", whole / 60, whole % 60)
    }

    /// `5:32 /km` from seconds per kilometre.
    static func pace(_ secondsPerKm: Double) -> String {
        guard secondsPerKm.isFinite, secondsPerKm > 0, secondsPerKm < 100 * 3_600 else { return "—" }
        let whole = Int(secondsPerKm.rounded())
        return String(format: "%d:%02d /km", whole / 60, whole % 60)
    }
}

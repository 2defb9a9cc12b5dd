import Foundation
import HealthCore

/// The dashboard's charts, drawn as SVG from plain numbers.
enum Charts {
    /// One value per day as bars from zero (steps, energy), a dashed goal line when given.
    static func dailyBars(
        id: String, title: String, unit: String, dates: [String], values: [Double?], goal: Double? = nil, digits: Int = 0
    ) -> Chart {
        let present = values.compactMap { $0 }.filter(\.isFinite)
        let plot = Plot(values: present + (goal.map { [$0] } ?? []), count: dates.count, fromZero: true)
        var body = plot.axes(first: dates.first ?? "", last: dates.last ?? "", digits: digits)
        let width = max(plot.slot * 0.72, 0.6)
        for (index, value) in values.enumerated() {
            guard let value, value.isFinite else { continue }
            let top = plot.y(max(value, 0))
            body +=
                "<rect class=\"bar\" x=\"\(f(plot.x(index) - width / 2))\" y=\"\(f(top))\" width=\"\(f(width))\" "
                + "height=\"\(f(plot.y(plot.lower) - top))\"/>"
        }
        if let goal, goal.isFinite {
            let y = plot.y(goal)
            body +=
                "<line class=\"goal\" x1=\"\(f(Plot.left))\" x2=\"\(f(Plot.width - Plot.right))\" y1=\"\(f(y))\" y2=\"\(f(y))\"/>"
        }
        let summary = summaryText(title: title, unit: unit, values: present, digits: digits, days: dates.count)
        let rows = zip(dates, values).map { [$0, HTML.number($1, digits)] }
        return Chart(
            id: id, title: title, svg: Plot.svg(id: "svg-\(id)", title: summary, body: body),
            table: DataTable(header: ["Date", "\(title) (\(unit))"], rows: rows), unit: unit)
    }

    /// One value per day as a line with dots (days without a value leave a gap), a shaded
    /// normal band when given, and a smoothed line when given.
    static func dailyLine(
        id: String, title: String, unit: String, dates: [String], values: [Double?], band: ClosedRange<Double>? = nil,
        smoothed: [Double?]? = nil, digits: Int = 1
    ) -> Chart {
        let present = values.compactMap { $0 }.filter(\.isFinite)
        let extra = (band.map { [$0.lowerBound, $0.upperBound] } ?? []) + (smoothed?.compactMap { $0 } ?? [])
        let plot = Plot(values: present + extra, count: dates.count, fromZero: false)
        var body = plot.axes(first: dates.first ?? "", last: dates.last ?? "", digits: digits)
        if let band {
            let top = plot.y(band.upperBound)
            body +=
                "<rect class=\"band\" x=\"\(f(Plot.left))\" y=\"\(f(top))\" width=\"\(f(plot.innerWidth))\" "
                + "height=\"\(f(plot.y(band.lowerBound) - top))\"/>"
        }
        body += polylines(values, plot: plot, cssClass: "line")
        if let smoothed { body += polylines(smoothed, plot: plot, cssClass: "smooth") }
        if dates.count <= 120 {
            for (index, value) in values.enumerated() {
                guard let value, value.isFinite else { continue }
                body += "<circle class=\"dot\" cx=\"\(f(plot.x(index)))\" cy=\"\(f(plot.y(value)))\" r=\"2.2\"/>"
            }
        }
        var summary = summaryText(title: title, unit: unit, values: present, digits: digits, days: dates.count)
        if let band {
            summary += "; normal band \(HTML.number(band.lowerBound, digits))–\(HTML.number(band.upperBound, digits)) \(unit)"
        }
        var header = ["Date", "\(title) (\(unit))"]
        if smoothed != nil { header.append("Trend (\(unit))") }
        let rows = dates.indices.map { index in
            [dates[index], HTML.number(values[index], digits)]
                + (smoothed.map { [HTML.number($0[index], digits)] } ?? [])
        }
        return Chart(
            id: id, title: title, svg: Plot.svg(id: "svg-\(id)", title: summary, body: body),
            table: DataTable(header: header, rows: rows), unit: unit)
    }

    /// Runs of consecutive present values as polylines.
    private static func polylines(_ values: [Double?], plot: Plot, cssClass: String) -> String {
        var out = ""
        var run: [String] = []
        func flush() {
            if run.count > 1 { out += "<polyline class=\"\(cssClass)\" points=\"\(run.joined(separator: " "))\"/>" }
            run = []
        }
        for (index, value) in values.enumerated() {
            if let value, value.isFinite {
                run.append("\(f(plot.x(index))),\(f(plot.y(value)))")
            } else {
                flush()
            }
        }
        flush()
        return out
    }

    /// Stacked bars of minutes per category, one bar per day (sleep stages).
    static func stackedMinutes(
        id: String, title: String, dates: [String], stacks: [[(name: String, minutes: Double?)]], names: [String]
    ) -> Chart {
        let totals = stacks.map { $0.reduce(0) { $0 + ($1.minutes ?? 0) } / 60 }
        let plot = Plot(values: totals, count: dates.count, fromZero: true)
        var body = plot.axes(first: dates.first ?? "", last: dates.last ?? "", digits: 1)
        let width = max(plot.slot * 0.72, 0.6)
        for (index, stack) in stacks.enumerated() {
            var level = 0.0
            for part in stack {
                guard let minutes = part.minutes, minutes > 0 else { continue }
                let bottom = plot.y(level / 60)
                level += minutes
                let top = plot.y(level / 60)
                body +=
                    "<rect class=\"stage-\(part.name)\" x=\"\(f(plot.x(index) - width / 2))\" y=\"\(f(top))\" "
                    + "width=\"\(f(width))\" height=\"\(f(bottom - top))\"/>"
            }
        }
        let nights = totals.filter { $0 > 0 }
        let summary =
            nights.isEmpty
            ? "\(title): no nights recorded"
            : "\(title): \(nights.count) nights, \(HTML.number(nights.reduce(0, +) / Double(nights.count), 1)) h on average"
        let rows = dates.indices.map { index in
            [dates[index]]
                + names.map { name in
                    // Unknown (a night without data, stages no source measured): —, not 0.
                    HTML.number(stacks[index].first { $0.name == name }?.minutes ?? nil, 0)
                }
        }
        return Chart(
            id: id, title: title, svg: Plot.svg(id: "svg-\(id)", title: summary, body: body),
            table: DataTable(header: ["Night"] + names.map { "\($0) (min)" }, rows: rows), unit: "hours")
    }

    /// Bedtimes and wake times as dots on a clock axis (18:00 → 18:00), one column per night.
    static func consistency(id: String, title: String, dates: [String], bed: [Double?], wake: [Double?]) -> Chart {
        // Hours after 18:00, so that a night reads top to bottom without wrapping.
        func shifted(_ seconds: Double?) -> Double? { seconds.map { ($0 / 3600 - 18 + 24).truncatingRemainder(dividingBy: 24) } }
        let beds = bed.map(shifted)
        let wakes = wake.map(shifted)
        var plot = Plot(values: [0, 24], count: dates.count, fromZero: true)
        (plot.lower, plot.upper) = (24, 0)  // earlier times at the top
        var body = ""
        for (label, hours) in [("18:00", 0.0), ("00:00", 6.0), ("06:00", 12.0), ("12:00", 18.0)] {
            let y = plot.y(hours)
            body +=
                "<line class=\"grid\" x1=\"\(f(Plot.left))\" x2=\"\(f(Plot.width - Plot.right))\" y1=\"\(f(y))\" y2=\"\(f(y))\"/>"
                + "<text class=\"tick\" x=\"\(f(Plot.left - 4))\" y=\"\(f(y + 4))\" text-anchor=\"end\">\(label)</text>"
        }
        body +=
            "<text class=\"tick\" x=\"\(f(Plot.left))\" y=\"\(f(Plot.height - 8))\">\(HTML.escape(dates.first ?? ""))</text>"
            + "<text class=\"tick\" x=\"\(f(Plot.width - Plot.right))\" y=\"\(f(Plot.height - 8))\" text-anchor=\"end\">"
            + "\(HTML.escape(dates.last ?? ""))</text>"
        for index in dates.indices {
            if let b = beds[index] {
                body += "<circle class=\"bed\" cx=\"\(f(plot.x(index)))\" cy=\"\(f(plot.y(b)))\" r=\"3\"/>"
            }
            if let w = wakes[index] {
                body += "<circle class=\"wake\" cx=\"\(f(plot.x(index)))\" cy=\"\(f(plot.y(w)))\" r=\"3\"/>"
            }
        }
        let clock = { (seconds: Double?) -> String in
            guard let seconds, let minutes = Int(truncatingSaturating: seconds / 60) else { return "—" }
            return String(format: "%02d:%02d", minutes / 60 % 24, minutes % 60)
        }
        let summary = "\(title): bedtimes and wake times of \(bed.compactMap { $0 }.count) nights"
        let rows = dates.indices.map { [dates[$0], clock(bed[$0]), clock(wake[$0])] }
        return Chart(
            id: id, title: title, svg: Plot.svg(id: "svg-\(id)", title: summary, body: body),
            table: DataTable(header: ["Night", "Bedtime", "Wake time"], rows: rows))
    }

    /// Three concentric rings, each filled to its share of its goal (capped at one turn).
    static func rings(id: String, rings: [(name: String, value: Double?, goal: Double, unit: String)]) -> Chart {
        let size = 180.0
        var body = ""
        for (index, ring) in rings.enumerated() {
            let radius = 80.0 - Double(index) * 22
            let circumference = 2 * Double.pi * radius
            let share = min(max((ring.value ?? 0) / ring.goal, 0), 1)
            body += "<circle class=\"ring-track ring-\(index)\" cx=\"90\" cy=\"90\" r=\"\(f(radius))\"/>"
            if share > 0 {
                body +=
                    "<circle class=\"ring ring-\(index)\" cx=\"90\" cy=\"90\" r=\"\(f(radius))\" "
                    + "stroke-dasharray=\"\(f(circumference * share)) \(f(circumference))\" transform=\"rotate(-90 90 90)\"/>"
            }
        }
        let summary = rings.map { "\($0.name) \(HTML.number($0.value, 0)) of \(HTML.number($0.goal, 0)) \($0.unit)" }
            .joined(separator: ", ")
        let svg = """
            <svg class="rings" viewBox="0 0 \(f(size)) \(f(size))" role="img" aria-labelledby="svg-\(id)-title">\
            <title id="svg-\(id)-title">Activity rings: \(HTML.escape(summary))</title>\(body)</svg>
            """
        let rows = rings.map { ring in
            [
                ring.name, HTML.number(ring.value, 0), HTML.number(ring.goal, 0), ring.unit,
                ring.value.map { HTML.number($0 / ring.goal * 100, 0) + " %" } ?? "—",
            ]
        }
        return Chart(
            id: id, title: "Activity rings", svg: svg,
            table: DataTable(header: ["Ring", "Today", "Goal", "Unit", "Done"], rows: rows))
    }

    /// A route as a polyline in its own box (equirectangular, north up; no map tiles).
    static func route(id: String, title: String, points: [(latitude: Double, longitude: Double)]) -> String? {
        guard points.count > 1 else { return nil }
        let latitudes = points.map(\.latitude)
        let longitudes = points.map(\.longitude)
        let middle = (latitudes.min()! + latitudes.max()!) / 2
        let stretch = cos(middle * .pi / 180)
        let spanX = max((longitudes.max()! - longitudes.min()!) * stretch, 1e-9)
        let spanY = max(latitudes.max()! - latitudes.min()!, 1e-9)
        let scale = 140 / max(spanX, spanY)
        let coordinates = points.map { point in
            let x = 10 + ((point.longitude - longitudes.min()!) * stretch) * scale
            let y = 10 + (latitudes.max()! - point.latitude) * scale
            return "\(f(x)),\(f(y))"
        }
        return """
            <svg class="route" viewBox="0 0 160 160" role="img" aria-labelledby="\(id)-title">\
            <title id="\(id)-title">\(HTML.escape(title))</title>\
            <polyline class="route-line" points="\(coordinates.joined(separator: " "))"/></svg>
            """
    }

    private static func summaryText(title: String, unit: String, values: [Double], digits: Int, days: Int) -> String {
        guard !values.isEmpty else { return "\(title): no data in these \(days) days" }
        let mean = values.reduce(0, +) / Double(values.count)
        return "\(title) over \(days) days: average \(HTML.number(mean, digits)) \(unit), "
            + "lowest \(HTML.number(values.min(), digits)), highest \(HTML.number(values.max(), digits)), "
            + "\(values.count) days with data"
    }
}

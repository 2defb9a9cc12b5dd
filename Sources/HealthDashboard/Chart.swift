import Foundation
import HealthCore

/// A chart as the page shows it: an SVG with a `<title>` (its text alternative) and the
/// table of the numbers behind it, for screen readers and for anyone who wants the figures.
struct Chart {
    var id: String
    var title: String
    var svg: String
    var table: DataTable
    /// The unit of the values axis, shown beside the title.
    var unit: String?

    var html: String {
        let unitText = unit.map { " <span class=\"unit\">\(HTML.escape($0))</span>" } ?? ""
        return """
            <figure class="chart" id="chart-\(id)"><figcaption>\(HTML.escape(title))\(unitText)</figcaption>\(svg)\
            <details><summary>Data table</summary>\(table.html(caption: title))</details></figure>
            """
    }
}

/// Rows of text under a header row.
struct DataTable {
    var header: [String]
    var rows: [[String]]

    func html(caption: String) -> String {
        let head = header.map { "<th scope=\"col\">\(HTML.escape($0))</th>" }.joined()
        let body = rows.map { row in
            "<tr>"
                + row.enumerated().map { index, cell in
                    index == 0 ? "<th scope=\"row\">\(HTML.escape(cell))</th>" : "<td>\(HTML.escape(cell))</td>"
                }.joined() + "</tr>"
        }.joined()
        return "<table><caption>\(HTML.escape(caption))</caption><thead><tr>\(head)</tr></thead><tbody>\(body)</tbody></table>"
    }
}

/// The plotting area shared by the charts, in SVG user units (the SVG scales to its box).
struct Plot {
    static let width = 640.0
    static let height = 200.0
    static let left = 58.0
    static let right = 10.0
    static let top = 10.0
    static let bottom = 26.0

    var lower: Double
    var upper: Double
    var count: Int

    /// A value range with a little room above and below; from zero when `fromZero`.
    init(values: [Double], count: Int, fromZero: Bool) {
        var low = values.min() ?? 0
        var high = values.max() ?? 1
        if fromZero { low = min(0, low) }
        if high - low < 1e-9 {
            high += 1
            if !fromZero { low -= 1 }
        }
        let room = (high - low) * 0.08
        lower = fromZero && low >= 0 ? low : low - room
        upper = high + room
        self.count = max(count, 1)
    }

    var innerWidth: Double { Plot.width - Plot.left - Plot.right }
    var innerHeight: Double { Plot.height - Plot.top - Plot.bottom }

    /// The x of the centre of slot `index` (one slot per day).
    func x(_ index: Int) -> Double { Plot.left + (Double(index) + 0.5) * slot }
    var slot: Double { innerWidth / Double(count) }

    func y(_ value: Double) -> Double { Plot.top + (upper - value) / (upper - lower) * innerHeight }

    /// The frame: three value labels with grid lines, the first and last x label.
    func axes(first: String, last: String, digits: Int) -> String {
        var parts: [String] = []
        for value in [lower, (lower + upper) / 2, upper] {
            let y = self.y(value)
            parts.append(
                "<line class=\"grid\" x1=\"\(f(Plot.left))\" x2=\"\(f(Plot.width - Plot.right))\" y1=\"\(f(y))\" y2=\"\(f(y))\"/>"
                    + "<text class=\"tick\" x=\"\(f(Plot.left - 4))\" y=\"\(f(y + 4))\" text-anchor=\"end\">"
                    + "\(HTML.escape(HTML.number(value, digits)))</text>")
        }
        let baseline = Plot.height - 8
        parts.append(
            "<text class=\"tick\" x=\"\(f(Plot.left))\" y=\"\(f(baseline))\">\(HTML.escape(first))</text>"
                + "<text class=\"tick\" x=\"\(f(Plot.width - Plot.right))\" y=\"\(f(baseline))\" text-anchor=\"end\">"
                + "\(HTML.escape(last))</text>")
        return parts.joined()
    }

    /// The `<svg>` element around `body`, labelled by its own `<title>`.
    static func svg(id: String, title: String, body: String, width: Double = Plot.width, height: Double = Plot.height) -> String {
        """
        <svg viewBox="0 0 \(f(width)) \(f(height))" role="img" aria-labelledby="\(id)-title" \
        preserveAspectRatio="xMidYMid meet"><title id="\(id)-title">\(HTML.escape(title))</title>\(body)</svg>
        """
    }
}

/// A coordinate with at most one decimal: short, and never `nan`.
func f(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let rounded = (value * 10).rounded() / 10
    guard rounded == rounded.rounded() else { return String(format: "%.1f", rounded) }
    // Saturating: a finite but absurd coordinate (a value of 1e300 plotted) must not trap.
    return String(Int(truncatingSaturating: rounded) ?? 0)
}

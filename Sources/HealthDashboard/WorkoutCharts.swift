import Foundation
import HealthCore
import HealthDaily

/// The charts of a workout's page: its route drawn to scale, its elevation profile and its
/// heart-rate curve over the zones.
enum WorkoutCharts {
    /// What a route's segments are coloured by.
    enum Colouring: String, Sendable {
        case pace
        case heart
    }

    static let mapWidth = 640.0
    static let mapHeight = 400.0
    /// Points drawn at most (a longer route thinned evenly, first and last kept).
    static let drawnPoints = 2_000

    /// The route to scale in an equirectangular projection (x: longitude × cos(middle
    /// latitude), y: latitude, north up; no map tiles), its segments in five colours from the
    /// slowest fifth to the fastest (or the lowest heart rate to the highest), a start and a
    /// finish mark and a scale bar. `nil` for fewer than two points.
    static func routeMap(
        points all: [RoutePoint], colouring: Colouring, heart: [WorkoutHeartRate.Reading], metres: Double
    ) -> (svg: String, legend: String)? {
        var points = all.thinned(to: drawnPoints)
        guard points.count > 1 else { return nil }
        // A route across the antimeridian (179.9° to −179.9°) drawn in one piece: its west
        // longitudes taken past 180°.
        if let west = points.map(\.longitude).min(), let east = points.map(\.longitude).max(), east - west > 180 {
            points = points.map { point in
                var point = point
                if point.longitude < 0 { point.longitude += 360 }
                return point
            }
        }
        let latitudes = points.map(\.latitude)
        let longitudes = points.map(\.longitude)
        let (south, north) = (latitudes.min()!, latitudes.max()!)
        let (west, east) = (longitudes.min()!, longitudes.max()!)
        let stretch = cos((south + north) / 2 * .pi / 180)
        let spanX = max((east - west) * stretch, 1e-7)
        let spanY = max(north - south, 1e-7)
        let margin = 24.0
        let scale = min((mapWidth - 2 * margin) / spanX, (mapHeight - 2 * margin) / spanY)
        let offsetX = (mapWidth - spanX * scale) / 2
        let offsetY = (mapHeight - spanY * scale) / 2
        func xy(_ point: RoutePoint) -> String {
            "\(f(offsetX + (point.longitude - west) * stretch * scale)),\(f(offsetY + (north - point.latitude) * scale))"
        }
        // A value per segment, then its fifth among all.
        let values: [Double?] = zip(points, points.dropFirst()).map { a, b in
            switch colouring {
            case .pace:
                if let speed = b.speed, speed >= 0 { return speed }
                guard let t0 = a.time, let t1 = b.time, t1 > t0 else { return nil }
                return a.metres(to: b) / t1.timeIntervalSince(t0)
            case .heart:
                guard let time = b.time else { return nil }
                return heart.last { $0.time <= time }?.bpm ?? heart.first?.bpm
            }
        }
        let known = values.compactMap { $0 }.sorted()
        let cuts = known.isEmpty ? [] : [0.2, 0.4, 0.6, 0.8].map { known[Int(Double(known.count - 1) * $0)] }
        func fifth(_ value: Double?) -> Int? { value.map { value in cuts.filter { value > $0 }.count } }
        var lines: [String] = []
        var run: [String] = [xy(points[0])]
        var current = fifth(values[0])
        for index in 1..<points.count {
            run.append(xy(points[index]))
            let next = index < values.count ? fifth(values[index]) : nil
            if index == points.count - 1 || next != current {
                let kind = current.map { "route-line \(colouring.rawValue)-\($0)" } ?? "route-line"
                lines.append("<polyline class=\"\(kind)\" points=\"\(run.joined(separator: " "))\"/>")
                run = [xy(points[index])]
                current = next
            }
        }
        let start = xy(points[0]).split(separator: ",")
        let finish = xy(points[points.count - 1]).split(separator: ",")
        let marks =
            "<circle class=\"start\" cx=\"\(start[0])\" cy=\"\(start[1])\" r=\"7\"/>"
            + "<rect class=\"finish\" x=\"\(f((Double(finish[0]) ?? 0) - 6))\" y=\"\(f((Double(finish[1]) ?? 0) - 6))\" width=\"12\" height=\"12\"/>"
        let title =
            "Route, \(HTML.number(metres / 1000, 2)) km, "
            + "coloured by \(colouring == .pace ? "pace" : "heart rate")"
        let svg = Plot.svg(
            id: "route-map", title: title, body: lines.joined() + marks + scaleBar(pixelsPerMetre: scale / 111_195),
            width: mapWidth, height: mapHeight)
        let low = colouring == .pace ? "slower" : "lower"
        let high = colouring == .pace ? "faster" : "higher"
        let keys = (0..<5).map { "<span class=\"key \(colouring.rawValue)-\($0)\"></span>" }.joined()
        return (svg, "<p class=\"legend\">\(low)\(keys) \(high) · ● start · ■ finish</p>")
    }

    /// A bar of a round distance about a quarter of the map wide, in its bottom left corner.
    private static func scaleBar(pixelsPerMetre: Double) -> String {
        let target = mapWidth / 4 / max(pixelsPerMetre, 1e-9)
        let lengths = [1.0, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000]
        // A route of one spot (every point alike) has no scale worth drawing.
        guard let metres = lengths.last(where: { $0 <= target }) else { return "" }
        let width = metres * pixelsPerMetre
        guard width >= 8, width <= mapWidth / 2 else { return "" }
        let label = metres >= 1_000 ? "\(HTML.number(metres / 1_000)) km" : "\(HTML.number(metres)) m"
        return "<line class=\"scale\" x1=\"12\" x2=\"\(f(12 + width))\" y1=\"\(f(mapHeight - 12))\" y2=\"\(f(mapHeight - 12))\"/>"
            + "<text class=\"tick\" x=\"12\" y=\"\(f(mapHeight - 18))\">\(label)</text>"
    }

    /// Elevation over the distance covered.
    static func elevationProfile(points: [RoutePoint]) -> Chart? {
        var distance = 0.0
        var profile: [(km: Double, metres: Double)] = []
        for (index, point) in points.enumerated() {
            if index > 0 { distance += points[index - 1].metres(to: point) }
            if let elevation = point.elevation { profile.append((distance / 1_000, elevation)) }
        }
        guard profile.count > 1, let total = profile.last?.km, total > 0 else { return nil }
        let drawn = profile.thinned(to: 600)
        let plot = Plot(values: drawn.map(\.metres), count: 1, fromZero: false)
        let x = { (km: Double) in Plot.left + km / total * plot.innerWidth }
        let line = drawn.map { "\(f(x($0.km))),\(f(plot.y($0.metres)))" }.joined(separator: " ")
        let gain = zip(profile, profile.dropFirst()).reduce(0) { $0 + max(0, $1.1.metres - $1.0.metres) }
        let title =
            "Elevation: \(HTML.number(drawn.map(\.metres).min(), 0)) to \(HTML.number(drawn.map(\.metres).max(), 0)) m, "
            + "\(HTML.number(gain, 0)) m climbed over \(HTML.number(total, 2)) km"
        let body =
            plot.axes(first: "0 km", last: "\(HTML.number(total, 2)) km", digits: 0)
            + "<polyline class=\"line\" points=\"\(line)\"/>"
        let rows = drawn.thinned(to: 50).map { [HTML.number($0.km, 2), HTML.number($0.metres, 1)] }
        return Chart(
            id: "elevation", title: title, svg: Plot.svg(id: "elevation", title: title, body: body),
            table: DataTable(header: ["km", "Elevation (m)"], rows: rows), unit: "m")
    }

    /// Heart rate over the workout, over its five zones when it has them.
    static func heartRateCurve(_ heart: WorkoutHeartRate, start: Date, end: Date) -> Chart? {
        let readings = heart.readings.filter { $0.bpm.isFinite }
        guard readings.count > 1, end > start else { return nil }
        let bounds = readings.map(\.bpm) + (heart.zones?.map(\.fromBpm) ?? [])
        let plot = Plot(values: [bounds.min() ?? 60, readings.map(\.bpm).max() ?? 180], count: 1, fromZero: false)
        let duration = end.timeIntervalSince(start)
        let x = { (time: Date) in Plot.left + min(max(time.timeIntervalSince(start) / duration, 0), 1) * plot.innerWidth }
        var body = ""
        for zone in heart.zones ?? [] {
            let top = plot.y(min(zone.toBpm ?? plot.upper, plot.upper))
            let bottom = plot.y(max(zone.fromBpm, plot.lower))
            guard bottom > top else { continue }
            body +=
                "<rect class=\"zone-\(zone.zone)\" x=\"\(f(Plot.left))\" y=\"\(f(top))\" width=\"\(f(plot.innerWidth))\" "
                + "height=\"\(f(bottom - top))\"/>"
        }
        body += plot.axes(first: "0 min", last: "\(HTML.number(duration / 60)) min", digits: 0)
        let line = readings.thinned(to: 1_000).map { "\(f(x($0.time))),\(f(plot.y($0.bpm)))" }.joined(separator: " ")
        body += "<polyline class=\"line heart\" points=\"\(line)\"/>"
        let title =
            "Heart rate: mean \(HTML.number(heart.meanBpm)) bpm, \(HTML.number(heart.minimumBpm)) to "
            + "\(HTML.number(heart.maximumBpm)) bpm, \(readings.count) readings"
        let rows = (heart.zones ?? []).map { zone in
            [
                "Zone \(zone.zone)", "\(HTML.number(zone.fromBpm))–\(zone.toBpm.map { HTML.number($0) } ?? "")",
                HTML.duration(seconds: zone.seconds),
            ]
        }
        return Chart(
            id: "heart", title: title, svg: Plot.svg(id: "heart", title: title, body: body),
            table: DataTable(header: ["Zone", "bpm", "Time"], rows: rows), unit: "bpm")
    }
}

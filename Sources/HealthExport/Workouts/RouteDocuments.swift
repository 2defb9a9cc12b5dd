import Foundation
import HealthCore
import HealthMetrics

/// A workout's route as the documents other tools read: GPX 1.1 (Strava, Garmin Connect,
/// Komoot and Apple's own export import it) and GeoJSON (maps on the web), written in
/// chunks of about 64 KiB, so a long route never sits in memory as one text.
///
/// Every field a route point holds is written: position, elevation and time in GPX's own
/// elements, speed (m/s), course (degrees) and the horizontal and vertical accuracy (m) in
/// the `<extensions>` Apple Health's export uses (`speed`, `course`, `hAcc`, `vAcc`), so a
/// route written here reads back through the importer to the same points. Numbers are
/// written with the fewest digits that read back to the same `Double`, never with an
/// exponent; times in UTC, to the millisecond when they are not whole seconds. A point off
/// the globe (a latitude past ±90, a longitude past ±180) or without a finite position is
/// left out, and a value that is not finite is written as none.
///
/// ```swift
/// try await RouteDocuments.writeGPX(workout) { chunk in try await body.write(chunk) }
/// let gpx = try await RouteDocuments.gpx(workout)  // the whole text, for small routes and tests
/// ```
public enum RouteDocuments {
    /// The text a chunk reaches before it is handed over.
    static let chunkBytes = 64 << 10

    /// A GPX 1.1 document: one track, one segment per recorded route, in recorded order.
    public static func writeGPX(
        _ workout: Workout, name: String? = nil, to sink: (String) async throws -> Void
    ) async throws {
        var out = Chunks()
        try await out.add(
            to: sink,
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="healthpipe" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">
              <metadata>
                <time>\(time(workout.start))</time>
              </metadata>
              <trk>
                <name>\(escaped(name ?? title(workout)))</name>
                <type>\(escaped(HealthKitWorkoutActivities.shortName(workout.activityType)))</type>

            """)
        for points in tracks(workout) {
            try await out.add(to: sink, "    <trkseg>\n")
            for point in points { try await out.add(to: sink, trackPoint(point)) }
            try await out.add(to: sink, "    </trkseg>\n")
        }
        try await out.add(to: sink, "  </trk>\n</gpx>\n")
        try await out.finish(to: sink)
    }

    /// A GeoJSON `FeatureCollection` with one `LineString` feature per recorded route (a
    /// `Point` for a route of one point)
    /// (coordinates `[longitude, latitude]`, or `[longitude, latitude, elevation]` for every
    /// point when all have one) and the points' times, speeds, courses and accuracies as
    /// arrays in its properties, index for index (`null` where a point has none).
    public static func writeGeoJSON(_ workout: Workout, to sink: (String) async throws -> Void) async throws {
        var out = Chunks()
        try await out.add(to: sink, #"{"features":["#)
        for (index, points) in tracks(workout).enumerated() {
            // A route of one point is a Point: a LineString needs two positions.
            let line = points.count > 1
            try await out.add(to: sink, (index == 0 ? "" : ",") + #"{"geometry":{"coordinates":"# + (line ? "[" : ""))
            let withElevation = points.allSatisfy { $0.elevation != nil }
            for (position, point) in points.enumerated() {
                let elevation = withElevation ? "," + number(point.elevation!) : ""
                try await out.add(
                    to: sink,
                    (position == 0 ? "" : ",") + "[\(number(point.longitude)),\(number(point.latitude))\(elevation)]")
            }
            try await out.add(
                to: sink,
                (line ? "]" : "") + #","type":""# + (line ? "LineString" : "Point") + #""},"properties":{"activity_type":"#)
            try await out.add(to: sink, jsonString(workout.activityType))
            let columns: [(String, (RoutePoint) -> String)] = [
                ("courses", { optional($0.course) }), ("horizontal_accuracies", { optional($0.horizontalAccuracy) }),
                ("speeds", { optional($0.speed) }), ("times", { $0.time.map { "\"\(time($0))\"" } ?? "null" }),
                ("vertical_accuracies", { optional($0.verticalAccuracy) }),
            ]
            for (key, value) in columns {
                try await out.add(to: sink, ",\"\(key)\":[")
                for (position, point) in points.enumerated() {
                    try await out.add(to: sink, (position == 0 ? "" : ",") + value(point))
                }
                try await out.add(to: sink, "]")
            }
            try await out.add(to: sink, #","workout":""# + workout.uuid.uuidString.lowercased() + #""},"type":"Feature"}"#)
        }
        try await out.add(to: sink, #"],"type":"FeatureCollection"}"#)
        try await out.finish(to: sink)
    }

    /// The whole GPX text (``writeGPX(_:name:to:)``).
    public static func gpx(_ workout: Workout, name: String? = nil) async throws -> String {
        var text = ""
        try await writeGPX(workout, name: name) { text += $0 }
        return text
    }

    /// The whole GeoJSON text (``writeGeoJSON(_:to:)``).
    public static func geoJSON(_ workout: Workout) async throws -> String {
        var text = ""
        try await writeGeoJSON(workout) { text += $0 }
        return text
    }

    /// `Running 2024-06-01 07:30 UTC`: what a track is called when the caller names none.
    public static func title(_ workout: Workout) -> String {
        let start = String(time(workout.start).prefix(16)).replacingOccurrences(of: "T", with: " ")
        return "\(HealthKitWorkoutActivities.shortName(workout.activityType)) \(start) UTC"
    }

    /// Each route's points that have a position on the globe, their other values kept only
    /// when finite; routes left without points are left out.
    public static func tracks(_ workout: Workout) -> [[RoutePoint]] {
        func finite(_ value: Double?) -> Double? { value.flatMap { $0.isFinite ? $0 : nil } }
        return workout.routes.map { route in
            route.points.compactMap { point -> RoutePoint? in
                guard point.latitude.isFinite, point.longitude.isFinite, (-90...90).contains(point.latitude),
                    (-180...180).contains(point.longitude)
                else { return nil }
                return RoutePoint(
                    time: point.time, latitude: point.latitude, longitude: point.longitude,
                    elevation: finite(point.elevation), speed: finite(point.speed), course: finite(point.course),
                    horizontalAccuracy: finite(point.horizontalAccuracy), verticalAccuracy: finite(point.verticalAccuracy))
            }
        }
        .filter { !$0.isEmpty }
    }

    private static func trackPoint(_ point: RoutePoint) -> String {
        var line = "      <trkpt lat=\"" + number(point.latitude) + "\" lon=\"" + number(point.longitude) + "\">"
        if let elevation = point.elevation { line += "<ele>" + number(elevation) + "</ele>" }
        if let time = point.time { line += "<time>" + Self.time(time) + "</time>" }
        if point.speed != nil || point.course != nil || point.horizontalAccuracy != nil || point.verticalAccuracy != nil {
            line += "<extensions>"
            if let speed = point.speed { line += "<speed>" + number(speed) + "</speed>" }
            if let course = point.course { line += "<course>" + number(course) + "</course>" }
            if let accuracy = point.horizontalAccuracy { line += "<hAcc>" + number(accuracy) + "</hAcc>" }
            if let accuracy = point.verticalAccuracy { line += "<vAcc>" + number(accuracy) + "</vAcc>" }
            line += "</extensions>"
        }
        return line + "</trkpt>\n"
    }

    /// The shortest text that reads back to the same value (`Double.description`), never in
    /// exponent form (GPX's `xsd:decimal` has none): a very small or very large value is
    /// written out in plain digits, as many as it takes.
    static func number(_ value: Double) -> String {
        let text = value.description
        guard text.contains("e") else { return text.hasSuffix(".0") ? String(text.dropLast(2)) : text }
        guard abs(value) < 1 else { return String(format: "%.0f", value) }  // ≥ 1e16: whole, exact in %.0f
        // A value below 1e-4: its leading zeros, then up to 17 significant digits — found in a
        // few tries from there, never one format a digit (5e-324 would take 340).
        let zeros = Int(-log10(abs(value)).rounded(.down))
        for digits in (zeros + 1)...(zeros + 18) {
            let plain = String(format: "%.\(digits)f", value)
            if Double(plain) == value { return plain }
        }
        return String(format: "%.\(zeros + 18)f", value)
    }

    private static func optional(_ value: Double?) -> String { value.map(number) ?? "null" }

    /// `2024-06-01T07:30:00Z`, or `…:00.250Z` when the instant is not a whole second (to the
    /// nearest millisecond: 00.9996 is 01): ``RFC3339/format(_:)``, as every instant we write.
    static func time(_ date: Date) -> String { RFC3339.format(date) }

    /// Text for XML: the five special characters escaped, characters XML 1.0 cannot hold
    /// (controls but tab and line breaks) left out.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if scalar.value < 0x20, scalar != "\t", scalar != "\n", scalar != "\r" { continue }
                if (0xFFFE...0xFFFF).contains(scalar.value) { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func jsonString(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

/// Text handed over in chunks of about ``RouteDocuments/chunkBytes``.
private struct Chunks {
    var text = ""

    mutating func add(to sink: (String) async throws -> Void, _ piece: String) async throws {
        text += piece
        if text.utf8.count >= RouteDocuments.chunkBytes {
            try await sink(text)
            text = ""
        }
    }

    mutating func finish(to sink: (String) async throws -> Void) async throws {
        guard !text.isEmpty else { return }
        try await sink(text)
        text = ""
    }
}

import Foundation
import HealthCore

/// A workout's route as the documents other tools read: GPX 1.1 (Strava, Garmin Connect,
/// Komoot and Apple's own export import it) and GeoJSON (maps on the web).
///
/// Every field a route point holds is written: position, elevation and time in GPX's own
/// elements, speed (m/s), course (degrees) and the horizontal and vertical accuracy (m) in
/// the `<extensions>` Apple Health's export uses (`speed`, `course`, `hAcc`, `vAcc`), so a
/// route written here reads back through the importer to the same points. Numbers are
/// written with the fewest digits that read back to the same `Double`; times in UTC, to
/// the millisecond when they are not whole seconds.
///
/// ```swift
/// let gpx = RouteDocuments.gpx(workout, name: "Morning run")
/// let geojson = try RouteDocuments.geoJSON(workout)
/// ```
public enum RouteDocuments {
    /// A GPX 1.1 document: one track, one segment per recorded route, in recorded order.
    /// A workout without a route gives a track without segments.
    public static func gpx(_ workout: Workout, name: String? = nil) -> String {
        var out = """
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

            """
        for points in tracks(workout) {
            out += "    <trkseg>\n"
            for point in points { out += trackPoint(point) }
            out += "    </trkseg>\n"
        }
        out += "  </trk>\n</gpx>\n"
        return out
    }

    /// A GeoJSON `FeatureCollection` with one `LineString` feature per recorded route
    /// (coordinates `[longitude, latitude]`, or `[longitude, latitude, elevation]` for every
    /// point when all have one) and the points' times, speeds, courses and accuracies as
    /// arrays in its properties, index for index (`null` where a point has none).
    public static func geoJSON(_ workout: Workout) throws -> Data {
        let features = tracks(workout).map { points in
            let withElevation = points.allSatisfy { $0.elevation != nil }
            return GeoJSONFeature(
                geometry: .init(
                    coordinates: points.map { point in
                        withElevation
                            ? [point.longitude, point.latitude, point.elevation!] : [point.longitude, point.latitude]
                    }),
                properties: .init(
                    workout: workout.uuid.uuidString.lowercased(), activityType: workout.activityType,
                    times: points.map { $0.time.map(time) }, speeds: points.map(\.speed), courses: points.map(\.course),
                    horizontalAccuracies: points.map(\.horizontalAccuracy),
                    verticalAccuracies: points.map(\.verticalAccuracy)))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(GeoJSONCollection(features: features))
    }

    /// `Running 2024-06-01 07:30 UTC`: what a track is called when the caller names none.
    public static func title(_ workout: Workout) -> String {
        "\(HealthKitWorkoutActivities.shortName(workout.activityType)) \(String(time(workout.start).prefix(16)).replacingOccurrences(of: "T", with: " ")) UTC"
    }

    /// Each route's points that have a position, its other values kept only when finite;
    /// routes left without points are left out.
    public static func tracks(_ workout: Workout) -> [[RoutePoint]] {
        func finite(_ value: Double?) -> Double? { value.flatMap { $0.isFinite ? $0 : nil } }
        return workout.routes.map { route in
            route.points.compactMap { point -> RoutePoint? in
                guard point.latitude.isFinite, point.longitude.isFinite else { return nil }
                return RoutePoint(
                    time: point.time, latitude: point.latitude, longitude: point.longitude,
                    elevation: finite(point.elevation), speed: finite(point.speed), course: finite(point.course),
                    horizontalAccuracy: finite(point.horizontalAccuracy), verticalAccuracy: finite(point.verticalAccuracy))
            }
        }
        .filter { !$0.isEmpty }
    }

    private static func trackPoint(_ point: RoutePoint) -> String {
        var line = "      <trkpt lat=\"\(number(point.latitude))\" lon=\"\(number(point.longitude))\">"
        if let elevation = point.elevation { line += "<ele>\(number(elevation))</ele>" }
        if let time = point.time { line += "<time>\(Self.time(time))</time>" }
        let extensions = [
            ("speed", point.speed), ("course", point.course), ("hAcc", point.horizontalAccuracy),
            ("vAcc", point.verticalAccuracy),
        ]
        .compactMap { name, value in value.map { "<\(name)>\(number($0))</\(name)>" } }
        if !extensions.isEmpty { line += "<extensions>\(extensions.joined())</extensions>" }
        return line + "</trkpt>\n"
    }

    /// The shortest text that reads back to the same value (`Double.description`), never in
    /// exponent form (GPX's `xsd:decimal` has none).
    static func number(_ value: Double) -> String {
        let text = value.description
        guard text.contains("e") else { return text.hasSuffix(".0") ? String(text.dropLast(2)) : text }
        // 1e-05 and the like: a plain decimal with enough digits to read back the same.
        for digits in 1...40 {
            let plain = String(format: "%.\(digits)f", value)
            if Double(plain) == value { return plain }
        }
        return String(format: "%.40f", value)
    }

    /// `2024-06-01T07:30:00Z`, or `…:00.250Z` when the instant is not a whole second.
    static func time(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        let milliseconds = Int(((seconds - whole) * 1000).rounded())
        var components = Calendar(identifier: .gregorian)
        components.timeZone = TimeZone(identifier: "UTC")!
        let parts = components.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: whole))
        let base = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!,
            parts.second!)
        return milliseconds == 0 || milliseconds == 1000 ? base + "Z" : base + String(format: ".%03dZ", milliseconds)
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

private struct GeoJSONCollection: Encodable {
    let type = "FeatureCollection"
    let features: [GeoJSONFeature]
}

private struct GeoJSONFeature: Encodable {
    struct Geometry: Encodable {
        let type = "LineString"
        let coordinates: [[Double]]
    }

    struct Properties: Encodable {
        let workout: String
        let activityType: String
        let times: [String?]
        let speeds: [Double?]
        let courses: [Double?]
        let horizontalAccuracies: [Double?]
        let verticalAccuracies: [Double?]

        enum CodingKeys: String, CodingKey {
            case workout, activityType = "activity_type", times, speeds, courses
            case horizontalAccuracies = "horizontal_accuracies", verticalAccuracies = "vertical_accuracies"
        }
    }

    let type = "Feature"
    let geometry: Geometry
    let properties: Properties
}

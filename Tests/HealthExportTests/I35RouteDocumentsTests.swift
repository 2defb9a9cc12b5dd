import Foundation
import HealthCore
import Testing

@testable import HealthExport

/// Issue 35 §3/§6, and what attacking the routes found: GPX and GeoJSON written in chunks,
/// numbers that read back exactly without an exponent, times to the nearest millisecond,
/// points off the globe left out, and names XML can hold.
@Suite struct I35RouteDocumentsTests {
    static let t0 = Date(timeIntervalSince1970: 1_710_943_200)  // 2024-03-20 14:00 UTC

    static func workout(_ points: [RoutePoint], activity: String = "HKWorkoutActivityTypeRunning") -> Workout {
        Workout(
            activityType: activity, start: t0, end: t0 + 3600, source: Source(name: "Watch"),
            routes: [WorkoutRoute(points: points)])
    }

    @Test func timesRoundToTheNearestMillisecond() {
        #expect(RouteDocuments.time(Self.t0 + 0.9996) == "2024-03-20T14:00:01Z")
        #expect(RouteDocuments.time(Self.t0 + 0.25) == "2024-03-20T14:00:00.250Z")
        #expect(RouteDocuments.time(Self.t0 - 0.0004) == "2024-03-20T14:00:00Z")
        #expect(RouteDocuments.time(Self.t0) == "2024-03-20T14:00:00Z")
    }

    @Test func numbersReadBackExactlyWithoutAnExponent() {
        for value in [5e-324, 1e-5, 2.270945, -118.232524, 1e16, 1e308, 0, -0.0, 123_456.789] {
            let text = RouteDocuments.number(value)
            #expect(!text.contains("e"), "\(value)")
            #expect(Double(text) == value, "\(value): \(text)")
        }
        #expect(RouteDocuments.number(2.5) == "2.5" && RouteDocuments.number(85) == "85")
    }

    @Test func pointsOffTheGlobeAndValuesNotFiniteAreLeftOut() async throws {
        let workout = Self.workout([
            RoutePoint(latitude: 91, longitude: 2), RoutePoint(latitude: 48, longitude: 181),
            RoutePoint(latitude: .nan, longitude: 2), RoutePoint(latitude: 48.85, longitude: 2.35, elevation: .infinity),
        ])
        let gpx = try await RouteDocuments.gpx(workout)
        #expect(gpx.components(separatedBy: "<trkpt").count == 2)
        #expect(gpx.contains(#"<trkpt lat="48.85" lon="2.35"></trkpt>"#))
        #expect(RouteDocuments.tracks(Self.workout([RoutePoint(latitude: 91, longitude: 0)])).isEmpty)
    }

    /// A route of one point is a GeoJSON Point (a LineString needs two positions).
    @Test func aOnePointRouteIsAPoint() async throws {
        let text = try await RouteDocuments.geoJSON(Self.workout([RoutePoint(latitude: 48.85, longitude: 2.35)]))
        #expect(text.contains(#"{"geometry":{"coordinates":[2.35,48.85],"type":"Point"}"#), "\(text)")
        #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [String: Any])
    }

    @Test func namesHoldOnlyWhatXMLCan() async throws {
        let gpx = try await RouteDocuments.gpx(
            Self.workout([RoutePoint(latitude: 1, longitude: 1)], activity: "Run<&>\"'\u{1}\u{8}x"))
        #expect(gpx.contains("<type>Run&lt;&amp;&gt;&quot;&apos;x</type>"))
    }

    /// 20,000 points leave in several chunks, none much past 64 KiB, which together are the
    /// document; the GeoJSON parses, its arrays line up with its coordinates.
    @Test func longRoutesAreWrittenInChunks() async throws {
        let points = (0..<20_000).map { index in
            RoutePoint(
                time: Self.t0 + Double(index), latitude: 48 + Double(index) * 1e-5, longitude: 2, elevation: 35,
                speed: index % 2 == 0 ? 3.1 : nil)
        }
        let workout = Self.workout(points)
        var chunks: [String] = []
        try await RouteDocuments.writeGPX(workout) { chunks.append($0) }
        #expect(chunks.count > 10)
        #expect(chunks.allSatisfy { $0.utf8.count < RouteDocuments.chunkBytes + 1_000 })
        #expect(chunks.joined() == (try await RouteDocuments.gpx(workout)))
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(try await RouteDocuments.geoJSON(workout).utf8)) as? [String: Any])
        let feature = try #require((json["features"] as? [[String: Any]])?.first)
        let coordinates = try #require((feature["geometry"] as? [String: Any])?["coordinates"] as? [[Double]])
        let properties = try #require(feature["properties"] as? [String: Any])
        #expect(coordinates.count == 20_000 && coordinates[1] == [2, 48.00001, 35])
        #expect((properties["speeds"] as? [Any])?.count == 20_000)
        #expect((properties["speeds"] as? [Any])?[1] is NSNull)
        #expect((properties["times"] as? [String])?.last == "2024-03-20T19:33:19Z")
        #expect(properties["activity_type"] as? String == "HKWorkoutActivityTypeRunning")
    }
}

import Foundation
import HealthCore
import HealthImportReader
import Testing

/// Issue 35, found attacking: the importer kept route points no GPS reports (a latitude of
/// 1000, an elevation of 1e308), which the server then refused, so the sync dead-lettered the
/// whole batch and every other workout in it. Such a point is left out (an impossible reading
/// removed from its point), and the read counts them.
@Suite struct I35ImplausibleRouteTests {
    @Test func pointsNoGPSReportsAreLeftOutAndCounted() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let routes = folder.appendingPathComponent("workout-routes")
        try FileManager.default.createDirectory(at: routes, withIntermediateDirectories: true)
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" \
            sourceName="Watch" startDate="2024-02-29 07:00:00 +0100" endDate="2024-02-29 07:30:00 +0100">
              <WorkoutRoute sourceName="Watch" startDate="2024-02-29 07:00:00 +0100" endDate="2024-02-29 07:30:00 +0100">
               <FileReference path="/workout-routes/route.gpx"/>
              </WorkoutRoute>
              <WorkoutRoute sourceName="Watch">
               <Location date="2024-02-29 07:00:00 +0100" latitude="48.1" longitude="2.1" altitude="35" speed="-1" course="-1"/>
               <Location date="2024-02-29 07:00:01 +0100" latitude="-95" longitude="2.1"/>
              </WorkoutRoute>
             </Workout>
            </HealthData>
            """
        let gpx = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Apple Health Export"><trk><trkseg>
            <trkpt lon="2.35" lat="48.85"><ele>35.5</ele><time>2024-02-29T06:00:00Z</time></trkpt>
            <trkpt lon="13.4" lat="1000"><ele>34</ele><time>2024-02-29T06:00:01Z</time></trkpt>
            <trkpt lon="2.355" lat="nan"><time>2024-02-29T06:00:01Z</time></trkpt>
            <trkpt lon="2.36" lat="48.86"><ele>1e308</ele><time>2024-02-29T06:00:02Z</time><extensions><speed>2.5</speed><hAcc>-7</hAcc></extensions></trkpt>
            </trkseg></trk></gpx>
            """
        try Data(xml.utf8).write(to: folder.appendingPathComponent("export.xml"))
        try Data(gpx.utf8).write(to: routes.appendingPathComponent("route.gpx"))
        let (collected, reading) = try ExportReaderTests.read(folder.appendingPathComponent("export.xml").path)
        guard case .workout(let workout) = collected.records.first else {
            Issue.record("the workout should be delivered")
            return
        }
        // The file: the point off the globe left out, the third without its elevation and
        // its accuracy of −7 m; the inline route: the −95° point left out, −1 kept ("not known").
        #expect(workout.routes[0].points.map(\.latitude) == [48.85, 48.86])
        #expect(workout.routes[0].points.map(\.elevation) == [35.5, nil])
        #expect(workout.routes[0].points[1].speed == 2.5 && workout.routes[0].points[1].horizontalAccuracy == nil)
        #expect(workout.routes[1].points.map(\.latitude) == [48.1] && workout.routes[1].points[0].speed == -1)
        // The unreadable latitude too: the point left out, the import goes on (it failed whole).
        #expect(reading.warnings[RoutePointWarning.text] == 4)
    }

    @Test func theRuleItself() {
        #expect(RoutePoint(latitude: 48, longitude: 2, elevation: 8_849).problem == nil)
        #expect(RoutePoint(latitude: 48, longitude: 2, elevation: 1e308).problem?.field == "ele")
        #expect(RoutePoint(latitude: 48, longitude: 181).problem?.field == "lon")
        #expect(RoutePoint(latitude: .nan, longitude: 2).plausible == nil)
        #expect(RoutePoint(latitude: 48, longitude: 2, course: 361).plausible?.course == nil)
        #expect(RoutePoint(latitude: 48, longitude: 2, speed: -1, course: -1).problem == nil)
    }
}

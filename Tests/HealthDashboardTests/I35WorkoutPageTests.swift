import Foundation
import HealthCore
import HealthDaily
import HealthImport
import HealthSQLite
import Testing

@testable import HealthDashboard

/// Issue 35 §4: a workout's page — its route to scale coloured by pace or heart rate, its
/// elevation profile, splits from the route, its heart rate over the zones, its statistics —
/// and the workouts panel's month of totals per activity with links to the pages.
@Suite struct I35WorkoutPageTests {
    static let jshrake = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/apple-health/jshrake-healthkit-to-sqlite/export.zip").path

    static func badNumbers(_ html: String) -> [String] {
        ["NaN", "nan,", "inf", "undefined", "null"].filter { html.contains($0) }
    }

    @Test func aRealWalksPage() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("workout-page-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try HealthDatabase(path: folder.appendingPathComponent("health.sqlite").path)
        _ = try await HealthImporter(database: database).run(path: Self.jshrake)
        let walk = try #require(
            try await database.store.workouts(overlapping: DateInterval(start: .distantPast, end: .distantFuture)).first)
        let assembler = DashboardAssembler(store: database.store, settings: .init(), now: { Date() })
        let data = try #require(try await assembler.workoutPage(walk.uuid))
        // Clock times in the walk's own zone (its HKTimeZone), every route point, splits from them.
        #expect(data.zone.identifier == "America/Los_Angeles" && data.points.count == 644)
        let full = try #require(try await database.store.workout(walk.uuid))
        #expect(data.splits == RouteSplits.splits(routes: full.routes.map(\.points)) && !data.splits.isEmpty)
        let html = WorkoutPage(data: data, backPath: "/").html()
        #expect(Self.badNumbers(html).isEmpty, "\(Self.badNumbers(html))")
        #expect(html.contains("<h1>Walking, Mon 24 Feb 2020, 09:44</h1>"))
        #expect(html.contains("id=\"route-map-title\"") && html.contains("<circle class=\"start\""))
        // Five fifths of pace, each drawn.
        for fifth in 0..<5 { #expect(html.contains("route-line pace-\(fifth)")) }
        #expect(html.contains("id=\"chart-elevation\"") && html.contains("<line class=\"scale\""))
        #expect(html.components(separatedBy: "<tr><th scope=\"row\">").count - 1 >= data.splits.count)
        // What the walk recorded: 134.432 Cal of active energy, 1.402 mi.
        #expect(html.contains("<dt>Distance</dt><dd>2.26 km</dd>") && html.contains("<dt>Active energy</dt><dd>134 kcal</dd>"))
        #expect(html.contains("No heart-rate readings during this workout"))
        // HKElevationAscended="217 cm"; each split's time as minutes and seconds.
        #expect(html.contains("<dt>Elevation gain</dt><dd>2 m</dd>"))
        #expect(html.contains("<td>\(WorkoutPage.clock(data.splits[0].seconds))</td>"))
        // Coloured by heart rate without a reading: by pace, as said.
        let heartless = WorkoutPage(data: data, colouring: "heart").html()
        #expect(heartless.contains("route-line pace-") && !heartless.contains("route-line heart-"))

        // Without activity: no route, no splits, no distance, no segments; said.
        var settings = DashboardAssembler.Settings()
        settings.withheld = [.activity]
        let private_ = try #require(
            try await DashboardAssembler(store: database.store, settings: settings, now: { Date() }).workoutPage(walk.uuid))
        #expect(private_.points.isEmpty && private_.splits.isEmpty && private_.workout.events.isEmpty)
        let hidden = WorkoutPage(data: private_).html()
        #expect(!hidden.contains("route-map") && !hidden.contains("Distance") && hidden.contains("The route: not shown"))
        #expect(!hidden.contains("HKElevationAscended") && !hidden.contains("Elevation gain"))
        // Without workouts: no page.
        settings.withheld = [.workouts]
        #expect(
            try await DashboardAssembler(store: database.store, settings: settings, now: { Date() }).workoutPage(walk.uuid) == nil
        )
    }

    /// A 30-minute run with a reading every 10 s rising from 100 to 179 bpm, and a reading of
    /// 185 three months before.
    @Test func aRunsHeartRateOverItsZones() async throws {
        let start = ISO8601DateFormatter().date(from: "2024-06-01T07:00:00Z")!
        let run = Sample(
            type: .workout, start: start, end: start + 1_800, value: .category("HKWorkoutActivityTypeRunning"),
            source: Source(name: "Watch"), metadata: [MetadataEntry(key: "HKTimeZone", value: "Europe/Paris")])
        let readings = (0..<180).map { index in
            Sample(
                type: .heartRate, start: start + Double(index) * 10, end: start + Double(index) * 10,
                value: .quantity(100 + Double(index) * 79 / 179, unit: "count/min"), source: Source(name: "Watch"))
        }
        // A stray reading no heart beats (399 bpm) does not set the zones.
        let stray = Sample(
            type: .heartRate, start: start - 30 * 86_400, end: start - 30 * 86_400, value: .quantity(399, unit: "count/min"),
            source: Source(name: "Watch"))
        let earlier = Sample(
            type: .heartRate, start: start - 90 * 86_400, end: start - 90 * 86_400, value: .quantity(185, unit: "count/min"),
            source: Source(name: "Watch"))
        let store = InMemoryHealthStore(samples: [run, earlier, stray] + readings)
        let assembler = DashboardAssembler(store: store, settings: .init(), now: { Date() })
        let given = try #require(try await assembler.workoutPage(run.uuid, maximumHeartRate: 190))
        let heart = try #require(given.heart)
        #expect(given.maximumSource == "given" && heart.zones?.map(\.fromBpm) == [95, 114, 133, 152, 171])
        #expect(heart.readings.count == 180 && given.zone.identifier == "Europe/Paris")
        let html = WorkoutPage(data: given, colouring: "heart").html()
        #expect(Self.badNumbers(html).isEmpty, "\(Self.badNumbers(html))")
        #expect(html.contains("id=\"chart-heart\"") && html.contains("class=\"zone-3\"") && html.contains("class=\"zone-5\""))
        #expect(html.contains("Zones of a maximum of 190 bpm") && html.contains("09:00"))
        // Without a maximum: the highest reading of the year before, and the page says so.
        let observed = try #require(try await assembler.workoutPage(run.uuid))
        #expect(observed.maximumSource == "observed" && observed.heart?.maximumHeartRate == 185)
        #expect(WorkoutPage(data: observed).html().contains("the highest heart rate recorded in the year before"))
        // Without heart: no curve, said.
        var settings = DashboardAssembler.Settings()
        settings.withheld = [.heart]
        let hidden = try #require(
            try await DashboardAssembler(store: store, settings: settings, now: { Date() }).workoutPage(run.uuid))
        #expect(hidden.heart == nil && WorkoutPage(data: hidden).html().contains("The heart rate: not shown"))
    }

    @Test func thePanelTotalsTheMonthAndLinksEachWorkout() async throws {
        let database = try await GeneratedStore.shared.value
        let data = try await DashboardAssembler(store: database.store, settings: GeneratedStore.settings(), now: { Date() })
            .assemble(today: GeneratedStore.today)
        let running = try #require(data.workoutTotals.first { $0.activity == "Running" })
        // The totals are those of the month's workouts, counted here from the store.
        let end = try #require(data.days.last?.utcDayEnd)
        let month = try await database.store.workouts(overlapping: DateInterval(start: end - 30 * 86_400, end: end))
        #expect(running.count == month.filter { $0.activityType == "HKWorkoutActivityTypeRunning" }.count)
        #expect(running.count > 0 && (running.distanceKm ?? 0) > 0)
        let linked = DashboardPage(data: data, workoutPath: "/dashboard/workouts/").html()
        #expect(linked.contains("The last 30 days, per activity"))
        let first = try #require(data.workouts.first?.id)
        #expect(linked.contains("<a href=\"/dashboard/workouts/\(first.uuidString.lowercased())\">"))
        #expect(!DashboardPage(data: data).html().contains("/dashboard/workouts/"))
    }

    /// Found attacking: a route across the antimeridian drawn across the whole map, an
    /// elevation gain of 1e308 m printed in 309 digits, a scale bar of a route of one spot
    /// 300,000 units wide.
    @Test func oddRoutesDrawSensibly() throws {
        let t0 = Date(timeIntervalSince1970: 1_717_228_800)
        let across = (0..<20).map { (index: Int) -> RoutePoint in
            let step = Double(index % 10) * 0.005
            let longitude: Double = index < 10 ? 179.95 + step : -180 + step
            return RoutePoint(time: t0 + Double(index) * 10, latitude: -17, longitude: longitude)
        }
        let map = try #require(WorkoutCharts.routeMap(points: across, colouring: .pace, heart: [], metres: 1_000))
        let xs = map.svg.components(separatedBy: "points=\"").dropFirst().flatMap { part in
            part.prefix { $0 != "\"" }.split(separator: " ").compactMap { Double($0.split(separator: ",")[0]) }
        }
        #expect(zip(xs, xs.dropFirst()).allSatisfy { abs($0 - $1) < 100 })
        #expect(WorkoutTotals.metres("1e308 m") == nil && WorkoutTotals.metres("3120 cm") == 31.2)
        let spot = Array(repeating: RoutePoint(time: t0, latitude: 48, longitude: 2), count: 50)
        let still = try #require(WorkoutCharts.routeMap(points: spot, colouring: .pace, heart: [], metres: 0))
        #expect(!still.svg.contains("class=\"scale\""))
    }
}

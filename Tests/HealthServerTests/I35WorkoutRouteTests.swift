import Foundation
import HealthCore
import HealthImport
import HealthServer
import HealthServerRecords
import HealthWire
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HealthImportReader

/// Issue 35 §3: `GET /v1/workouts`, `/v1/workouts/{id}` and `/route` serve a real export's
/// workout (jshrake's iOS 16 walk) as it recorded itself: its statistics, events, metadata and
/// every point of its GPX route, which the GPX answer gives back field for field.
@Suite struct I35WorkoutRouteTests {
    static let export = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/apple-health/jshrake-healthkit-to-sqlite/export.zip").path

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// Alice's store with the fixture imported; the walk's UUID.
    static func walk(_ harness: ServerHarness) async throws -> UUID {
        let alice = try #require(harness.ids["alice"])
        return try await harness.repositories().writing(alice) { store in
            _ = try await store.importExport(path: export, options: HealthImporter.Options(), progress: { _ in })
            let workouts = try await store.queries.workouts(
                overlapping: DateInterval(start: Date(timeIntervalSince1970: 0), duration: 2e9))
            #expect(workouts.count == 1)
            return try #require(workouts.first?.uuid)
        }
    }

    @Test(arguments: ServerBackend.enabled) func aRealExportsWorkoutAsItRecordedItself(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let uuid = try await Self.walk(harness)
        let id = uuid.uuidString.lowercased()
        try await harness.app.test(.router) { client in
            // 2020-02-24 09:44:00 -0800 in Los Angeles: that local day, not the UTC one after.
            try await client.execute(
                uri: "/v1/workouts?from=2020-02-24&to=2020-02-24&tz=America/Los_Angeles", method: .get,
                headers: harness.headers("alice")
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.init("HealthPipe-Withheld")!] == nil)
                let list = try Self.decoder().decode(WorkoutListAnswer.self, from: Data(response.body.readableBytesView))
                let walk = try #require(list.workouts.first)
                #expect(list.workouts.count == 1)
                #expect(walk.uuid == uuid)
                #expect(walk.activityType == "HKWorkoutActivityTypeWalking" && walk.activity == "Walking")
                #expect(walk.start == ISO8601DateFormatter().date(from: "2020-02-24T17:44:00Z"))
                #expect(walk.end == ISO8601DateFormatter().date(from: "2020-02-24T18:18:11Z"))
                // duration="34.18067507346471" durationUnit="min"
                #expect(walk.durationSeconds == 34.18067507346471 * 60)
                #expect(walk.source == "Watch" && walk.device?.name == "Apple Watch")
                // Its HKTimeZone (the export's offsets are those of the export's moment).
                #expect(walk.timeZone == "America/Los_Angeles")
                #expect(
                    walk.statistics.map { [$0.type, $0.unit ?? ""] } == [
                        ["HKQuantityTypeIdentifierActiveEnergyBurned", "Cal"],
                        ["HKQuantityTypeIdentifierDistanceWalkingRunning", "mi"],
                        ["HKQuantityTypeIdentifierBasalEnergyBurned", "Cal"],
                    ])
                #expect(walk.statistics.map(\.sum) == [134.432, 1.402, 56.4005])
                #expect(walk.statistics.map(\.kind) == [.energy, .activity, .energy])
                #expect(walk.totalEnergyBurned == nil && walk.totalDistance == nil)  // iOS 16: statistics only
            }
            // The UTC day before holds none; a type filter and a minimum length choose.
            for (query, count) in [
                ("from=2020-02-23&to=2020-02-23&tz=America/Los_Angeles", 0), ("from=2020-02-24&to=2020-02-24&type=walking", 1),
                ("from=2020-02-24&to=2020-02-24&type=HKWorkoutActivityTypeRunning", 0),
                ("from=2020-02-24&to=2020-02-24&min_minutes=34", 1), ("from=2020-02-24&to=2020-02-24&min_minutes=35", 0),
            ] {
                try await client.execute(uri: "/v1/workouts?\(query)", method: .get, headers: harness.headers("alice")) {
                    response in
                    let list = try Self.decoder().decode(WorkoutListAnswer.self, from: Data(response.body.readableBytesView))
                    #expect(list.workouts.count == count, "\(query)")
                }
            }
            try await client.execute(uri: "/v1/workouts/\(id)", method: .get, headers: harness.headers("alice")) { response in
                #expect(response.status == .ok)
                let detail = try Self.decoder().decode(WorkoutDetailAnswer.self, from: Data(response.body.readableBytesView))
                #expect(detail.events.map(\.type) == Array(repeating: "HKWorkoutEventTypeSegment", count: 4))
                #expect(
                    detail.events.map(\.duration) == [16.7133048693339, 19.31871306101481, 14.06655611991882, 11.46114792823792])
                #expect(detail.events.allSatisfy { $0.durationUnit == "min" })
                #expect(detail.metadata["HKTimeZone"] == "America/Los_Angeles")
                #expect(detail.metadata["HKElevationAscended"] == "217 cm")
                #expect(detail.metadata["Test Entry"] == "FooBar")
                #expect(detail.routes.map(\.points) == [644])
                #expect(detail.routes.first?.filePath == "/workout-routes/route_2020-02-24_10.18am.gpx")
                #expect(detail.routes.first?.source == "Watch")
            }
            // The GPX answer reads back to the export's own GPX file, point for point, every field.
            let original = try Self.exportGPXPoints()
            #expect(original.count == 644)
            try await client.execute(uri: "/v1/workouts/\(id)/route", method: .get, headers: harness.headers("alice")) {
                response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/gpx+xml")
                let points = try GPXReader.points(Data(response.body.readableBytesView), name: "answer.gpx")
                #expect(points == original)
            }
            try await client.execute(
                uri: "/v1/workouts/\(id)/route?format=geojson", method: .get, headers: harness.headers("alice")
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/geo+json")
                let json = try #require(
                    try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
                let features = try #require(json["features"] as? [[String: Any]])
                let geometry = try #require(features.first?["geometry"] as? [String: Any])
                let coordinates = try #require(geometry["coordinates"] as? [[Double]])
                #expect(coordinates.count == 644)
                #expect(coordinates.first == [-118.232524, 34.045088, 85.651855])
                let properties = try #require(features.first?["properties"] as? [String: Any])
                #expect((properties["times"] as? [String])?.first == "2020-02-24T18:00:45Z")
                #expect((properties["speeds"] as? [Double])?.first == 1.154731)
            }
            // Bob has no such workout (Alice's id is not his): 404, as for an id nobody has.
            for uri in ["/v1/workouts/\(id)", "/v1/workouts/\(id)/route", "/v1/workouts/\(UUID().uuidString)"] {
                try await client.execute(uri: uri, method: .get, headers: harness.headers("bob")) { response in
                    #expect(response.status == .notFound, "\(uri)")
                }
            }
            // A zone name cut at a NUL byte by Foundation is no zone.
            try await client.execute(
                uri: "/v1/workouts?from=2020-02-24&to=2020-02-24&tz=Asia/Tokyo%00x", method: .get,
                headers: harness.headers("alice")
            ) { response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(uri: "/v1/workouts/not-a-uuid", method: .get, headers: harness.headers("alice")) {
                response in
                #expect(response.status == .badRequest)
            }
            try await client.execute(
                uri: "/v1/workouts/\(id)/route?format=kml", method: .get, headers: harness.headers("alice")
            ) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    /// The walk's heart rate from the readings of its span (17:44:00–18:18:11 UTC): 90 bpm
    /// from 17:44:00 for 5 minutes, 150 bpm from 17:49:00 for the 10-minute cap, a reading
    /// after the walk left out. Mean (90 × 300 + 150 × 600) / 900 = 130; with max_hr 180:
    /// 90 = 50 % (zone 1, 300 s), 150 = 83.3 % (zone 4, 600 s).
    @Test(arguments: ServerBackend.enabled) func theWalksHeartRateAndZones(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let uuid = try await Self.walk(harness)
        func reading(_ time: String, _ bpm: Double) -> HealthRecord {
            let instant = ISO8601DateFormatter().date(from: time)!
            return .sample(
                Sample(
                    type: .heartRate, start: instant, end: instant, value: .quantity(bpm, unit: "count/min"),
                    source: Source(name: "Watch")))
        }
        try await harness.repositories().writing(try #require(harness.ids["alice"])) { store in
            _ = try await store.apply([
                .records([
                    reading("2020-02-24T17:44:00Z", 90), reading("2020-02-24T17:49:00Z", 150),
                    reading("2020-02-24T18:30:00Z", 60),
                ])
            ])
        }
        try await harness.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/workouts/\(uuid.uuidString)/heart-rate?max_hr=180", method: .get, headers: harness.headers("alice")
            ) { response in
                #expect(response.status == .ok)
                let heart = try Self.decoder().decode(
                    WorkoutHeartRateAnswer.self, from: Data(response.body.readableBytesView))
                #expect(heart.readings.map(\.bpm) == [90, 150])
                #expect(heart.meanBpm == 130 && heart.minimumBpm == 90 && heart.maximumBpm == 150)
                #expect(heart.zones?.map(\.seconds) == [300, 0, 0, 600, 0])
                #expect(heart.maxHeartRate == 180 && heart.belowZonesSeconds == 0)
            }
            try await client.execute(
                uri: "/v1/workouts/\(uuid.uuidString)/heart-rate?max_hr=99", method: .get, headers: harness.headers("alice")
            ) { response in
                #expect(response.status == .badRequest)
            }
        }
    }

    /// A scoped token with workouts alone sees the walk without its energy and distance (the
    /// header names them); one without workouts gets a 403.
    @Test(arguments: ServerBackend.enabled) func aWorkoutsOnlyTokenSeesNoEnergyOrDistance(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let uuid = try await Self.walk(harness)
        let alice = try #require(harness.ids["alice"])
        let (_, workoutsOnly) = try await harness.store.addToken(
            owner: "alice", name: "coach", readTypes: [.workouts], writeTypes: [])
        let (_, stepsOnly) = try await harness.store.addToken(
            owner: "alice", name: "steps", readTypes: [.steps], writeTypes: [])
        try await harness.store.saveConsent(
            Consent(granted: Set(HealthDataCategory.allCases), denied: [], decidedAt: Date()), userID: alice)
        try await harness.app.test(.router) { client in
            var headers: HTTPFields = [.authorization: "Bearer \(workoutsOnly.text)"]
            for uri in ["/v1/workouts?from=2020-02-24&to=2020-02-24", "/v1/workouts/\(uuid.uuidString)"] {
                try await client.execute(uri: uri, method: .get, headers: headers) { response in
                    #expect(response.status == .ok, "\(uri)")
                    #expect(response.headers[.init("HealthPipe-Withheld")!] == "energy,activity", "\(uri)")
                    let body = String(buffer: response.body)
                    #expect(!body.contains("Energy") && !body.contains("Distance") && !body.contains("134.432"), "\(uri)")
                    // Metadata of those kinds too: average METs (energy), elevation (activity).
                    #expect(!body.contains("METs") && !body.contains("Elevation"), "\(uri)")
                }
            }
            // A route tells the distance and the pace: it needs activity too.
            try await client.execute(uri: "/v1/workouts/\(uuid.uuidString)/route", method: .get, headers: headers) {
                response in
                #expect(response.status == .forbidden)
                #expect(String(buffer: response.body).contains("activity"))
            }
            try await client.execute(uri: "/v1/workouts/\(uuid.uuidString)/heart-rate", method: .get, headers: headers) {
                response in
                #expect(response.status == .forbidden)
            }
            headers = [.authorization: "Bearer \(stepsOnly.text)"]
            for uri in [
                "/v1/workouts?from=2020-02-24&to=2020-02-24", "/v1/workouts/\(uuid.uuidString)",
                "/v1/workouts/\(uuid.uuidString)/route",
            ] {
                try await client.execute(uri: uri, method: .get, headers: headers) { response in
                    #expect(response.status == .forbidden, "\(uri)")
                }
            }
        }
    }

    /// Found reviewing: an event's metadata of a kind the reader may not see (a lap's
    /// length) was given whole; it is left out and named, as the workout's own.
    @Test func eventMetadataOfAWithheldKindIsLeftOut() {
        let start = Date(timeIntervalSince1970: 1_717_228_800)
        let workout = Workout(
            activityType: "HKWorkoutActivityTypeSwimming", start: start, end: start + 1_800, source: Source(name: "Watch"),
            events: [
                // A marker: a lap itself tells the pace, and a reader without activity gets none.
                WorkoutEvent(
                    type: "HKWorkoutEventTypeMarker", date: start + 60,
                    metadata: [MetadataEntry(key: "HKLapLength", value: "50 m"), MetadataEntry(key: "Note", value: "x")])
            ])
        let detail = WorkoutDetailAnswer(workout, readable: [.workouts])
        #expect(detail.events.first?.metadata == ["Note": "x"])
        #expect(WorkoutSummaryWire.withheld(workout, readable: [.workouts]) == [.activity])
        #expect(WorkoutDetailAnswer(workout, readable: [.workouts, .activity]).events.first?.metadata.count == 2)
    }

    /// The route file inside the fixture's zip, read by the importer's own GPX reader.
    static func exportGPXPoints() throws -> [RoutePoint] {
        let reader = try AppleExportReader(path: export)
        var points: [RoutePoint] = []
        _ = try reader.read { batch, _ in
            for case .workout(let workout) in batch { points += workout.routes.flatMap(\.points) }
        }
        return points
    }

    /// Found attacking: other apps' metadata keys told a workouts-only reader the heart rate,
    /// the climb and the energy (only Apple's spellings were recognised).
    @Test func otherAppsMetadataKeysHaveTheirKinds() {
        for (key, kind) in [
            ("Average Heart Rate", HealthDataCategory.heart), ("avg_hr", .heart), ("HR_avg", .heart), ("Avg Pulse", .heart),
            ("Avg Pace", .activity), ("Total Ascent", .activity), ("Km", .activity), ("Strides", .activity),
            ("Kilojoules", .energy), ("HKPhysicalEffort", .energy), ("HKAverageMETs", .energy),
            ("HKElevationAscended", .activity), ("HKLapLength", .activity), ("HKMaximumHeartRate", .heart),
        ] {
            #expect(HealthDataCategory(workoutMetadataKey: key) == kind, "\(key)")
        }
        for key in ["HKTimeZone", "HKIndoorWorkout", "HKWeatherTemperature", "HKWeatherHumidity", "HAEWorkoutID", "Note"] {
            #expect(HealthDataCategory(workoutMetadataKey: key) == nil, "\(key)")
        }
    }
}

import Foundation
import HealthCore
import HealthImport
import HealthSQLite
import HealthServer
import HealthServerRecords
import HealthSync
import HealthWire
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 35 §3: a workout travels whole through the sync — its totals, events, statistics,
/// metadata and every route point reach the server as the device stores them — and deleting
/// it on the device deletes it, route and all, on the server. (Before, a workout went as its
/// sample row: the server's copy had no events, statistics or route.)
@Suite struct I35WorkoutSyncTests {
    /// What must arrive: everything the wire carries of a workout (the sample's creation date
    /// and offset are not on the wire, for any sample).
    struct Carried: Equatable {
        var activity: String
        var span: DateInterval
        var duration: Double?
        var durationUnit: String?
        var totals: [Double?]
        var metadata: [MetadataEntry]
        var events: [WorkoutEvent]
        var statistics: [WorkoutStatistic]
        var routes: [WorkoutRoute]
        var kept: [RawElement]

        init(_ workout: Workout) {
            activity = workout.activityType
            span = DateInterval(start: workout.start, end: workout.end)
            duration = workout.duration
            durationUnit = workout.durationUnit
            totals = [workout.totalEnergyBurned, workout.totalDistance]
            // Keys repeat in exports; the wire keeps the last of each, sorted.
            metadata = Dictionary(workout.metadata.map { ($0.key, $0.value) }) { $1 }.sorted { $0.key < $1.key }
                .map { MetadataEntry(key: $0.key, value: $0.value) }
            events = workout.events
            statistics = workout.statistics
            routes = workout.routes.map { route in
                var route = route
                route.metadata = route.metadata.sorted { $0.key < $1.key }
                return route
            }
            kept = workout.extras
        }
    }

    @Test(arguments: ServerBackend.enabled) func aWorkoutTravelsWholeAndItsDeletionTakesItsRoute(
        _ backend: ServerBackend
    )
        async throws
    {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let device = try HealthDatabase(path: harness.folder.appendingPathComponent("device.sqlite").path)
        _ = try await HealthImporter(database: device).run(path: I35WorkoutRouteTests.export)
        let everything = DateInterval(start: Date(timeIntervalSince1970: 0), duration: 2e9)
        let listed = try #require(try await device.store.workouts(overlapping: everything).first)
        let onDevice = try #require(try await device.store.workout(listed.uuid))
        #expect(onDevice.routes.first?.points.count == 644 && onDevice.events.count == 4)
        try await harness.app.test(.live) { client in
            let engine = try await DeviceSync(harness, port: client.port).engine(device.store) { [.workout] }
            let first = try await engine.runOnce()
            #expect(first.deadLetters == 0 && first.added == 1)
            let server = try await harness.healthStore("alice")
            let arrived = try #require(try await server.workout(onDevice.uuid))
            #expect(Carried(arrived) == Carried(onDevice))
            #expect(arrived.statistics.map(\.sum) == [134.432, 1.402, 56.4005])

            // Deleted on the device: gone on the server, with its route.
            _ = try await device.store.delete(uuids: [onDevice.uuid])
            let second = try await engine.runOnce()
            #expect(second.deleted == 1)
            #expect(try await server.workout(onDevice.uuid) == nil)
            #expect(try await server.workouts(overlapping: everything).isEmpty)
            if backend == .sqlite {
                let file = harness.folder.appendingPathComponent("users/\(harness.ids["alice"]!).sqlite").path
                let counts = try HealthDatabase(path: file).counts()
                for table in ["workout", "workout_event", "workout_statistic", "workout_route", "route_point"] {
                    #expect(counts[table] == 0, "\(table)")
                }
            }
        }
    }

    /// `POST /v1/samples` takes a workout whole too; details on another type, a point off the
    /// globe or a number that is not finite are 422s naming the field.
    @Test(arguments: ServerBackend.enabled) func postedWorkoutsAreCheckedField(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let uuid = UUID()
        @Sendable func body(_ workout: String, type: String = "HKWorkoutTypeIdentifier") -> String {
            """
            {"samples": [{"uuid": "\(uuid.uuidString)", "type": "\(type)", "start": "2024-06-01T07:00:00Z",
              "end": "2024-06-01T07:30:00Z", "value_text": "HKWorkoutActivityTypeRunning", "source": "Watch",
              "workout": \(workout)}]}
            """
        }
        let good = """
            {"duration": 30, "duration_unit": "min", "statistics": [{"type": "HKQuantityTypeIdentifierActiveEnergyBurned",
             "sum": 321.5, "unit": "kcal"}], "events": [{"type": "HKWorkoutEventTypePause", "date": "2024-06-01T07:10:00Z"}],
             "routes": [{"points": [{"lat": 48.85, "lon": 2.35, "time": "2024-06-01T07:00:00Z"},
                                    {"lat": 48.86, "lon": 2.36, "time": "2024-06-01T07:00:05Z", "speed": 2.5}]}]}
            """
        try await harness.app.test(.router) { client in
            for (key, text, type, pointer) in [
                (
                    "w1", #"{"routes": [{"points": [{"lat": 91, "lon": 2}]}]}"#, "HKWorkoutTypeIdentifier",
                    "/samples/0/workout/routes/0/points/0/lat"
                ),
                ("w2", #"{"duration": 30}"#, "HKQuantityTypeIdentifierStepCount", "/samples/0/workout"),
                ("w3", #"{"statistics": [{"type": "steps", "sum": 1e999}]}"#, "HKWorkoutTypeIdentifier", ""),
            ] {
                try await client.execute(
                    uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: key),
                    body: ByteBuffer(string: body(text, type: type))
                ) { response in
                    #expect(response.status == .unprocessableContent || response.status == .badRequest, "\(key)")
                    if !pointer.isEmpty { #expect(String(buffer: response.body).contains(pointer), "\(key)") }
                }
            }
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "ok"),
                body: ByteBuffer(string: body(good))
            ) { response in
                #expect(response.status == .ok)
            }
        }
        let stored = try #require(try await harness.healthStore("alice").workout(uuid))
        #expect(stored.activityType == "HKWorkoutActivityTypeRunning" && stored.duration == 30)
        #expect(stored.statistics.map(\.sum) == [321.5] && stored.events.map(\.type) == ["HKWorkoutEventTypePause"])
        #expect(stored.routes.first?.points.map(\.speed) == [nil, 2.5])
    }
}

/// Issue 35 §3's last clause: a correlation travels with its members — a blood pressure's
/// systolic and diastolic readings linked to it on the server as on the device — and its
/// deletion takes them. (Before, the correlation went as its row and the readings as theirs,
/// the link between them not at all: the server's blood pressure had no readings.)
@Suite struct I35CorrelationSyncTests {
    static let export = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/apple-health/rinoshiyo-apple-health-mcp-server/sample_export.xml").path
    static let everything = DateInterval(start: Date(timeIntervalSince1970: 0), duration: 2e9)

    /// A device's store with rinoshiyo's export imported, and its blood pressure.
    static func device(_ harness: ServerHarness) async throws -> (HealthDatabase, (correlation: Sample, members: [Sample])) {
        let device = try HealthDatabase(path: harness.folder.appendingPathComponent("device.sqlite").path)
        _ = try await HealthImporter(database: device).run(path: export)
        let onDevice = try #require(try await device.store.correlations(of: .bloodPressure, overlapping: everything).first)
        return (device, onDevice)
    }

    @Test(arguments: ServerBackend.enabled) func aBloodPressureTravelsWithItsReadings(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let (device, onDevice) = try await Self.device(harness)
        let everything = Self.everything
        #expect(onDevice.members.count == 2)
        try await harness.app.test(.live) { client in
            let stored = try await device.store.storedSampleTypes()
            let engine = try await DeviceSync(harness, port: client.port).engine(device.store) { stored }
            let first = try await engine.runOnce()
            #expect(first.deadLetters == 0)
            let server = try await harness.healthStore("alice")
            let arrived = try await server.correlations(of: .bloodPressure, overlapping: everything)
            #expect(arrived.count == 1)
            #expect(arrived.first?.correlation.uuid == onDevice.correlation.uuid)
            #expect(arrived.first?.members.map(\.uuid) == onDevice.members.map(\.uuid))
            #expect(arrived.first?.members.compactMap(\.value.number).sorted() == [76, 118])
            // Each reading once on the server, as on the device.
            let systolic = try await server.samples(
                of: SampleType("HKQuantityTypeIdentifierBloodPressureSystolic"), overlapping: everything)
            let deviceSystolic = try await device.store.samples(
                of: SampleType("HKQuantityTypeIdentifierBloodPressureSystolic"), overlapping: everything)
            let serverIDs: Set<UUID> = Set(systolic.map(\.uuid))
            let deviceIDs: Set<UUID> = Set(deviceSystolic.map(\.uuid))
            #expect(serverIDs == deviceIDs && systolic.count == deviceSystolic.count)

            // Deleted on the device, with its readings: gone on the server too.
            _ = try await device.store.delete(uuids: [onDevice.correlation.uuid])
            _ = try await engine.runOnce()
            #expect(try await server.correlations(of: .bloodPressure, overlapping: everything).isEmpty)
            let left = try await server.samples(
                of: SampleType("HKQuantityTypeIdentifierBloodPressureSystolic"), overlapping: everything)
            #expect(Set(left.map(\.uuid)).isDisjoint(with: onDevice.members.map(\.uuid)))
        }
    }
}

extension I35CorrelationSyncTests {
    /// The readings synced first by their own types' feeds (a device that synced before
    /// correlations carried members), the correlation after: found by content and linked,
    /// not stored twice.
    @Test(arguments: ServerBackend.enabled) func readingsAlreadyThereAreLinked(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let (device, onDevice) = try await Self.device(harness)
        let everything = Self.everything
        let readings = [
            SampleType("HKQuantityTypeIdentifierBloodPressureSystolic"),
            SampleType("HKQuantityTypeIdentifierBloodPressureDiastolic"),
        ]
        try await harness.app.test(.live) { client in
            let sync = try await DeviceSync(harness, port: client.port)
            for types in [readings, readings + [.bloodPressure]] {
                #expect(try await sync.engine(device.store) { types }.runOnce().deadLetters == 0)
            }
            let server = try await harness.healthStore("alice")
            let arrived = try #require(try await server.correlations(of: .bloodPressure, overlapping: everything).first)
            #expect(Set(arrived.members.map(\.uuid)) == Set(onDevice.members.map(\.uuid)))
            let systolic = try await server.samples(of: readings[0], overlapping: everything)
            let deviceSystolic = try await device.store.samples(of: readings[0], overlapping: everything)
            #expect(systolic.count == deviceSystolic.count)
        }
    }
}

/// `POST /v1/samples` takes a correlation with its members too, each checked.
@Suite struct I35PostedCorrelationTests {
    @Test(arguments: ServerBackend.enabled) func membersAreCheckedAndLinked(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let uuid = UUID()
        @Sendable func reading(_ type: String, _ value: Double) -> String {
            """
            {"uuid": "\(UUID().uuidString)", "type": "\(type)", "start": "2024-06-01T07:00:00Z",
             "end": "2024-06-01T07:00:00Z", "value": \(value), "unit": "mmHg", "source": "Cuff"}
            """
        }
        @Sendable func body(type: String = "HKCorrelationTypeIdentifierBloodPressure", members: String) -> String {
            """
            {"samples": [{"uuid": "\(uuid.uuidString)", "type": "\(type)", "start": "2024-06-01T07:00:00Z",
              "end": "2024-06-01T07:00:00Z", "source": "Cuff", "members": \(members)}]}
            """
        }
        let systolic = reading("HKQuantityTypeIdentifierBloodPressureSystolic", 121)
        let diastolic = reading("HKQuantityTypeIdentifierBloodPressureDiastolic", 79)
        try await harness.app.test(.router) { client in
            for (key, text, pointer) in [
                ("c1", body(type: "HKQuantityTypeIdentifierStepCount", members: "[\(systolic)]"), "/samples/0/members"),
                ("c2", body(members: "[]"), "/samples/0/members"),
                (
                    "c3", body(members: "[\(reading("HKQuantityTypeIdentifierBloodPressureSystolic", 1e6))]"),
                    "/samples/0/members/0/value"
                ),
                ("c4", body(members: "[\(body(members: "[\(systolic)]").dropFirst(13).dropLast(2))]"), "/samples/0/members/0"),
            ] {
                try await client.execute(
                    uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: key),
                    body: ByteBuffer(string: text)
                ) { response in
                    #expect(response.status == .unprocessableContent, "\(key)")
                    #expect(String(buffer: response.body).contains(pointer), "\(key): \(String(buffer: response.body))")
                }
            }
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "ok"),
                body: ByteBuffer(string: body(members: "[\(systolic), \(diastolic)]"))
            ) { response in
                #expect(response.status == .ok)
            }
        }
        let everything = DateInterval(start: Date(timeIntervalSince1970: 0), duration: 2e9)
        let stored = try await harness.healthStore("alice").correlations(of: .bloodPressure, overlapping: everything)
        #expect(stored.map(\.correlation.uuid) == [uuid])
        #expect(stored.first?.members.compactMap(\.value.number).sorted() == [79, 121])
    }
}

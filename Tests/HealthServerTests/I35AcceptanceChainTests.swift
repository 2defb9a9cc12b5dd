import Foundation
import HealthCore
import HealthImport
import HealthKitCompat
import HealthKitQuerying
import HealthSQLite
import HealthServer
import HealthServerRecords
import HealthSync
import HealthWire
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HealthImportReader

/// Issue 35's acceptance, end to end: a real export's workout imported, read through
/// HealthKit's API (`HKHealthStore`, `HealthKitQuerying`: what an iPhone's sync client
/// reads), synced to the server, and read back by `GET /v1/workouts/{uuid}` and `/route` as
/// GPX — every statistic, event and route point the export holds the same at the end.
@Suite struct I35AcceptanceChainTests {
    @Test(arguments: ServerBackend.enabled) func exportToHealthKitToSyncToServerToGPX(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let device = try HealthDatabase(path: harness.folder.appendingPathComponent("device.sqlite").path)
        _ = try await HealthImporter(database: device).run(path: I35WorkoutRouteTests.export)
        let everything = DateInterval(start: Date(timeIntervalSince1970: 0), duration: 2e9)
        let uuid = try #require(try await device.store.workouts(overlapping: everything).first?.uuid)
        let exported = try #require(try await device.store.workout(uuid))

        // The device's HealthKit: the sync client reads through HealthKit's API only.
        let healthStore = HKHealthStore(store: device.store)
        try await healthStore.requestAuthorization(toShare: [], read: [HKObjectType.workoutType(), HKSeriesType.workoutRoute()])
        let health = HealthKitQuerying(healthStore: healthStore, types: [.workout])

        try await harness.app.test(.live) { client in
            let engine = try await DeviceSync(harness, port: client.port, name: "phone").engine(health) { [.workout] }
            let run = try await engine.runOnce()
            #expect(run.deadLetters == 0 && run.added == 1)
        }
        try await harness.app.test(.router) { client in
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            try await client.execute(uri: "/v1/workouts/\(uuid.uuidString)", method: .get, headers: harness.headers("alice")) {
                response in
                #expect(response.status == .ok)
                let detail = try decoder.decode(WorkoutDetailAnswer.self, from: Data(response.body.readableBytesView))
                #expect(detail.workout.activityType == exported.activityType)
                #expect(detail.workout.start == exported.start && detail.workout.end == exported.end)
                #expect(abs(detail.workout.durationSeconds - exported.durationSeconds) < 1e-6)
                // Every event: type, instant, length.
                #expect(detail.events.map(\.type) == exported.events.map(\.type))
                #expect(detail.events.map(\.date) == exported.events.map(\.date))
                for (arrived, recorded) in zip(detail.events, exported.events) {
                    let a = Workout.seconds(arrived.duration, unit: arrived.durationUnit) ?? 0
                    let b = Workout.seconds(recorded.duration, unit: recorded.durationUnit) ?? 0
                    #expect(abs(a - b) < 1e-6)
                }
                // Every statistic, in the unit HealthKit gave it (134.432 Cal is 134.432 kcal,
                // 1.402 mi is 2,256.3 m).
                #expect(Set(detail.workout.statistics.map(\.type)) == Set(exported.statistics.map(\.type.identifier)))
                for recorded in exported.statistics {
                    let arrived = try #require(detail.workout.statistics.first { $0.type == recorded.type.identifier })
                    let value = try HealthUnit.convert(
                        try #require(recorded.sum), from: try #require(recorded.unit), to: try #require(arrived.unit))
                    #expect(abs((arrived.sum ?? .nan) - value) <= 1e-9 * value, "\(recorded.type)")
                }
                #expect(detail.routes.map(\.points) == [644])
            }
            // Every route point, field for field, through the GPX the server writes.
            try await client.execute(
                uri: "/v1/workouts/\(uuid.uuidString)/route?format=gpx", method: .get, headers: harness.headers("alice")
            ) { response in
                #expect(response.status == .ok)
                let points = try GPXReader.points(Data(response.body.readableBytesView), name: "route.gpx")
                #expect(points == exported.routes.flatMap(\.points))
                #expect(points == (try I35WorkoutRouteTests.exportGPXPoints()))
            }
        }
    }
}

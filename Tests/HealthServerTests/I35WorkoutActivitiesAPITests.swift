import Foundation
import HealthCore
import HealthImport
import HealthServer
import HealthServerRecords
import HealthWire
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 35 §1/§3: `GET /v1/workouts/{id}` gives a multisport workout's activities, each
/// with its span, events and statistics — a statistic of a kind the token may not read left
/// out and named in `HealthPipe-Withheld`.
@Suite struct I35WorkoutActivitiesAPITests {
    static let triathlon = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_GB">
         <Workout workoutActivityType="HKWorkoutActivityTypeSwimBikeRun" duration="95" durationUnit="min" \
        sourceName="Watch" startDate="2024-06-30 08:00:00 +0100" endDate="2024-06-30 09:40:00 +0100">
          <WorkoutActivity uuid="6F9619FF-8B86-D011-B42D-00C04FC964FF" startDate="2024-06-30 08:00:00 +0100" \
        endDate="2024-06-30 08:30:00 +0100" duration="30" durationUnit="min">
           <MetadataEntry key="HKSwimmingLocationType" value="2"/>
           <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceSwimming" sum="1500" unit="m"/>
          </WorkoutActivity>
          <WorkoutActivity uuid="1C5A7E1E-52B0-4F7A-9D0B-6B8E2E2E4C11" startDate="2024-06-30 08:35:00 +0100" \
        endDate="2024-06-30 09:40:00 +0100">
           <WorkoutEvent type="HKWorkoutEventTypeLap" date="2024-06-30 09:00:00 +0100"/>
           <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" average="142" minimum="98" maximum="171" unit="count/min"/>
          </WorkoutActivity>
         </Workout>
        </HealthData>
        """

    @Test(arguments: ServerBackend.enabled) func aMultisportWorkoutsActivities(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("triathlon-\(UUID().uuidString).xml")
        try Data(Self.triathlon.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let uuid = try await harness.repositories().writing(alice) { store in
            _ = try await store.importExport(path: file.path, options: HealthImporter.Options(), progress: { _ in })
            let workouts = try await store.queries.workouts(
                overlapping: DateInterval(start: Date(timeIntervalSince1970: 0), duration: 2e9))
            return try #require(workouts.first?.uuid)
        }
        let (_, workoutsOnly) = try await harness.store.addToken(
            owner: "alice", name: "coach", readTypes: [.workouts], writeTypes: [])
        try await harness.store.saveConsent(
            Consent(granted: Set(HealthDataCategory.allCases), denied: [], decidedAt: Date()), userID: alice)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        try await harness.app.test(.router) { client in
            try await client.execute(uri: "/v1/workouts/\(uuid.uuidString)", method: .get, headers: harness.headers("alice")) {
                response in
                #expect(response.status == .ok)
                let detail = try decoder.decode(WorkoutDetailAnswer.self, from: Data(response.body.readableBytesView))
                #expect(detail.activities.count == 2)
                let swim = detail.activities[0]
                #expect(swim.uuid == UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF"))
                #expect(swim.start == ISO8601DateFormatter().date(from: "2024-06-30T07:00:00Z"))
                #expect(swim.durationSeconds == 1800 && swim.metadata == ["HKSwimmingLocationType": "2"])
                #expect(swim.statistics.map(\.sum) == [1500] && swim.statistics.map(\.unit) == ["m"])
                // No duration written: end − start, 65 minutes.
                let ride = detail.activities[1]
                #expect(ride.durationSeconds == 3900 && ride.events.map(\.type) == ["HKWorkoutEventTypeLap"])
                #expect(ride.statistics.map(\.maximum) == [171])
                #expect(detail.keptElements == ["WorkoutActivity": 2])
            }
            let headers: HTTPFields = [.authorization: "Bearer \(workoutsOnly.text)"]
            try await client.execute(uri: "/v1/workouts/\(uuid.uuidString)", method: .get, headers: headers) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.init("HealthPipe-Withheld")!] == "activity,heart")
                let detail = try decoder.decode(WorkoutDetailAnswer.self, from: Data(response.body.readableBytesView))
                #expect(detail.activities.count == 2 && detail.activities.allSatisfy(\.statistics.isEmpty))
            }
        }
    }
}

import Foundation
import HealthCore
import HealthServer
import HealthServerRecords
import HealthWire
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 35, found attacking the workouts on a release build: absurd values taken by
/// `POST /v1/samples` that then broke every list (a 500), a point no GPS reports, the change
/// feed giving a workouts-only token the metadata the workout routes hold back, segments that
/// tell the pace, an unknown activity answered with nothing.
@Suite struct I35WorkoutAttackTests {
    static func body(_ uuid: UUID, _ workout: String, metadata: String = "{}") -> String {
        """
        {"samples": [{"uuid": "\(uuid.uuidString)", "type": "HKWorkoutTypeIdentifier", "start": "2024-06-01T07:00:00Z",
          "end": "2024-06-01T07:30:00Z", "value_text": "HKWorkoutActivityTypeRunning", "source": "Watch",
          "metadata": \(metadata), "workout": \(workout)}]}
        """
    }

    @Test(arguments: ServerBackend.enabled) func absurdWorkoutValuesAreRefusedNamingTheField(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let uuid = UUID()
        try await harness.app.test(.router) { client in
            for (key, workout, expected) in [
                // 1e307 minutes is finite, its seconds are not: every list answered 500 after it.
                ("d1", #"{"duration": 1e307, "duration_unit": "min"}"#, "duration must be"),
                ("d2", #"{"duration": 1e308, "duration_unit": "hr"}"#, "duration must be"),
                ("e1", #"{"routes": [{"points": [{"lat": 48, "lon": 2, "ele": 1e308}]}]}"#, "/routes/0/points/0/ele"),
                ("u1", #"{"duration": 1e12, "duration_unit": "parsec"}"#, "/duration_unit"),
                (
                    "v1", #"{"events": [{"type": "HKWorkoutEventTypeLap", "date": "2024-06-01T07:05:00Z", "duration": 1e300}]}"#,
                    "/events/0/duration"
                ),
                ("e2", #"{"routes": [{"points": [{"lat": 48, "lon": 2, "speed": 5000}]}]}"#, "/routes/0/points/0/speed"),
                (
                    "s1",
                    #"{"statistics": [{"type": "HKQuantityTypeIdentifierHeartRate", "average": 1e308, "unit": "count/min"}]}"#,
                    "value must be between"
                ),
                (
                    "s2",
                    #"{"statistics": [{"type": "HKQuantityTypeIdentifierStepCount", "sum": -5, "unit": "count"}]}"#,
                    "value must be between"
                ),
                ("t1", #"{"total_energy_burned": 1e308, "total_energy_burned_unit": "kJ"}"#, "totalEnergyBurned"),
                (
                    "s3",
                    #"{"statistics": [{"type": "steps", "sum": 5, "unit": "count", "start": "2024-06-01T07:20:00Z", "end": "2024-06-01T07:10:00Z"}]}"#,
                    "/statistics/0/end"
                ),
            ] {
                try await client.execute(
                    uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: key),
                    body: ByteBuffer(string: Self.body(uuid, workout))
                ) { response in
                    #expect(response.status == .unprocessableContent, "\(key)")
                    #expect(String(buffer: response.body).contains(expected), "\(key): \(String(buffer: response.body))")
                }
            }
            // Nothing of them stored: the list answers, empty.
            try await client.execute(
                uri: "/v1/workouts?from=2024-06-01&to=2024-06-01", method: .get, headers: harness.headers("alice")
            ) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(#""workouts":[]"#))
            }
            // An activity that is none is a 422 with the closest names, not an empty list.
            try await client.execute(
                uri: "/v1/workouts?from=2024-06-01&to=2024-06-01&type=walk", method: .get, headers: harness.headers("alice")
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(String(buffer: response.body).contains("Walking"))
            }
        }
    }

    /// Found reviewing: Health Auto Export stores its own names (`HKWorkoutActivityTypeOutdoorRun`);
    /// asking for one is no error — only a name that matched nothing and is no activity is.
    @Test(arguments: ServerBackend.enabled) func aStoredActivityThatHealthKitDoesNotNameIsFound(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let body = Self.body(UUID(), "{}").replacingOccurrences(
            of: "HKWorkoutActivityTypeRunning", with: "HKWorkoutActivityTypeOutdoorRun")
        try await harness.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "o"),
                body: ByteBuffer(string: body)
            ) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(
                uri: "/v1/workouts?from=2024-06-01&to=2024-06-01&type=outdoor_run", method: .get,
                headers: harness.headers("alice")
            ) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("OutdoorRun"))
            }
        }
    }

    @Test(arguments: ServerBackend.enabled) func aWorkoutsOnlyTokenGetsNeitherItsMetadataNorItsSegments(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        let uuid = UUID()
        let workout = """
            {"duration": 30, "duration_unit": "min", "events": [
              {"type": "HKWorkoutEventTypeSegment", "date": "2024-06-01T07:00:00Z", "duration": 5.5, "duration_unit": "min"},
              {"type": "HKWorkoutEventTypePause", "date": "2024-06-01T07:10:00Z"}]}
            """
        let metadata = #"{"HKAverageMETs": "9.5 kcal/hr·kg", "HKElevationAscended": "4200 cm", "HKIndoorWorkout": "0"}"#
        let (_, workoutsOnly) = try await harness.store.addToken(
            owner: "alice", name: "coach", readTypes: [.workouts], writeTypes: [])
        try await harness.store.saveConsent(
            Consent(granted: Set(HealthDataCategory.allCases), denied: [], decidedAt: Date()), userID: alice)
        try await harness.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "w"),
                body: ByteBuffer(string: Self.body(uuid, workout, metadata: metadata))
            ) { response in
                #expect(response.status == .ok)
            }
            let headers: HTTPFields = [.authorization: "Bearer \(workoutsOnly.text)"]
            try await client.execute(uri: "/v1/changes?type=workout", method: .get, headers: headers) { response in
                #expect(response.status == .ok)
                let body = String(buffer: response.body)
                #expect(!body.contains("METs") && !body.contains("Elevation") && body.contains("HKIndoorWorkout"))
                #expect(body.contains(uuid.uuidString))
                #expect(response.headers[.init("HealthPipe-Withheld")!] == "energy,activity")
            }
            try await client.execute(uri: "/v1/workouts/\(uuid.uuidString)", method: .get, headers: headers) { response in
                let detail = try JSONDecoder.iso8601.decode(WorkoutDetailAnswer.self, from: Data(response.body.readableBytesView))
                #expect(detail.events.map(\.type) == ["HKWorkoutEventTypePause"])
                #expect(response.headers[.init("HealthPipe-Withheld")!] == "energy,activity")
            }
            // The owner sees both.
            try await client.execute(
                uri: "/v1/workouts/\(uuid.uuidString)", method: .get, headers: harness.headers("alice")
            ) { response in
                let detail = try JSONDecoder.iso8601.decode(WorkoutDetailAnswer.self, from: Data(response.body.readableBytesView))
                #expect(detail.events.count == 2)
            }
        }
    }
}

extension JSONDecoder {
    fileprivate static var iso8601: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

import Crypto
import Foundation
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import Testing

/// `GET /v1/changes`, `DELETE /v1/samples`, UUIDs on `POST /v1/samples`, Health Auto Export
/// workouts replaced by `id`, and `DELETE /v1/me`.
@Suite struct ChangesAndDeletionRouteTests {
    static let uuid = "6F1C2A8E-3B5D-4E0A-9C7B-2D4E6F8A0B1C"
    static let batch = """
        {"samples": [
          {"uuid": "\(uuid)", "type": "HKQuantityTypeIdentifierStepCount", "start": "2024-06-01T08:00:00Z",
           "end": "2024-06-01T08:10:00Z", "value": 800, "unit": "count", "source": "Jane’s Apple Watch",
           "device": {"name": "Apple Watch", "manufacturer": "Apple Inc.", "model": "Watch", "hardware": "Watch6,2"}},
          {"type": "HKQuantityTypeIdentifierStepCount", "start": "2024-06-01T12:00:00.250Z", "end": "2024-06-01T12:10:00Z",
           "value": 700, "unit": "count", "source": "Jane’s Apple Watch",
           "device": {"name": "Apple Watch", "manufacturer": "Apple Inc.", "model": "Watch", "hardware": "Watch6,2"}}
        ]}
        """

    static func changes(_ client: some TestClientProtocol, _ harness: ServerHarness, since: Int = 0) async throws -> [String: Any]
    {
        try await client.execute(
            uri: "/v1/changes?type=HKQuantityTypeIdentifierStepCount&since=\(since)&limit=10", method: .get,
            headers: harness.headers("alice")
        ) { response in
            #expect(response.status == .ok)
            return ServerHarness.json(response.body)
        }
    }

    static func steps(_ client: some TestClientProtocol, _ harness: ServerHarness) async throws -> Int? {
        try await client.execute(
            uri: "/v1/daily-metrics?from=2024-06-01&to=2024-06-01", method: .get, headers: harness.headers("alice")
        ) { response in
            let days = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]]
            return days?.first?["steps_normalized"] as? Int
        }
    }

    @Test(arguments: ServerBackend.enabled) func theFeedShowsAdditionsThenDeletions(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "b1"),
                body: ByteBuffer(string: Self.batch)
            ) { response in #expect(response.status == .ok) }
            #expect(try await Self.steps(client, harness) == 1500)
            let feed = try await Self.changes(client, harness)
            let entries = try #require(feed["changes"] as? [[String: Any]])
            #expect(entries.count == 2 && feed["has_more"] as? Bool == false)
            let first = try #require(entries.first?["sample"] as? [String: Any])
            #expect(entries.first?["uuid"] as? String == Self.uuid && entries.first?["deleted"] as? Bool == false)
            #expect(first["uuid"] as? String == Self.uuid)
            #expect((first["device"] as? [String: Any])?["hardware"] as? String == "Watch6,2")
            #expect((entries.last?["sample"] as? [String: Any])?["start"] as? String == "2024-06-01T12:00:00.250Z")
            let derived = try #require(entries.last?["uuid"] as? String)
            #expect(Array(derived)[14] == "8")  // derived from the content: version 8
            let next = try #require(feed["next_anchor"] as? Int)

            // Delete one known and one unknown UUID; the day's steps follow.
            let unknown = "00000000-0000-4000-8000-000000000001"
            try await client.execute(
                uri: "/v1/samples", method: .delete, headers: harness.headers("alice", idempotencyKey: "d1"),
                body: ByteBuffer(string: #"{"uuids": ["\#(Self.uuid)", "\#(unknown)"]}"#)
            ) { response in
                let report = ServerHarness.json(response.body)
                #expect(response.status == .ok)
                #expect(report["deleted"] as? [String] == [Self.uuid])
                #expect(report["unknown"] as? [String] == [unknown])
                #expect(report["days_pending"] as? Bool == true)
            }
            #expect(try await Self.steps(client, harness) == 700)
            let after = try await Self.changes(client, harness, since: next)
            let tombstones = try #require(after["changes"] as? [[String: Any]])
            #expect(tombstones.count == 1)
            #expect(tombstones.first?["deleted"] as? Bool == true && tombstones.first?["uuid"] as? String == Self.uuid)
            #expect(tombstones.first?["type"] as? String == "HKQuantityTypeIdentifierStepCount")
            // Bob's feed is his own: empty.
            try await client.execute(
                uri: "/v1/changes?type=HKQuantityTypeIdentifierStepCount", method: .get, headers: harness.headers("bob")
            ) { response in #expect(String(buffer: response.body) == #"{"changes":[],"has_more":false,"next_anchor":0}"#) }
        }
    }

    /// Issue 33 §5: `type` takes the short names of every other way in; a wrong name
    /// (`StepCount`, `HeartRate`, a typo) is a 422 naming the closest, never an empty feed;
    /// a type beyond the table is a name when the user's store holds it.
    @Test(arguments: ServerBackend.enabled) func i33_names_theFeedTakesShortNames(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let newer = """
            {"samples": [{"type": "HKQuantityTypeIdentifierSomethingNew", "start": "2024-06-01T09:00:00Z",
              "end": "2024-06-01T09:00:00Z", "value": 3, "unit": "count", "source": "Jane’s Apple Watch"}]}
            """
        try await harness.app.test(.router) { client in
            for (key, body) in [("b1", Self.batch), ("b2", newer)] {
                try await client.execute(
                    uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: key),
                    body: ByteBuffer(string: body)
                ) { response in #expect(response.status == .ok) }
            }
            /// The status and the body.
            func feed(_ type: String) async throws -> String {
                try await client.execute(uri: "/v1/changes?type=\(type)", method: .get, headers: harness.headers("alice")) {
                    "\($0.status.code) \(String(buffer: $0.body))"
                }
            }
            let byIdentifier = try await feed("HKQuantityTypeIdentifierStepCount")
            #expect(byIdentifier.hasPrefix("200 ") && byIdentifier.contains(Self.uuid))
            #expect(try await feed("steps") == byIdentifier)
            #expect(try await feed("step_count") == byIdentifier)
            for (name, closest) in [
                ("StepCount", "steps (HKQuantityTypeIdentifierStepCount)"),
                ("HeartRate", "heart_rate (HKQuantityTypeIdentifierHeartRate)"),
                ("HKQuantityTypeIdentifierStepCont", "steps (HKQuantityTypeIdentifierStepCount)"),
            ] {
                let answer = try await feed(name)
                #expect(answer.hasPrefix("422 "), "\(name)")
                #expect(answer.contains("unknown type '\(name)'; did you mean \(closest), or "), "\(answer)")
            }
            let stored = try await feed("HKQuantityTypeIdentifierSomethingNew")
            #expect(stored.hasPrefix("200 ") && stored.contains("HKQuantityTypeIdentifierSomethingNew"))
            #expect(try await feed("something_new") == stored)
            #expect(try await feed("HKQuantityTypeIdentifierSomethingOld").hasPrefix("422 "))
        }
    }

    @Test(arguments: ServerBackend.enabled) func badInputIsNamed(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            for (uri, status, words) in [
                ("/v1/changes?type=HKQuantityTypeIdentifierStepCount&since=abc", 400, "since must be a whole number"),
                ("/v1/changes?type=HKQuantityTypeIdentifierStepCount&limit=0", 400, "limit must be a whole number"),
                ("/v1/changes?type=Steps%20", 422, "type must be a short name such as steps or a HealthKit type identifier"),
                ("/v1/changes?type=stpes", 422, "did you mean steps (HKQuantityTypeIdentifierStepCount)"),
                ("/v1/changes", 422, "give type="),
            ] {
                try await client.execute(uri: uri, method: .get, headers: harness.headers("alice")) { response in
                    #expect(response.status.code == status, "\(uri)")
                    #expect(response.headers[.contentType] == "application/problem+json")
                    #expect(String(buffer: response.body).contains(words), "\(uri)")
                }
            }
            try await client.execute(
                uri: "/v1/samples", method: .delete, headers: harness.headers("alice", idempotencyKey: "bad"),
                body: ByteBuffer(string: #"{"uuids": ["\#(Self.uuid)", "not-a-uuid"]}"#)
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(ServerHarness.json(response.body)["pointer"] as? String == "/uuids/1")
            }
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "bad-uuid"),
                body: ByteBuffer(
                    string:
                        #"{"samples": [{"uuid": "nope", "type": "HKQuantityTypeIdentifierStepCount", "start": "2024-06-01T08:00:00Z", "end": "2024-06-01T08:00:00Z", "source": "x"}]}"#
                )
            ) { response in
                #expect(response.status == .badRequest)
                #expect(ServerHarness.json(response.body)["pointer"] as? String == "/samples/0/uuid")
            }
            try await client.execute(uri: "/v1/me", method: .delete, headers: harness.headers("alice")) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("Confirm-Delete: all-my-data"))
            }
            try await client.execute(uri: "/v1/me", method: .delete, headers: harness.headers("reader")) { response in
                #expect(response.status == .forbidden)
            }
        }
    }

    /// A Health Auto Export v2 workout sent again under the same `id` with other figures
    /// replaces the first one.
    @Test(arguments: ServerBackend.enabled) func aResentAutoExportWorkoutReplacesTheOld(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        @Sendable func body(kcal: Int) -> ByteBuffer {
            ByteBuffer(
                string: """
                    {"data": {"workouts": [{"id": "A1B2C3D4-0000-4000-8000-00000000000A", "name": "Outdoor Run",
                      "start": "2024-06-01 07:00:00 +0200", "end": "2024-06-01 07:30:00 +0200",
                      "activeEnergy": {"qty": \(kcal), "units": "kcal"}}]}}
                    """)
        }
        try await harness.app.test(.router) { client in
            for (kcal, added) in [(300, 1), (300, 0), (320, 1)] {
                try await client.execute(
                    uri: "/v1/health-auto-export", method: .post, headers: harness.headers("alice"), body: body(kcal: kcal)
                ) { response in
                    #expect(response.status == .ok)
                    #expect(ServerHarness.json(response.body)["added"] as? Int == added, "\(kcal)")
                }
            }
            try await client.execute(
                uri: "/v1/changes?type=HKWorkoutTypeIdentifier", method: .get, headers: harness.headers("alice")
            ) { response in
                let entries = ServerHarness.json(response.body)["changes"] as? [[String: Any]] ?? []
                // The first workout's tombstone, then the replacement, under the same UUID.
                #expect(entries.map { $0["deleted"] as? Bool } == [true, false])
                #expect(Set(entries.compactMap { $0["uuid"] as? String }) == ["A1B2C3D4-0000-4000-8000-00000000000A"])
            }
        }
    }

    /// `DELETE /v1/me`: nothing of Alice remains in any table or file; Bob's rows and files
    /// are byte for byte what they were.
    @Test(arguments: ServerBackend.enabled) func deletingMeLeavesNothingAndTouchesNoOneElse(_ backend: ServerBackend) async throws
    {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        try await harness.app.test(.router) { client in
            try await harness.postSampleBatch(client, user: "alice")
            try await harness.postSampleBatch(client, user: "bob")
            let before = try await harness.dumpTables()
            // With SQLite, each user's samples are a file (with PostgreSQL, rows in the tables above).
            let bobFile = harness.folder.appendingPathComponent("users/\(harness.ids["bob"]!).sqlite")
            let bobHash = try harness.samples == nil ? Data(SHA256.hash(data: try Data(contentsOf: bobFile))) : nil
            #expect(before.contains { $0.contains(alice) })

            try await client.execute(
                uri: "/v1/me", method: .delete,
                headers: {
                    var h = harness.headers("alice"); h[.init("Confirm-Delete")!] = "all-my-data"; return h
                }()
            ) { response in
                let report = ServerHarness.json(response.body)
                #expect(response.status == .ok)
                #expect(report["user"] as? String == "alice" && report["samples"] as? Int == 4)
                let rows = report["rows"] as? [String: Int]
                #expect(rows?["user"] == 1 && rows?["daily_metrics"] == 3 && rows?["idempotency_key"] == 1)
            }
            // Every table: Alice's rows are gone and nothing else changed.
            let after = try await harness.dumpTables()
            #expect(after == before.filter { !$0.contains(alice) && !$0.contains("alice") })
            // The data folder: no file of hers, and her id in no byte of any file.
            let files = FileManager.default.enumerator(at: harness.folder, includingPropertiesForKeys: nil)!
                .compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath }
            #expect(!files.isEmpty || harness.samples != nil)
            for file in files {
                #expect(!file.lastPathComponent.contains(alice))
                let bytes = try Data(contentsOf: file)
                #expect(bytes.range(of: Data(alice.utf8)) == nil, "\(file.lastPathComponent)")
            }
            if let bobHash { #expect(Data(SHA256.hash(data: try Data(contentsOf: bobFile))) == bobHash) }
            // Her token no longer works; Bob's does.
            try await client.execute(
                uri: "/v1/changes?type=HKQuantityTypeIdentifierStepCount", method: .get, headers: harness.headers("alice")
            ) {
                #expect($0.status == .unauthorized)
            }
            try await client.execute(
                uri: "/v1/changes?type=HKQuantityTypeIdentifierStepCount", method: .get, headers: harness.headers("bob")
            ) {
                #expect((ServerHarness.json($0.body)["changes"] as? [Any])?.count == 2)
            }
        }
    }
}

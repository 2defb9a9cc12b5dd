import Foundation
import HealthCore
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import Testing

/// Finding M3 (issue 32): `--types` limited only reading — a steps-only token deleted a sleep
/// sample and could `DELETE /v1/me`. Now a scoped token is read-only unless the owner gave it
/// write kinds, and then adds and deletes samples of those kinds only (403 naming the kind,
/// nothing changed); only the owner's token deletes the account or manages devices.
@Suite struct M3WriteScopeTests {
    static let stepsOnly = """
        {"samples": [{"type": "HKQuantityTypeIdentifierStepCount", "start": "2024-06-02T08:00:00Z",
          "end": "2024-06-02T08:10:00Z", "value": 321, "unit": "count", "source": "Coach"}]}
        """
    static let stepsAndSleep = """
        {"samples": [{"type": "HKQuantityTypeIdentifierStepCount", "start": "2024-06-02T09:00:00Z",
          "end": "2024-06-02T09:10:00Z", "value": 123, "unit": "count", "source": "Coach"},
          {"type": "HKCategoryTypeIdentifierSleepAnalysis", "start": "2024-06-01T23:30:00Z",
           "end": "2024-06-02T06:00:00Z", "value_text": "HKCategoryValueSleepAnalysisAsleepCore", "source": "Coach"}]}
        """
    static let autoExportSteps = """
        {"data": {"metrics": [{"name": "step_count", "units": "count",
          "data": [{"date": "2024-06-02 10:00:00 +0000", "qty": 50}]}]}}
        """
    static let autoExportWorkout = """
        {"data": {"workouts": [{"id": "A1B2C3D4-0000-4000-8000-00000000000B", "name": "Outdoor Run",
          "start": "2024-06-02 07:00:00 +0200", "end": "2024-06-02 07:30:00 +0200",
          "activeEnergy": {"qty": 300, "units": "kcal"}}]}}
        """
    static let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"
    static let stepsType = "HKQuantityTypeIdentifierStepCount"

    /// The UUIDs of Alice's live samples of `type`, read with her own token.
    static func uuids(
        _ client: some TestClientProtocol, _ harness: ServerHarness, _ type: String
    ) async throws -> [String] {
        try await client.execute(
            uri: "/v1/changes?type=\(type)&limit=100", method: .get, headers: harness.headers("alice")
        ) { response in
            #expect(response.status == .ok)
            let changes = ServerHarness.json(response.body)["changes"] as? [[String: Any]] ?? []
            var live: [String] = []
            for change in changes {
                guard let uuid = change["uuid"] as? String else { continue }
                if change["deleted"] as? Bool == true { live.removeAll { $0 == uuid } } else { live.append(uuid) }
            }
            return live.sorted()
        }
    }

    /// The status and the problem's detail of a request with `token`.
    static func send(
        _ client: some TestClientProtocol, _ uri: String, _ method: HTTPRequest.Method, token: String,
        key: String? = nil, contentType: String = "application/json", extra: HTTPFields = [:], body: String = ""
    ) async throws -> (HTTPResponse.Status, String) {
        var headers = extra
        headers[.authorization] = "Bearer \(token)"
        headers[.contentType] = contentType
        if let key { headers[.init("Idempotency-Key")!] = key }
        return try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(string: body)) {
            ($0.status, ServerHarness.json($0.body)["detail"] as? String ?? "")
        }
    }

    static func deletion(_ uuids: [String]) -> String {
        #"{"uuids": [\#(uuids.map { "\"\($0)\"" }.joined(separator: ", "))]}"#
    }

    static var confirm: HTTPFields { [HTTPFields.Element.Name("Confirm-Delete")!: "all-my-data"] }

    @Test(arguments: ServerBackend.enabled) func m3_aStepsOnlyReadTokenWritesAndDeletesNothing(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        let (_, token) = try await harness.store.addToken(
            owner: "alice", name: "coach", readTypes: [.steps], writeTypes: [])
        let coach = token.text
        try await harness.store.saveConsent(
            Consent(granted: Set(HealthDataCategory.allCases), denied: [], decidedAt: Date()), userID: alice)
        try await harness.app.test(.router) { client in
            try await harness.postSampleBatch(client, user: "alice")
            let sleep = try await Self.uuids(client, harness, Self.sleepType)
            let steps = try await Self.uuids(client, harness, Self.stepsType)
            #expect(sleep.count == 1 && steps.count == 2)
            // It reads its kind.
            #expect(try await Self.send(client, "/v1/changes?type=\(Self.stepsType)", .get, token: coach).0 == .ok)

            // Old code: the sleep sample was deleted (200). Now: 403, of any kind, and nothing goes.
            for (index, uuids) in [sleep, steps].enumerated() {
                let (status, detail) = try await Self.send(
                    client, "/v1/samples", .delete, token: coach, key: "delete-\(index)", body: Self.deletion(uuids))
                #expect(status == .forbidden && detail.contains("'write'"), "\(detail)")
            }
            #expect(try await Self.uuids(client, harness, Self.sleepType) == sleep)
            #expect(try await Self.uuids(client, harness, Self.stepsType) == steps)

            // No writes of its own kind either.
            let posted = try await Self.send(
                client, "/v1/samples", .post, token: coach, key: "post-1", body: Self.stepsOnly)
            #expect(posted.0 == .forbidden)
            let autoExport = try await Self.send(
                client, "/v1/health-auto-export", .post, token: coach, body: Self.autoExportSteps)
            #expect(autoExport.0 == .forbidden)
            let days = try await Self.send(
                client, "/v1/daily-metrics", .post, token: coach,
                body: String(buffer: try ServerHarness.body([ServerHarness.day("2024-06-03")])))
            #expect(days.0 == .forbidden)
            #expect(try await Self.uuids(client, harness, Self.stepsType) == steps)

            // Old code: DELETE /v1/me deleted Alice's account. Now: 403, and she is all there.
            let (meStatus, meDetail) = try await Self.send(client, "/v1/me", .delete, token: coach, extra: Self.confirm)
            #expect(meStatus == .forbidden && meDetail.contains("only alice's own token may delete the account"))
            #expect(try await Self.uuids(client, harness, Self.sleepType) == sleep)
            #expect(try await harness.store.authenticate(BearerToken(harness.tokens["alice"]!)!)?.id == alice)

            // Devices and uploads are the owner's.
            let device = try await Self.send(client, "/v1/devices", .post, token: coach, body: #"{"name": "x"}"#)
            #expect(device.0 == .forbidden)
            #expect(try await Self.send(client, "/v1/devices", .get, token: coach).0 == .forbidden)
            let upload = try await Self.send(
                client, "/v1/imports", .post, token: coach, contentType: "application/zip", body: "PK")
            #expect(upload.0 == .forbidden)
        }
    }

    @Test(arguments: ServerBackend.enabled) func m3_writeForStepsAddsAndDeletesStepsButNotSleep(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        let (_, token) = try await harness.store.addToken(
            owner: "alice", name: "tracker", readTypes: [.steps, .sleep], writeTypes: [.steps])
        let writer = token.text
        try await harness.store.saveConsent(
            Consent(granted: Set(HealthDataCategory.allCases), denied: [], decidedAt: Date()), userID: alice)
        try await harness.app.test(.router) { client in
            try await harness.postSampleBatch(client, user: "alice")
            let sleep = try await Self.uuids(client, harness, Self.sleepType)
            let steps = try await Self.uuids(client, harness, Self.stepsType)

            // Steps go in, into Alice's store.
            let (posted, _) = try await Self.send(
                client, "/v1/samples", .post, token: writer, key: "steps-1", body: Self.stepsOnly)
            #expect(posted == .ok)
            let moreSteps = try await Self.uuids(client, harness, Self.stepsType)
            #expect(moreSteps.count == 3)
            // A batch with sleep in it: 403 naming sleep, and its steps do not go in either.
            let (mixed, why) = try await Self.send(
                client, "/v1/samples", .post, token: writer, key: "mixed-1", body: Self.stepsAndSleep)
            #expect(mixed == .forbidden && why.contains("writes sleep") && why.contains("writes only steps"), "\(why)")
            #expect(try await Self.uuids(client, harness, Self.stepsType) == moreSteps)
            #expect(try await Self.uuids(client, harness, Self.sleepType) == sleep)

            // Deleting sleep, alone or with steps: 403 naming sleep, nothing deleted.
            for (index, uuids) in [sleep, [steps[0]] + sleep].enumerated() {
                let (status, detail) = try await Self.send(
                    client, "/v1/samples", .delete, token: writer, key: "no-\(index)", body: Self.deletion(uuids))
                #expect(status == .forbidden && detail.contains("writes sleep"), "\(detail)")
            }
            #expect(try await Self.uuids(client, harness, Self.sleepType) == sleep)
            #expect(try await Self.uuids(client, harness, Self.stepsType) == moreSteps)
            // Deleting steps: done.
            let (deleted, _) = try await Self.send(
                client, "/v1/samples", .delete, token: writer, key: "yes-1", body: Self.deletion([steps[0]]))
            #expect(deleted == .ok)
            #expect(try await Self.uuids(client, harness, Self.stepsType) == moreSteps.filter { $0 != steps[0] })

            // Health Auto Export: steps yes, a workout no.
            let stepsExport = try await Self.send(
                client, "/v1/health-auto-export", .post, token: writer, body: Self.autoExportSteps)
            #expect(stepsExport.0 == .ok)
            let (workout, workoutWhy) = try await Self.send(
                client, "/v1/health-auto-export", .post, token: writer, body: Self.autoExportWorkout)
            #expect(workout == .forbidden && workoutWhy.contains("workouts"), "\(workoutWhy)")
            // An export may hold every kind; days replace all their kinds.
            let upload = try await Self.send(
                client, "/v1/imports", .post, token: writer, contentType: "application/zip", body: "PK")
            #expect(upload.0 == .forbidden && upload.1.contains("sleep"))
            let days = try await Self.send(
                client, "/v1/daily-metrics", .post, token: writer,
                body: String(buffer: try ServerHarness.body([ServerHarness.day("2024-06-03")])))
            #expect(days.0 == .forbidden)

            // Writing is not owning: the account, devices and sign-in stay Alice's.
            let (me, meWhy) = try await Self.send(client, "/v1/me", .delete, token: writer, extra: Self.confirm)
            #expect(me == .forbidden && meWhy.contains("scoped token 'tracker'"))
            let device = try await Self.send(client, "/v1/devices", .post, token: writer, body: #"{"name": "x"}"#)
            #expect(device.0 == .forbidden && device.1.contains("enrol devices"))
            let browser = Browser(client)
            try await browser.get("/login")
            #expect(try await browser.post("/login", [("token", writer)]).status == .forbidden)

            // Alice's own token writes every kind: she deletes the sleep.
            let (own, _) = try await Self.send(
                client, "/v1/samples", .delete, token: harness.tokens["alice"]!, key: "alice-1",
                body: Self.deletion(sleep))
            #expect(own == .ok)
            #expect(try await Self.uuids(client, harness, Self.sleepType).isEmpty)
        }
    }
}

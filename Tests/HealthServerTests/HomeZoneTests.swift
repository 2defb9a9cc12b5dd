import Foundation
import HealthCore
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HealthServer

/// A person's days are counted in one zone, their home zone (docs/api.md §Home zone): the
/// first `tz` a write gives, kept by later writes whatever `tz` they give, changed only by
/// `PUT /v1/me/zone`. Before, each write computed its days in its own `tz` (UTC without
/// one), so two writes in two zones stored days that overlap: the same steps counted on a
/// Los Angeles day and on a Tokyo day.
@Suite struct HomeZoneTests {
    /// One step sample of `steps` from `start` (UTC), thirty seconds long.
    static func batch(steps: Int, start: String) -> String {
        let end = start.replacingOccurrences(of: ":00Z", with: ":30Z")
        return
            #"{"samples": [{"type": "HKQuantityTypeIdentifierStepCount", "start": "\#(start)", "end": "\#(end)", "value": \#(steps), "unit": "count", "source": "Jane’s iPhone"}]}"#
    }

    static func post(
        _ client: some TestClientProtocol, _ harness: ServerHarness, steps: Int, start: String, tz: String?, key: String
    ) async throws {
        let query = tz.map { "?tz=\($0)" } ?? ""
        try await client.execute(
            uri: "/v1/samples\(query)", method: .post, headers: harness.headers("alice", idempotencyKey: key),
            body: ByteBuffer(string: batch(steps: steps, start: start))
        ) { response in #expect(response.status == .ok) }
    }

    /// Alice's stored days of June 2024 (date, zone, steps), read through the API.
    static func days(
        _ client: some TestClientProtocol, _ harness: ServerHarness
    ) async throws -> [(
        String, String, Int?
    )] {
        try await client.execute(
            uri: "/v1/daily-metrics?from=2024-05-25&to=2024-06-10", method: .get, headers: harness.headers("alice")
        ) { response in
            #expect(response.status == .ok)
            let days = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]]
            return (days ?? []).map {
                ($0["local_date"] as? String ?? "?", $0["timezone"] as? String ?? "?", $0["steps_normalized"] as? Int)
            }
        }
    }

    @Test(arguments: ServerBackend.enabled)
    func writesInTwoZonesCountEveryStepOnceInTheFirstZone(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            // 13:00 in Los Angeles on June 1.
            try await Self.post(client, harness, steps: 1000, start: "2024-06-01T20:00:00Z", tz: "America/Los_Angeles", key: "a")
            // 19:00 in Los Angeles on June 1, 11:00 on June 2 in Tokyo.
            try await Self.post(client, harness, steps: 500, start: "2024-06-02T02:00:00Z", tz: "Asia/Tokyo", key: "b")
            // 23:30 in Los Angeles on June 1, 06:30 on June 2 in UTC; no tz.
            try await Self.post(client, harness, steps: 200, start: "2024-06-02T06:30:00Z", tz: nil, key: "c")
            let days = try await Self.days(client, harness)
            #expect(days.map(\.1).allSatisfy { $0 == "America/Los_Angeles" }, "\(days)")
            #expect(days.first { $0.0 == "2024-06-01" }?.2 == 1700, "\(days)")
            #expect(days.compactMap(\.2).reduce(0, +) == 1700, "\(days)")
        }
    }
}

extension HomeZoneTests {
    /// Days stored in UTC (writes without `tz`) are computed again in the first zone named.
    @Test(arguments: ServerBackend.enabled)
    func theFirstZoneNamedTakesOverTheDaysOfUTC(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await Self.post(client, harness, steps: 1000, start: "2024-06-01T20:00:00Z", tz: nil, key: "a")
            let before = try await Self.days(client, harness)
            // UTC's days, named as Foundation names UTC.
            #expect(before.map(\.1).allSatisfy { $0 == TimeZone(identifier: "UTC")!.identifier }, "\(before)")
            try await Self.post(client, harness, steps: 500, start: "2024-06-02T02:00:00Z", tz: "America/Los_Angeles", key: "b")
            let days = try await Self.days(client, harness)
            #expect(days.map(\.1).allSatisfy { $0 == "America/Los_Angeles" }, "\(days)")
            #expect(days.first { $0.0 == "2024-06-01" }?.2 == 1500, "\(days)")
            #expect(days.compactMap(\.2).reduce(0, +) == 1500, "\(days)")
        }
    }

    static func zone(
        _ client: some TestClientProtocol, _ harness: ServerHarness, put tz: String? = nil, token: String = "alice"
    ) async throws -> (HTTPResponse.Status, [String: Any]) {
        try await client.execute(
            uri: "/v1/me/zone", method: tz == nil ? .get : .put, headers: harness.headers(token),
            body: tz.map { ByteBuffer(string: #"{"tz": "\#($0)"}"#) }
        ) { ($0.status, ServerHarness.json($0.body)) }
    }

    /// The three writes of the first test: 1,700 steps on June 1 in Los Angeles.
    static func writeInTwoZones(_ client: some TestClientProtocol, _ harness: ServerHarness) async throws {
        try await post(client, harness, steps: 1000, start: "2024-06-01T20:00:00Z", tz: "America/Los_Angeles", key: "a")
        try await post(client, harness, steps: 500, start: "2024-06-02T02:00:00Z", tz: "Asia/Tokyo", key: "b")
        try await post(client, harness, steps: 200, start: "2024-06-02T06:30:00Z", tz: nil, key: "c")
    }

    @Test(arguments: ServerBackend.enabled)
    func aChangedHomeZoneCountsEveryDayAgainInIt(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            #expect(try await Self.zone(client, harness).1["zone"] is NSNull)
            try await Self.writeInTwoZones(client, harness)
            _ = try await Self.days(client, harness)
            #expect(try await Self.zone(client, harness).1["zone"] as? String == "America/Los_Angeles")
            let (status, answer) = try await Self.zone(client, harness, put: "Asia/Tokyo")
            #expect(status == .ok)
            #expect(answer["zone"] as? String == "Asia/Tokyo")
            #expect(answer["previous"] as? String == "America/Los_Angeles")
            #expect(answer["days_pending"] as? Bool == true)
            let days = try await Self.days(client, harness)
            #expect(days.map(\.1).allSatisfy { $0 == "Asia/Tokyo" }, "\(days)")
            // 05:00 on June 2 in Tokyo through 15:30: all three samples.
            #expect(days.first { $0.0 == "2024-06-02" }?.2 == 1700, "\(days)")
            #expect(days.compactMap(\.2).reduce(0, +) == 1700, "\(days)")
            // The same zone again changes nothing.
            let (_, again) = try await Self.zone(client, harness, put: "Asia/Tokyo")
            #expect(again["previous"] as? String == "Asia/Tokyo" && again["days_pending"] == nil)
        }
    }

    /// A probe of 2026-11-28: a coach's token that may write steps set the person's home zone
    /// with its first write's `?tz=` (every day counted again in Pacific/Kiritimati), where
    /// `PUT /v1/me/zone` is the owner's alone. Only the owner's token's `tz` sets it now.
    @Test(arguments: ServerBackend.enabled)
    func aScopedTokensTzDoesNotSetTheHomeZone(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let (_, tracker) = try await harness.store.addToken(
            owner: "alice", name: "tracker", readTypes: [.steps], writeTypes: [.steps])
        try await harness.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/samples?tz=Pacific/Kiritimati", method: .post,
                headers: harness.headers(tracker.text, idempotencyKey: "tracker"),
                body: ByteBuffer(string: Self.batch(steps: 300, start: "2024-06-01T20:00:00Z"))
            ) { response in #expect(response.status == .ok) }
            // A name that is no zone is still a 400, whoever sends it.
            try await client.execute(
                uri: "/v1/samples?tz=Mars/Olympus", method: .post,
                headers: harness.headers(tracker.text, idempotencyKey: "mars"),
                body: ByteBuffer(string: Self.batch(steps: 300, start: "2024-06-01T21:00:00Z"))
            ) { response in #expect(response.status == .badRequest) }
            let days = try await Self.days(client, harness)
            #expect(try await Self.zone(client, harness).1["zone"] is NSNull)
            #expect(days.map(\.1).allSatisfy { $0 == TimeZone(identifier: "UTC")!.identifier }, "\(days)")
            // Nor does an upload's, from a scoped token that may write every kind (the review).
            let (_, importer) = try await harness.store.addToken(
                owner: "alice", name: "importer", readTypes: Set(HealthDataCategory.allCases),
                writeTypes: Set(HealthDataCategory.allCases))
            let export = try await ImportsRouteTests.expected()
            let id = try await client.execute(
                uri: "/v1/imports?tz=Pacific/Kiritimati", method: .post, headers: harness.upload(importer.text),
                body: ByteBuffer(data: export.zip)
            ) { ServerHarness.json($0.body)["id"] as? String ?? "" }
            let job = try await ImportsRouteTests.finished(id, client, harness.headers("alice"))
            #expect(job["state"] as? String == "succeeded")
            _ = try await Self.days(client, harness)
            #expect(try await Self.zone(client, harness).1["zone"] is NSNull)
            // The owner's first tz sets it.
            try await Self.post(client, harness, steps: 100, start: "2024-06-01T22:00:00Z", tz: "America/Los_Angeles", key: "own")
            _ = try await Self.days(client, harness)
            #expect(try await Self.zone(client, harness).1["zone"] as? String == "America/Los_Angeles")
        }
    }

    @Test(arguments: ServerBackend.enabled)
    func onlyTheOwnerChangesTheHomeZoneAndOnlyToAZone(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let (_, coach) = try await harness.store.addToken(
            owner: "alice", name: "coach", readTypes: [.steps], writeTypes: [.steps])
        try await harness.app.test(.router) { client in
            #expect(try await Self.zone(client, harness, put: "Asia/Tokyo", token: coach.text).0 == .forbidden)
            let (status, problem) = try await Self.zone(client, harness, put: "Mars/Olympus_Mons")
            #expect(status == .badRequest && problem["pointer"] as? String == "/tz")
            let nul = try await Self.zone(client, harness, put: "Asia/Tokyo\\u0000x")
            // A NUL in a JSON string is refused before the zone is read (422).
            #expect(nul.0 == .unprocessableContent, "\(nul)")
            #expect(try await Self.zone(client, harness).1["zone"] is NSNull)
        }
    }

    /// A read without `tz` counts its days in the home zone, not in UTC.
    @Test(arguments: ServerBackend.enabled)
    func readsWithoutATzAreInTheHomeZone(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await Self.writeInTwoZones(client, harness)
            _ = try await Self.days(client, harness)
            let csv = try await client.execute(
                uri: "/v1/export.csv?metrics=steps&from=2024-06-01&to=2024-06-02", method: .get,
                headers: harness.headers("alice")
            ) { String(buffer: $0.body) }
            let rows = csv.split(separator: "\n").dropFirst()
            // Stamped in Los Angeles (UTC's would be `Z`): 13:00, 19:00 and 23:30 on June 1.
            #expect(
                rows == [
                    "2024-06-01T13:00:00-07:00,Steps,1000,steps", "2024-06-01T19:00:00-07:00,Steps,500,steps",
                    "2024-06-01T23:30:00-07:00,Steps,200,steps",
                ], "\(csv)")
        }
    }
}

extension HomeZoneTests {
    /// A posted day that overlaps a stored day of another date is a 422: it stood until the
    /// next computation, June 2 in Los Angeles and June 3 in Tokyo counting 8 hours twice.
    @Test(arguments: ServerBackend.enabled)
    func aPostedDayOverlappingAStoredOneIsRefused(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await Self.post(client, harness, steps: 1000, start: "2024-06-01T20:00:00Z", tz: "America/Los_Angeles", key: "a")
            _ = try await Self.days(client, harness)
            for (zone, status) in [("Asia/Tokyo", HTTPResponse.Status.unprocessableContent), ("America/Los_Angeles", .ok)] {
                let day = ServerHarness.day("2024-06-03", zone: zone)
                try await client.execute(
                    uri: "/v1/daily-metrics", method: .post, headers: harness.headers("alice"),
                    body: try ServerHarness.body([day])
                ) { response in
                    #expect(response.status == status, "\(zone)")
                    if status != .ok {
                        #expect(ServerHarness.json(response.body)["pointer"] as? String == "/0/utc_day_start")
                    }
                }
            }
            // Two posted days that overlap each other: the same.
            let pair = [
                ServerHarness.day("2024-07-01", zone: "America/Los_Angeles"), ServerHarness.day("2024-07-02", zone: "Asia/Tokyo"),
            ]
            try await client.execute(
                uri: "/v1/daily-metrics", method: .post, headers: harness.headers("alice"), body: try ServerHarness.body(pair)
            ) { response in #expect(response.status == .unprocessableContent) }
        }
    }
}

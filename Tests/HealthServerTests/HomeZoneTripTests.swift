import Foundation
import HealthCore
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HealthServer

/// Days that tile: a trip's zone (`HKTimeZone` on a night) decides the zone of the days from
/// two before it to seven after, so a night written after a week of steps must compute
/// those days again, not its own two only; and days of another zone beside the ones computed
/// go. Before, Los Angeles June 9 and Tokyo June 10 overlapped by 16 hours (1,600 steps
/// counted twice) and 16 hours before June 12 were on no day (1,600 steps lost).
@Suite struct HomeZoneTripTests {
    static let night = "6b0d5c2e-8f11-4c3a-9a52-0d5c2e8f114c"

    /// Alice's days from May 28 through June 25: date, zone, start, end, steps.
    static func days(_ client: some TestClientProtocol, _ harness: ServerHarness) async throws -> [[String: Any]] {
        try await client.execute(
            uri: "/v1/daily-metrics?from=2024-05-28&to=2024-06-25", method: .get, headers: harness.headers("alice")
        ) { response in
            #expect(response.status == .ok)
            return (try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]]) ?? []
        }
    }

    /// Each day starts where the one before ends; the steps add up to `total`.
    static func expectTiled(_ days: [[String: Any]], total: Int, _ note: String) {
        let spans = days.map { ($0["utc_day_start"] as? String ?? "?", $0["utc_day_end"] as? String ?? "?") }
        for (previous, next) in zip(spans, spans.dropFirst()) {
            #expect(previous.1 == next.0, "\(note): \(previous) then \(next)")
        }
        #expect(days.compactMap { $0["steps_normalized"] as? Int }.reduce(0, +) == total, "\(note)")
    }

    static func post(_ client: some TestClientProtocol, _ harness: ServerHarness, _ body: String, key: String) async throws {
        try await client.execute(
            uri: "/v1/samples?tz=America/Los_Angeles", method: .post, headers: harness.headers("alice", idempotencyKey: key),
            body: ByteBuffer(string: body)
        ) { response in #expect(response.status == .ok) }
    }

    @Test(arguments: ServerBackend.enabled)
    func aNightInTokyoWrittenAfterTheStepsMovesTheDaysAroundIt(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        // 100 steps an hour, June 1 through 20 (UTC), no HKTimeZone.
        let start = try #require(ISO8601DateFormatter().date(from: "2024-06-01T00:00:00Z"))
        let format = ISO8601DateFormatter()
        let steps = (0..<480).map { hour in
            let from = start.addingTimeInterval(Double(hour) * 3600)
            return
                #"{"type": "steps", "start": "\#(format.string(from: from))", "end": "\#(format.string(from: from.addingTimeInterval(600)))", "value": 100, "unit": "count", "source": "Jane’s iPhone"}"#
        }
        let night =
            #"{"samples": [{"uuid": "\#(Self.night)", "type": "sleep", "start": "2024-06-10T14:00:00Z", "end": "2024-06-10T22:00:00Z", "value_text": "HKCategoryValueSleepAnalysisAsleepCore", "source": "Jane’s Apple Watch", "metadata": {"HKTimeZone": "Asia/Tokyo"}}]}"#
        try await harness.app.test(.router) { client in
            try await Self.post(client, harness, #"{"samples": [\#(steps.joined(separator: ","))]}"#, key: "steps")
            Self.expectTiled(try await Self.days(client, harness), total: 48_000, "steps")
            try await Self.post(client, harness, night, key: "night")
            let trip = try await Self.days(client, harness)
            Self.expectTiled(trip, total: 48_000, "with the night in Tokyo")
            #expect(trip.contains { $0["timezone"] as? String == "Asia/Tokyo" })
            // The night deleted: every day in Los Angeles again.
            try await client.execute(
                uri: "/v1/samples", method: .delete, headers: harness.headers("alice", idempotencyKey: "delete"),
                body: ByteBuffer(string: #"{"uuids": ["\#(Self.night)"]}"#)
            ) { response in #expect(response.status == .ok) }
            let home = try await Self.days(client, harness)
            Self.expectTiled(home, total: 48_000, "without the night")
            #expect(
                home.allSatisfy { $0["timezone"] as? String == "America/Los_Angeles" }, "\(home.map { $0["timezone"] ?? "" })")
        }
    }

    /// Days older than the 3,660 an adoption computes again stay as they were.
    @Test(arguments: ServerBackend.enabled)
    func daysOlderThanTenYearsSurviveTheFirstZone(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let today = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-3600))
        try await harness.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/samples", method: .post, headers: harness.headers("alice", idempotencyKey: "old"),
                body: ByteBuffer(
                    string:
                        #"{"samples": [{"type": "steps", "start": "2012-03-10T12:00:00Z", "end": "2012-03-10T12:10:00Z", "value": 2400, "unit": "count", "source": "Jane’s iPhone"}]}"#
                )
            ) { response in #expect(response.status == .ok) }
            try await Self.post(
                client, harness,
                #"{"samples": [{"type": "steps", "start": "\#(today)", "end": "\#(today)", "value": 7, "unit": "count", "source": "Jane’s iPhone"}]}"#,
                key: "today")
            try await client.execute(
                uri: "/v1/daily-metrics?from=2012-03-09&to=2012-03-11", method: .get, headers: harness.headers("alice")
            ) { response in
                let days = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]]
                #expect(days?.compactMap { $0["steps_normalized"] as? Int }.reduce(0, +) == 2400, "\(days ?? [])")
            }
        }
    }
}

extension HomeZoneTripTests {
    /// One step sample of `value` at `start`, as the posts below give it.
    static func steps(_ value: Int, at start: String) -> String {
        #"{"type": "steps", "start": "\#(start)", "end": "\#(start)", "value": \#(value), "unit": "count", "source": "Jane’s iPhone"}"#
    }

    /// An instant thirty days ago: recent, and before tomorrow whatever the clock.
    static var thirtyDaysAgo: String { ISO8601DateFormatter().string(from: Date().addingTimeInterval(-30 * 86400)) }

    /// A probe of 2026-11-28: a person's days were computed again (an import, the first zone,
    /// a new home zone) for the latest 3,660 days only. An export of twelve years, as an
    /// iPhone since 2014 gives, lost its oldest days; after the first `tz` they stayed in
    /// UTC, and after `PUT /v1/me/zone` in the old zone. Every day of the store is now
    /// computed in the home zone.
    @Test(arguments: ServerBackend.enabled)
    func twelveYearsOfDaysAreAllCountedInTheHomeZone(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let recent = Self.thirtyDaysAgo
        /// The day of October 1, 2014 (zone, steps); 18:00 UTC is 11:00 in Los Angeles and
        /// 03:00 on October 2 in Tokyo.
        @Sendable func october(_ client: some TestClientProtocol) async throws -> [String: (String, Int?)] {
            try await client.execute(
                uri: "/v1/daily-metrics?from=2014-09-30&to=2014-10-02", method: .get, headers: harness.headers("alice")
            ) { response in
                let days = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]]
                return Dictionary(
                    uniqueKeysWithValues: (days ?? []).compactMap { day in
                        (day["local_date"] as? String).map {
                            ($0, (day["timezone"] as? String ?? "?", day["steps_normalized"] as? Int))
                        }
                    })
            }
        }
        try await harness.app.test(.router) { client in
            try await Self.post(client, harness, #"{"samples": [\#(Self.steps(1234, at: "2014-10-01T18:00:00Z"))]}"#, key: "old")
            // The first zone named: every day, the one of 2014 too, in Los Angeles.
            try await client.execute(
                uri: "/v1/samples?tz=America/Los_Angeles", method: .post,
                headers: harness.headers("alice", idempotencyKey: "recent"),
                body: ByteBuffer(string: #"{"samples": [\#(Self.steps(7, at: recent))]}"#)
            ) { response in #expect(response.status == .ok) }
            let first = try await october(client)
            #expect(first["2014-10-01"]?.0 == "America/Los_Angeles" && first["2014-10-01"]?.1 == 1234, "\(first)")
            #expect(first.values.compactMap(\.1).reduce(0, +) == 1234, "\(first)")
            // A new home zone: the same.
            #expect(try await HomeZoneTests.zone(client, harness, put: "Asia/Tokyo").0 == .ok)
            let moved = try await october(client)
            #expect(moved["2014-10-02"]?.0 == "Asia/Tokyo" && moved["2014-10-02"]?.1 == 1234, "\(moved)")
            #expect(moved.values.allSatisfy { $0.0 == "Asia/Tokyo" }, "\(moved)")
            #expect(moved.values.compactMap(\.1).reduce(0, +) == 1234, "\(moved)")
        }
    }

    /// The review of the twelve years' fix: one sample dated 1900 (a device's reset clock)
    /// made every import and zone change compute 46,000 empty days (4 s a read waited for).
    /// The years with samples are computed, not the century between.
    @Test(arguments: ServerBackend.enabled)
    func aSampleOf1900ComputesItsYearNotTheCentury(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let recent = Self.thirtyDaysAgo
        @Sendable func days(_ client: some TestClientProtocol, _ from: String, _ to: String) async throws -> [[String: Any]] {
            try await client.execute(
                uri: "/v1/daily-metrics?from=\(from)&to=\(to)", method: .get, headers: harness.headers("alice")
            ) { response in
                (try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]]) ?? []
            }
        }
        try await harness.app.test(.router) { client in
            try await Self.post(
                client, harness, #"{"samples": [\#(Self.steps(5, at: "1900-01-02T18:00:00Z")), \#(Self.steps(7, at: recent))]}"#,
                key: "old")
            #expect(try await HomeZoneTests.zone(client, harness, put: "America/Los_Angeles").0 == .ok)
            let first = try await days(client, "1900-01-01", "1900-01-03")
            #expect(first.contains { $0["local_date"] as? String == "1900-01-02" && $0["steps_normalized"] as? Int == 5 })
            #expect(first.allSatisfy { $0["timezone"] as? String == "America/Los_Angeles" })
            // No row for the empty decades between.
            #expect(try await days(client, "1950-01-01", "1959-12-31").isEmpty)
            #expect(try await days(client, "1990-01-01", "1999-12-31").isEmpty)
        }
    }

    /// A stored day beside the computed ones that does not meet them (a trip's, left by a
    /// deleted night) is computed with them in the zone in effect, not deleted: deleted, its
    /// hours outside the computed days were on no day.
    @Test func aMisfitDayBesideTheComputedOnesIsComputedWithThem() async throws {
        let harness = try await ServerHarness(.sqlite)
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        try await harness.app.test(.router) { client in
            _ = try await harness.repositories.users.setHomeZone("America/Los_Angeles", userID: alice, onlyIfUnset: false)
            _ = try await harness.repositories.dailyMetrics.upsert(
                [ServerHarness.day("2024-06-03", zone: "Asia/Tokyo", steps: 5)], userID: alice)
            try await Self.post(
                client, harness,
                #"{"samples": [{"type": "steps", "start": "2024-06-01T20:00:00Z", "end": "2024-06-01T20:10:00Z", "value": 300, "unit": "count", "source": "Jane’s iPhone"}]}"#,
                key: "steps")
            let days = try await Self.days(client, harness)
            Self.expectTiled(days, total: 300, "beside a Tokyo day")
            #expect(days.first { $0["local_date"] as? String == "2024-06-03" }?["timezone"] as? String == "America/Los_Angeles")
        }
    }
}

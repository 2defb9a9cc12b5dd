import Foundation
import HealthMetrics
import HealthServer
import HealthServerRecords
import HealthServerStorage
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 33 §3: the payload's `sleep_source_json` (what a night's sleep came from, and its
/// time in bed) is stored by both backends (`server-v8`), read back, compared in upserts and
/// checked like the other figures.
@Suite struct I33SleepSourceRouteTests {
    @Test(arguments: ServerBackend.enabled) func i33_sleep_theSleepSourceIsStoredAndReadBack(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let date = ServerHarness.date(0)
        var day = ServerHarness.day(date, sleep: nil)
        day.sleepSource = SleepSourceMetadata(basis: .inBedOnly, inBedHours: 7.25)
        var changed = day
        changed.sleepSource = SleepSourceMetadata(basis: .inBedOnly, inBedHours: 7.5)
        var absurd = ServerHarness.day(ServerHarness.date(1))
        absurd.sleepSource = SleepSourceMetadata(basis: .watchStages, inBedHours: 30)
        let (first, second, third) = (day, changed, absurd)
        try await harness.app.test(.router) { client in
            for (days, expected) in [
                ([first], #"{"inserted":1,"unchanged":0,"updated":0}"#), ([first], #"{"inserted":0,"unchanged":1,"updated":0}"#),
                ([second], #"{"inserted":0,"unchanged":0,"updated":1}"#),
            ] {
                try await client.execute(
                    uri: "/v1/daily-metrics", method: .post, headers: harness.headers("alice"), body: try ServerHarness.body(days)
                ) { response in
                    #expect(response.status == .ok)
                    #expect(String(buffer: response.body) == expected)
                }
            }
            try await client.execute(
                uri: "/v1/daily-metrics", method: .post, headers: harness.headers("alice"), body: try ServerHarness.body([third])
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(ServerHarness.json(response.body)["pointer"] as? String == "/0/sleep_source_json/in_bed_hours")
            }
            try await client.execute(
                uri: "/v1/daily-metrics?from=\(date)&to=\(date)", method: .get, headers: harness.headers("alice")
            ) { response in
                #expect(response.status == .ok)
                let days = try #require(
                    try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [[String: Any]])
                #expect(days.count == 1)
                #expect(days.first?["sleep_hours"] is NSNull)
                let source = days.first?["sleep_source_json"] as? [String: Any]
                #expect(source?["basis"] as? String == "in_bed_only" && source?["in_bed_hours"] as? Double == 7.5)
            }
        }
        let stored = try await harness.store.dailyMetrics(
            userID: harness.ids["alice"]!, from: LocalDate(date)!, through: LocalDate(date)!, version: .v1)
        #expect(stored.map(\.sleepSource) == [SleepSourceMetadata(basis: .inBedOnly, inBedHours: 7.5)])
    }
}

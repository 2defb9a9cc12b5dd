import Foundation
import HealthMetrics
import HealthServer
import HealthServerRecords
import HealthServerStorage
import HealthWire
import Hummingbird
import HummingbirdTesting
import Testing

/// Upserts are idempotent; every error is problem+json with a detail and, for a bad field,
/// its JSON Pointer.
@Suite struct IngestAndErrorTests {
    @Test(arguments: ServerBackend.enabled) func aRetriedBatchChangesNothingAndAChangedDayIsUpdated(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let days = (0..<3).map { ServerHarness.day(ServerHarness.date($0)) }
        try await harness.app.test(.router) { client in
            for expected in [#"{"inserted":3,"unchanged":0,"updated":0}"#, #"{"inserted":0,"unchanged":3,"updated":0}"#] {
                try await client.execute(
                    uri: "/v1/daily-metrics", method: .post, headers: harness.headers("alice"), body: try ServerHarness.body(days)
                ) { response in
                    #expect(response.status == .ok)
                    #expect(String(buffer: response.body) == expected)
                }
            }
            var changed = days
            changed[1].stepsNormalized = 9001
            try await client.execute(
                uri: "/v1/daily-metrics", method: .post, headers: harness.headers("alice"), body: try ServerHarness.body(changed)
            ) { response in
                #expect(String(buffer: response.body) == #"{"inserted":0,"unchanged":2,"updated":1}"#)
            }
        }
        #expect(try await harness.store.dailyRowCounts() == [harness.ids["alice"]!: 3])
    }

    /// A flight day ends where the next day (in another zone) begins: 17 h long, accepted.
    @Test(arguments: ServerBackend.enabled) func aTravelDayWithShortBoundsIsAccepted(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        var day = ServerHarness.day("2024-06-10", zone: "America/Los_Angeles")
        day.utcDayEnd = day.utcDayStart.addingTimeInterval(17 * 3600)
        let body = try ServerHarness.body([day])
        try await harness.app.test(.router) { client in
            try await client.execute(uri: "/v1/daily-metrics", method: .post, headers: harness.headers("alice"), body: body) {
                response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test(arguments: ServerBackend.enabled) func everyErrorIsAProblemWithAPointer(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend) { $0.maxBodyBytes = 4096 }
        defer { harness.cleanUp() }
        var wrongStart = ServerHarness.day("2024-06-02")
        wrongStart.utcDayStart = wrongStart.utcDayStart.addingTimeInterval(3600)
        var badZone = ServerHarness.day("2024-06-03")
        badZone.timezoneIdentifier = "Mars/Olympus"
        var negative = ServerHarness.day("2024-06-04")
        negative.sleepHours = -1
        // Found attacking: a NUL after a zone was accepted (Foundation reads "UTC\0" as UTC)
        // and stored with it; PostgreSQL refuses a NUL in text.
        var nulZone = ServerHarness.day("2024-06-05")
        nulZone.timezoneIdentifier += "\u{0}"
        var nulSource = ServerHarness.day("2024-06-06")
        nulSource.stepsSources = StepsSourcesMetadata(
            primarySource: "apple_watch", secondarySourcesUsed: ["iphone\u{0}"], ignoredSources: [],
            suspiciousSteps: false, rawSampleCount: 3)
        let cases: [(body: ByteBuffer, contentType: String, status: HTTPResponse.Status, pointer: String?, detail: String)] = [
            (
                ByteBuffer(string: #"[{"local_date":"2024-06-01"}]"#), "application/json", .badRequest, "/0/timezone",
                "missing field 'timezone'"
            ),
            (ByteBuffer(string: "[{"), "application/json", .badRequest, nil, "the body is not valid JSON"),
            (
                try ServerHarness.body([ServerHarness.day("2024-06-01")]), "text/csv", .unsupportedMediaType, nil,
                "send Content-Type: application/json"
            ),
            (
                try ServerHarness.body([ServerHarness.day("2024-06-01"), wrongStart]), "application/json", .unprocessableContent,
                "/1/utc_day_start", "utc_day_start is not the start of 2024-06-02 in Europe/Amsterdam"
            ),
            (
                try ServerHarness.body([badZone]), "application/json", .unprocessableContent, "/0/timezone",
                "timezone must be an IANA zone such as Europe/Paris"
            ),
            (
                try ServerHarness.body([negative]), "application/json", .unprocessableContent, "/0/sleep_hours",
                "must be between 0.0 and 24.0"
            ),
            // Since issue 37's attack every body's NUL characters are refused before it is
            // decoded, with the place of the string itself.
            (
                try ServerHarness.body([nulZone]), "application/json", .unprocessableContent, "/0/timezone",
                "a string holds the NUL character (\\u0000), which no store keeps; remove it"
            ),
            (
                try ServerHarness.body([nulSource]), "application/json", .unprocessableContent,
                "/0/steps_sources_json/secondary_sources_used/0",
                "a string holds the NUL character (\\u0000), which no store keeps; remove it"
            ),
            (
                try ServerHarness.body((0..<20).map { ServerHarness.day(ServerHarness.date($0)) }), "application/json",
                .contentTooLarge, nil, "the body is larger than the 4096 bytes this server accepts; send smaller batches"
            ),
        ]
        try await harness.app.test(.router) { client in
            for item in cases {
                var headers = harness.headers("alice")
                headers[.contentType] = item.contentType
                try await client.execute(uri: "/v1/daily-metrics", method: .post, headers: headers, body: item.body) { response in
                    let problem = ServerHarness.json(response.body)
                    #expect(response.status == item.status, "\(item.detail)")
                    #expect(response.headers[.contentType] == "application/problem+json")
                    #expect(problem["status"] as? Int == Int(item.status.code))
                    #expect(problem["pointer"] as? String == item.pointer)
                    #expect(problem["detail"] as? String == item.detail)
                }
            }
            try await client.execute(uri: "/v1/nothing", method: .get, headers: harness.headers("alice")) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/problem+json")
            }
            // A method a route does not have: 405 with the methods it has (HEAD with every GET).
            for (uri, allow) in [
                ("/v1/daily-metrics", "POST, GET, HEAD"), ("/v1/imports/abc", "GET, HEAD"), ("/healthz", "GET, HEAD"),
            ] {
                try await client.execute(uri: uri, method: .delete, headers: harness.headers("alice")) { response in
                    #expect(response.status == .methodNotAllowed)
                    #expect(response.headers[.allow] == allow)
                    #expect(response.headers[.contentType] == "application/problem+json")
                }
            }
            try await client.execute(
                uri: "/v1/daily-metrics?from=2024-06-09&to=2024-06-01", method: .get, headers: harness.headers("alice")
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(
                    ServerHarness.json(response.body)["detail"] as? String
                        == "from must not be after to, and the range at most 3660 days")
            }
        }
        // Nothing of a refused batch was written, not even its valid first day.
        #expect(try await harness.store.dailyRowCounts().isEmpty)
    }

    @Test(arguments: ServerBackend.enabled) func tooManyRequestsGetA429WithRetryAfter(_ backend: ServerBackend) async throws {
        // 2024-06-01 12:00:30 UTC, half a minute into a window, on a clock that stands still.
        let harness = try await ServerHarness(backend) {
            $0.requestsPerMinute = 3
            $0.clock = { Date(timeIntervalSince1970: 1_717_243_230) }
        }
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<5 {
                try await client.execute(
                    uri: "/v1/daily-metrics?from=2024-06-01&to=2024-06-01", method: .get, headers: harness.headers("alice")
                ) { response in
                    statuses.append(response.status)
                    if response.status == .tooManyRequests { #expect(response.headers[.retryAfter] == "30") }
                }
            }
            #expect(statuses == [.ok, .ok, .ok, .tooManyRequests, .tooManyRequests])
            // Another user has a window of their own.
            try await client.execute(
                uri: "/v1/daily-metrics?from=2024-06-01&to=2024-06-01", method: .get, headers: harness.headers("bob")
            ) { response in
                #expect(response.status == .ok)
            }
        }
    }

    /// Eight clients post overlapping 30-day batches at once: one row per day in the end.
    @Test(arguments: ServerBackend.enabled) func concurrentOverlappingUploadsEndInOneRowPerDay(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for start in 0..<8 {
                    let body = try ServerHarness.body(
                        (start * 5..<start * 5 + 30).map { ServerHarness.day(ServerHarness.date($0)) })
                    let headers = harness.headers("alice")
                    group.addTask {
                        try await client.execute(uri: "/v1/daily-metrics", method: .post, headers: headers, body: body) {
                            $0.status
                        }
                    }
                }
                for try await status in group { #expect(status == .ok) }
            }
        }
        // Days 0…64.
        #expect(try await harness.store.dailyRowCounts() == [harness.ids["alice"]!: 65])
    }

    /// The repository itself, below the route's validation: 2,500 days in one call (more
    /// than one PostgreSQL statement carries), and a day given twice in one batch (the
    /// later copy wins, as if sent one after the other).
    @Test(arguments: ServerBackend.enabled) func largeBatchesAndRepeatedDaysUpsertInOrder(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let alice = harness.ids["alice"]!
        let days = (0..<2500).map { ServerHarness.day(ServerHarness.date($0)) }
        #expect(try await harness.store.upsert(days, userID: alice) == UpsertCounts(inserted: 2500))
        #expect(try await harness.store.upsert(days, userID: alice) == UpsertCounts(unchanged: 2500))
        var changed = days[7]
        changed.stepsNormalized = 1234
        #expect(
            try await harness.store.upsert([days[7], changed, days[8]], userID: alice)
                == UpsertCounts(updated: 1, unchanged: 2))
        let stored = try await harness.store.dailyMetrics(
            userID: alice, from: LocalDate(days[7].localDate)!, through: LocalDate(days[7].localDate)!, version: .v1)
        #expect(stored.map(\.stepsNormalized) == [1234])
        #expect(try await harness.store.dailyRowCounts() == [alice: 2500])
    }
}

import Foundation
import HealthCore
import HealthMetrics
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HealthServer
@testable import HealthServerRecords
@testable import HealthServerStorage

/// Finding L10 (issue 32): the small edges — a dashboard date in year 0 was a 500; 401s
/// had no `WWW-Authenticate`; a lower-case `bearer` was refused; wrong tokens were never
/// limited; recomputed days skipped the ranges a posted day must keep; `export.csv` with
/// `metrics=all` answered 200 to a token that may read nothing.
@Suite struct L10EdgeTests {
    @Test(arguments: ServerBackend.enabled) func l10_datesOutsideTheServedYearsAre422(_ backend: ServerBackend) async throws {
        let harness = try await DashboardWebTests.harness(backend)
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let browser = Browser(client)
            try await browser.signIn(token: harness.tokens["alice"]!, allow: DashboardWebTests.all)
            for date in ["0000-01-01", "0001-01-01", "9999-12-31"] {
                #expect(try await browser.get("/dashboard?date=\(date)").status == .unprocessableContent, "\(date)")
            }
            #expect(try await browser.get("/dashboard?date=2024-06-01").status == .ok)
            for uri in ["/v1/daily-metrics?from=0000-01-01&to=0000-01-02", "/v1/readiness?date=0000-01-01"] {
                try await client.execute(uri: uri, method: .get, headers: harness.headers("alice")) { response in
                    #expect(response.status == .unprocessableContent, "\(uri)")
                }
            }
        }
    }

    @Test(arguments: ServerBackend.enabled) func l10_bearerChallengesSchemesAndGuessing(_ backend: ServerBackend) async throws {
        // A fixed clock: the budget is per minute, and a loaded suite may cross one.
        let harness = try await ServerHarness(backend) { $0.clock = { DashboardWebTests.now } }
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            let uri = "/v1/daily-metrics?from=2024-06-01&to=2024-06-01"
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="healthpipe""#)
            }
            try await client.execute(
                uri: uri, method: .get, headers: [.authorization: "bearer \(harness.tokens["alice"]!)"]
            ) { response in
                #expect(response.status == .ok)
            }
            // 30 wrong tokens a minute from one address, then 429 for wrong ones; a right one passes.
            let wrong = "Bearer hp_000000000000_" + String(repeating: "A", count: 43)
            for _ in 0..<30 {
                try await client.execute(uri: uri, method: .get, headers: [.authorization: wrong]) { response in
                    #expect(response.status == .unauthorized)
                    #expect(response.headers[.wwwAuthenticate]?.contains(#"error="invalid_token""#) == true)
                }
            }
            try await client.execute(uri: uri, method: .get, headers: [.authorization: wrong]) { response in
                #expect(response.status == .tooManyRequests)
                #expect(response.headers[.retryAfter] != nil)
            }
            try await client.execute(uri: uri, method: .get, headers: harness.headers("alice")) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test(arguments: ServerBackend.enabled) func l10_exportOfAllForATokenThatMayReadNothingIs403(
        _ backend: ServerBackend
    )
        async throws
    {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        // A coach's token for steps, which Alice has not granted: it may read nothing.
        let (_, token) = try await harness.store.addToken(owner: "alice", name: "coach", readTypes: [.steps], writeTypes: [])
        try await harness.app.test(.router) { client in
            try await client.execute(
                uri: "/v1/export.csv?metrics=all&from=2024-06-01&to=2024-06-02", method: .get,
                headers: [.authorization: "Bearer \(token.text)"]
            ) { response in
                #expect(response.status == .forbidden)
            }
        }
    }

    @Test func l10_computedDaysKeepThePostedRanges() {
        var day = ServerHarness.day("2024-06-01", steps: 2_000_000, sleep: 30, restingHR: 5, hrv: 4000, energy: 90_000)
        day.stepsRawSum = 20_000_000
        let kept = DailyMetricsValidation.withoutImplausibleFigures(day)
        #expect(kept.stepsNormalized == nil && kept.stepsRawSum == nil && kept.sleepHours == nil)
        #expect(kept.restingHRBpm == nil && kept.hrvMs == nil && kept.activeEnergyKcal == nil)
        let fine = ServerHarness.day("2024-06-01")
        #expect(DailyMetricsValidation.withoutImplausibleFigures(fine) == fine)
    }
}

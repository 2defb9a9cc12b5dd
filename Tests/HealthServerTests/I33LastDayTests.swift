import Foundation
import HealthCore
import HealthServer
import HealthServerRecords
import HealthServerStorage
import HealthTestSupport
import Hummingbird
import HummingbirdTesting
import Testing

/// Issue 33 §1 end to end: on a store whose data ends a year ago, `days`, `sleep`,
/// `readiness`, `dashboard --print`, `export csv` and `snapshot` showed 30 rows of "—", a
/// header-only CSV, "Nothing recorded today yet" — exit 0, no hint — and neither `import`
/// nor `stats` said where the data was. Now relative ranges end at the last day with data
/// (one line on standard error says so), an empty range says where the data is, `import`
/// and `stats` print each kind's first and last day, and the server's dashboard opens on
/// the last day with data too.
@Suite struct I33LastDayTests {
    /// `healthpipe arguments…` to its end, in UTC: exit status, standard output, standard error.
    static func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = try ChildProcess.binary()
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "UTC"
        environment["HEALTHPIPE_POSTGRES_URL"] = nil
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Standard error stays small (a line or two): reading the output first cannot block it.
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }

    static func lines(_ text: String) -> [Substring] { text.split(whereSeparator: \.isNewline) }

    @Test(.timeLimit(.minutes(5))) func i33_lastday_theCLIViewsShowTheLastDataAndSaySo() async throws {
        let database = try await YearOldStore.database()
        let db = database.path
        defer { try? FileManager.default.removeItem(atPath: (db as NSString).deletingLastPathComponent) }

        let days = try Self.run(["days", "--db", db, "--last", "30", "--tz", "UTC"])
        #expect(days.status == 0)
        #expect(days.err == "latest data 2024-12-30; showing the 30 days to it\n")
        let rows = Self.lines(days.out)
        try #require(rows.count == 31, "\(days.out)")
        #expect(rows[1].hasPrefix("2024-12-01") && rows[30].hasPrefix("2024-12-30"), "\(days.out)")
        #expect(rows[30].contains(" 1200 ") && rows[30].contains(" 54.0 ") && rows[28].contains(" 1000 "), "\(days.out)")

        let sleep = try Self.run(["sleep", "--db", db, "--last", "7", "--tz", "UTC"])
        #expect(sleep.status == 0 && sleep.err == "latest data 2024-12-30; showing the 7 days to it\n")
        let nights = Self.lines(sleep.out)
        try #require(nights.count == 8, "\(sleep.out)")
        #expect(nights[7].hasPrefix("2024-12-30"), "\(sleep.out)")
        #expect(nights[7].contains(" 23:00 ") && nights[7].contains(" 06:30 ") && nights[7].contains(" 7.50 "), "\(sleep.out)")

        let readiness = try Self.run(["readiness", "--db", db, "--tz", "UTC"])
        #expect(readiness.status == 0 && readiness.err == "latest data 2024-12-30; showing that day\n")
        #expect(Self.lines(readiness.out).dropFirst().first?.hasPrefix("2024-12-30") == true, "\(readiness.out)")

        let page = try Self.run(["dashboard", "--db", db, "--tz", "UTC", "--print"])
        #expect(page.status == 0)
        #expect(page.out.contains("<title>Health — 2024-12-30</title>"))
        #expect(page.out.contains(">Latest data 2024-12-30; showing the 30 days to it.</p>"))
        #expect(!page.out.contains("Nothing recorded today yet."))

        let csv = try Self.run(["export", "csv", "--db", db, "--metrics", "steps", "--tz", "UTC"])
        #expect(csv.status == 0 && csv.err.hasPrefix("latest data 2024-12-30; showing the 30 days to it\n"), "\(csv.err)")
        let csvRows = Self.lines(csv.out)
        try #require(csvRows.count == 4, "\(csv.out)")
        #expect(csvRows[1].hasPrefix("2024-12-28") && csvRows[3].hasPrefix("2024-12-30"), "\(csv.out)")
        #expect(csvRows[3].contains("1200"))

        let snapshot = try Self.run(["snapshot", "--db", db, "--tz", "UTC"])
        #expect(snapshot.status == 0)
        #expect(snapshot.err == "latest data 2024-12-30; the snapshot is as of its newest sample\n")
        #expect(snapshot.out.hasPrefix("Snapshot 2024-12-30 12:10") && snapshot.out.contains("1200 steps"), "\(snapshot.out)")
    }

    @Test(.timeLimit(.minutes(5))) func i33_lastday_aRangeWithNoDataSaysWhereTheDataIs() async throws {
        let database = try await YearOldStore.database()
        let db = database.path
        defer { try? FileManager.default.removeItem(atPath: (db as NSString).deletingLastPathComponent) }
        let asked = try Self.run(["days", "--db", db, "--from", "2025-12-01", "--to", "2025-12-07", "--tz", "UTC"])
        #expect(asked.status == 0)
        #expect(asked.err == "no data from 2025-12-01 to 2025-12-07; the data runs from 2024-12-28 to 2024-12-30\n")
        // A day given with --today is shown as asked: no move, only where the data is.
        let today = try Self.run(["sleep", "--db", db, "--last", "3", "--today", "2025-12-31", "--tz", "UTC"])
        #expect(today.err == "no data from 2025-12-29 to 2025-12-31; the data runs from 2024-12-28 to 2024-12-30\n")
        let date = try Self.run(["readiness", "--db", db, "--date", "2025-12-31", "--tz", "UTC"])
        #expect(date.err == "no data on 2025-12-31; the data runs from 2024-12-28 to 2024-12-30\n")
        let csv = try Self.run(["export", "csv", "--db", db, "--metrics", "steps", "--to", "2025-12-31", "--tz", "UTC"])
        #expect(csv.err.hasPrefix("no data from 2025-12-02 to 2025-12-31; the data runs from 2024-12-28 to 2024-12-30\n"))
        #expect(Self.lines(csv.out).count == 1)
    }

    @Test(.timeLimit(.minutes(5))) func i33_lastday_importAndStatsPrintEachKindsFirstAndLastDay() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hp-i33-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let export = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/apple-health/rinoshiyo-apple-health-mcp-server/sample_export.xml")
        let db = folder + "/health.sqlite"
        // Every record is on 2024-06-15, 07:00–12:00 UTC.
        let imported = try Self.run(["import", export.path, "--db", db, "--quiet"])
        #expect(imported.status == 0, "\(imported.err)")
        let importLines = Self.lines(imported.out).map(String.init)
        #expect(importLines.contains { $0.hasPrefix("  days with data, first to last (") }, "\(imported.out)")
        for line in [
            "    steps     2024-06-15 to 2024-06-15", "    heart     2024-06-15 to 2024-06-15",
            "    workouts  2024-06-15 to 2024-06-15", "    other     2024-06-15 to 2024-06-15",
        ] {
            #expect(importLines.contains(line), "\(imported.out)")
        }
        let stats = try Self.run(["stats", "--db", db])
        #expect(stats.status == 0)
        let statsLines = Self.lines(stats.out).map(String.init)
        #expect(statsLines.contains { $0.hasPrefix("Days with data, first to last (") }, "\(stats.out)")
        #expect(
            statsLines.contains("  steps     2024-06-15 to 2024-06-15")
                && statsLines.contains("  workouts  2024-06-15 to 2024-06-15"))
        let json = try Self.run(["stats", "--db", db, "--json"])
        let body = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let kinds = try #require(body["days_by_kind"] as? [String: [String: String]])
        #expect(kinds["steps"] == ["first": "2024-06-15", "last": "2024-06-15"] && kinds["sleep"] == nil)
    }

    /// 2025-06-01, 20:00 UTC: a year after `DashboardWebTests`' data.
    static let yearLater = Date(timeIntervalSince1970: 1_717_272_000 + 365 * 86400)

    /// The server's page counts from the last day with data too — the samples', or a day
    /// posted as a day after them — and `?date=` is shown as asked.
    @Test(arguments: ServerBackend.enabled) func i33_lastday_theServerDashboardOpensOnTheLastDayWithData(
        _ backend: ServerBackend
    ) async throws {
        let harness = try await ServerHarness(backend) { $0.clock = { Self.yearLater } }
        defer { harness.cleanUp() }
        try await harness.app.test(.router) { client in
            try await DashboardWebTests.seed(harness, client, user: "alice", base: 9_000)
            let browser = Browser(client)
            try await browser.signIn(token: harness.tokens["alice"]!, allow: DashboardWebTests.all)
            let page = try await browser.get("/dashboard").body
            #expect(page.contains("Health, Saturday 1 June 2024"))
            #expect(page.contains(">Latest data 2024-06-01; showing the 30 days to it.</p>"))
            let asked = try await browser.get("/dashboard?date=2024-05-20").body
            #expect(asked.contains("Health, Monday 20 May 2024") && !asked.contains(">Latest data"))
            try await client.execute(
                uri: "/v1/daily-metrics", method: .post, headers: harness.headers("alice"),
                body: try ServerHarness.body([ServerHarness.day(ServerHarness.date(5), zone: "UTC", steps: 4321)])
            ) { #expect($0.status == .ok) }
            let later = try await browser.get("/dashboard").body
            #expect(later.contains("Health, Thursday 6 June 2024"))
            #expect(later.contains(">Latest data 2024-06-06; showing the 30 days to it.</p>"))
        }
    }
}

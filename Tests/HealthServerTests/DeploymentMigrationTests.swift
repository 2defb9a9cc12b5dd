import Foundation
import HealthCore
import HealthImport
import HealthPostgres
import HealthSQLite
import HealthServer
import HealthServerRecords
import HealthServerStorage
import HealthSynth
import Hummingbird
import HummingbirdTesting
import Testing

/// `healthpipe migrate`: a three-user SQLite deployment moved into PostgreSQL answers the
/// same, change feed for change feed, and a second move into the same database is refused.
@Suite(.enabled(if: ServerBackend.postgresURL != nil, "needs HEALTHPIPE_TEST_POSTGRES_URL"))
struct DeploymentMigrationTests {
    @Test func aThreeUserDeploymentMovesWithIdenticalChangeFeeds() async throws {
        let harness = try await ServerHarness(.sqlite)
        defer { harness.cleanUp() }
        // Alice: a generated export (workouts with routes, activity summaries, sleep), some of
        // it deleted; Bob: a batch through the API; the reader: samples with given UUIDs.
        var configuration = SyntheticExport.Configuration(days: 10, seed: 3)
        configuration.startDate = "2024-02-01"
        let export = harness.folder.appendingPathComponent("export.zip")
        _ = try await SyntheticExport(configuration: configuration).write(to: export)
        let alice = try HealthDatabase(path: harness.folder.appendingPathComponent("users/\(harness.ids["alice"]!).sqlite").path)
        _ = try await HealthImporter(database: alice).run(path: export.path)
        let steps = try await alice.store.changes(of: .stepCount, since: .initial, limit: 30).samples
        _ = try await alice.store.delete(uuids: steps.prefix(20).map(\.uuid))
        try await alice.appData.saveDailyLog(try DailyLogEntry(date: LocalDate("2024-02-03")!, energy: 4, note: "ok"))
        try await harness.app.test(.router) { client in try await harness.postSampleBatch(client, user: "bob") }
        let reader = try HealthDatabase(
            path: harness.folder.appendingPathComponent("users/\(harness.ids["reader"]!).sqlite").path)
        let t0 = Date(timeIntervalSince1970: 1_720_000_000)
        try await reader.store.add(
            (0..<5).map {
                Sample(
                    type: .heartRate, start: t0 + Double($0 * 60), end: t0 + Double($0 * 60),
                    value: .quantity(60 + Double($0), unit: "count/min"), source: Source(name: "Watch"), uuid: UUID())
            })

        let schema = try await TestSchemas.shared.make()
        let pool = try await PostgresPool(url: ServerBackend.postgresURL!, schema: schema)
        let migration = DeploymentMigration(
            serverDatabase: harness.folder.appendingPathComponent("server.sqlite").path, dataFolder: harness.folder.path)
        let report = try await migration.run(to: pool)
        #expect(report.users == 3 && report.rows["users"] == 3 && report.tombstones == 20)
        #expect(report.samples == (try alice.counts()["sample"] ?? 0) + 4 + 5)
        #expect(report.changesCompared >= report.samples + report.tombstones)

        // The moved server answers Alice's token with the same feed, routes and days log.
        let samples = try await PostgresHealthDatabase(pool: pool)
        let moved = samples.store(for: harness.ids["alice"]!)
        let everything = DateInterval(start: Date(timeIntervalSince1970: 1_700_000_000), duration: 86400 * 365)
        #expect(
            try await moved.workoutRoutes(overlapping: everything, maxPoints: 20)
                == (try await alice.store.workoutRoutes(overlapping: everything, maxPoints: 20)))
        #expect(try await moved.activitySummary(on: "2024-02-05") == (try await alice.store.activitySummary(on: "2024-02-05")))
        #expect(try await PostgresAppData(store: moved).dailyLog(on: LocalDate("2024-02-03")!)?.energy == 4)
        let store = try await PostgresServerStore(pool: pool)
        #expect(try await store.authenticate(BearerToken(harness.tokens["bob"]!)!)?.name == "bob")
        // A second move into a database with users is refused, and changes nothing.
        await #expect(throws: DeploymentMigration.Refused.self) { try await migration.run(to: pool) }
        await samples.close()
        await pool.close()
        await TestSchemas.shared.drop(schema)
    }
}

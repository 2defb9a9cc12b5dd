import Foundation
import GRDB
import HealthCore
import Testing

@testable import HealthServer
@testable import HealthServerStorage

/// Migration `server-v11` gives a person with days already the zone most of their days are
/// in: their days computed later then meet the stored ones. Without it a person whose days
/// were Los Angeles' (written with `?tz=`) had none, and a write without `tz` computed UTC
/// days beside them, overlapping one and leaving 7 hours on no day (helper-64).
@Suite struct HomeZoneMigrationTests {
    @Test func theHomeZoneOfAPersonWithDaysIsTheZoneOfMostOfThem() async throws {
        let harness = try await ServerHarness(.sqlite)
        defer { harness.cleanUp() }
        let alice = try #require(harness.ids["alice"])
        let days =
            (1...5).map { ServerHarness.day("2024-06-0\($0)", zone: "America/Los_Angeles") }
            + [ServerHarness.day("2024-06-06", zone: "Asia/Tokyo")]
        _ = try await harness.repositories.dailyMetrics.upsert(days, userID: alice)
        let queue = try DatabaseQueue(path: harness.folder.appendingPathComponent("server.sqlite").path)
        defer { try? queue.close() }
        let migration = try #require(ServerSchema.migrations.first { $0.id == "server-v11" })
        let fill = try #require(migration.sqlite.range(of: "UPDATE"))
        try await queue.write { db in try db.execute(sql: String(migration.sqlite[fill.lowerBound...])) }
        #expect(try await harness.repositories.users.homeZone(userID: alice) == "America/Los_Angeles")
        let bob = try #require(harness.ids["bob"])
        #expect(try await harness.repositories.users.homeZone(userID: bob) == nil)
        #expect(migration.postgres.last?.contains(ServerSchema.homeZoneOfDays("users.id")) == true)
    }
}

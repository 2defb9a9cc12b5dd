import Foundation
import HealthCore
import HealthDaily
import Logging
import Testing

@testable import HealthServer
@testable import HealthServerRecords
@testable import HealthServerStorage

/// Issue 34 §3/§4: the days of a person's samples are computed in one place,
/// `DayRecomputer`, which knows repositories and stores, not requests — tested here without
/// a router. (Before, the computation was a part of the HTTP handlers' type.)
@Suite struct I34DayRecomputerTests {
    /// Samples written with their spans marked dirty, in one transaction; the recomputer
    /// stores their days (the steps of 2024-06-01 in Paris: 100 + 101 + … + 119 = 2,190)
    /// and clears the spans; a second run finds nothing to do.
    @Test(arguments: ServerBackend.enabled) func dirtyDaysAreComputedStoredAndCleared(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let repositories = harness.repositories()
        let alice = try #require(harness.ids["alice"])
        let recomputer = DayRecomputer(repositories: repositories, logger: Logger(label: "i34-days"))
        let samples = SyncRouteTests.samples(20).map(HealthRecord.sample)
        try await repositories.writing(alice) { database in
            _ = try await database.apply([.records(samples), .markDirty(zone: "Europe/Paris")])
            #expect(try await database.dirtySpans().count == 1)
            let (days, counts) = try await recomputer.computeDirtyDays(userID: alice, database: database)
            #expect(days >= 1)
            #expect(counts.inserted == days)
            #expect(try await database.dirtySpans().isEmpty)
            let again = try await recomputer.computeDirtyDays(userID: alice, database: database)
            #expect(again.0 == 0)
        }
        let stored = try await repositories.dailyMetrics.dailyMetrics(
            userID: alice, from: LocalDate("2024-06-01")!, through: LocalDate("2024-06-01")!, version: .v1)
        #expect(stored.map(\.stepsNormalized) == [2_190])
        #expect(stored.map(\.timezoneIdentifier) == ["Europe/Paris"])
    }

    /// Before a read, spans left dirty (a failure after a commit) are computed first.
    @Test(arguments: ServerBackend.enabled) func aReadComputesWhatAWriteLeftDirty(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let repositories = harness.repositories()
        let bob = try #require(harness.ids["bob"])
        try await repositories.writing(bob) { database in
            _ = try await database.apply([.records(SyncRouteTests.samples(3).map(HealthRecord.sample)), .markDirty(zone: "UTC")])
        }
        let recomputer = DayRecomputer(repositories: repositories, logger: Logger(label: "i34-days"))
        try await recomputer.computeDirtyDaysBeforeReading(userID: bob)
        let stored = try await repositories.dailyMetrics.dailyMetrics(
            userID: bob, from: LocalDate("2024-06-01")!, through: LocalDate("2024-06-01")!, version: .v1)
        #expect(stored.map(\.stepsNormalized) == [303])
        #expect(try await repositories.readableStore(bob).dirtySpans().isEmpty)
    }
}

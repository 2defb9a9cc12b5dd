import Foundation
import HealthCore
import HealthMetrics
import HealthServerRecords
import HealthWire
import Logging
import Testing

@testable import HealthServer

/// Issue 34 §3: taking in samples and sync batches are use cases of their own, run here
/// without HTTP (no request, no router): what they write, and what they refuse.
@Suite struct I34UseCasesTests {
    static let paris = TimeZone(identifier: "Europe/Paris")!

    /// The harness's user `name` as the bearer middleware would find them.
    static func user(_ harness: ServerHarness, _ name: String) async throws -> User {
        try #require(try await harness.store.authenticate(BearerToken(harness.tokens[name]!)!))
    }

    static func recomputer(_ harness: ServerHarness) -> DayRecomputer {
        DayRecomputer(repositories: harness.repositories, logger: Logger(label: "test"))
    }

    /// What the day service does for `userID`, its errors thrown: how many days it computed.
    static func computeDays(_ harness: ServerHarness, _ userID: String) async throws -> Int {
        try await harness.repositories.writing(userID) { database in
            try await recomputer(harness).computeDirtyDays(userID: userID, database: database).0
        }
    }

    @Test(arguments: ServerBackend.enabled)
    func i34_samplesAreAddedOnceAndTheirDaysComputedAfter(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let queue = DayQueue()
        let intake = SampleIntake(repositories: harness.repositories, days: queue)
        let alice = try await Self.user(harness, "alice")
        let samples = SyncRouteTests.samples(6)
        let records = samples.map(HealthRecord.sample)
        let first = try await intake.add(records, user: alice, zone: Self.paris)
        #expect(first.records == 6 && first.added == 6 && first.duplicates == 0)
        // Answered once committed: the days are pending, the person queued for them.
        #expect(first.daysRecomputed == 0 && first.daysPending == true)
        let again = try await intake.add(records, user: alice, zone: Self.paris)
        #expect(again.added == 0 && again.duplicates == 6 && again.daysPending == nil)
        #expect(queue.take() == [alice.id])
        #expect(queue.take().isEmpty)
        // The day, and the next (a night that starts on one ends on the other).
        #expect(try await Self.computeDays(harness, alice.id) == 2)
        let days = try await harness.repositories.dailyMetrics.dailyMetrics(
            userID: alice.id, from: LocalDate("2024-06-01")!, through: LocalDate("2024-06-01")!, version: .v1)
        // 100 + 101 + … + 105 steps on Saturday 1 June in Paris.
        #expect(days.map(\.stepsNormalized) == [615])

        let deleted = try await intake.delete(samples.prefix(2).map(\.uuid), user: alice, zone: Self.paris)
        #expect(deleted.deleted.count == 2 && deleted.unknown.isEmpty && deleted.daysPending == true)
        #expect(queue.take() == [alice.id])
        // The day, and the next (a night that starts on one ends on the other).
        #expect(try await Self.computeDays(harness, alice.id) == 2)
        let after = try await harness.repositories.dailyMetrics.dailyMetrics(
            userID: alice.id, from: LocalDate("2024-06-01")!, through: LocalDate("2024-06-01")!, version: .v1)
        #expect(after.map(\.stepsNormalized) == [615 - 100 - 101])
    }

    @Test func i34_aTokenThatMayNotWriteTheKindWritesNothing() async throws {
        let harness = try await ServerHarness(.sqlite)
        defer { harness.cleanUp() }
        let queue = DayQueue()
        let intake = SampleIntake(repositories: harness.repositories, days: queue)
        let reader = try await Self.user(harness, "reader")
        let refusal = await #expect(throws: Problem.self) {
            try await intake.add(SyncRouteTests.samples(3).map(HealthRecord.sample), user: reader, zone: Self.paris)
        }
        #expect(refusal?.status == .forbidden)
        let store = try await harness.repositories.readableStore(reader.id).queries
        #expect(try await store.storedSampleTypes().isEmpty)
        #expect(queue.take().isEmpty)
    }

    @Test(arguments: ServerBackend.enabled)
    func i34_aBatchIsAppliedOnceAndAReplayedSequenceRefused(_ backend: ServerBackend) async throws {
        let harness = try await ServerHarness(backend)
        defer { harness.cleanUp() }
        let alice = try await Self.user(harness, "alice")
        let queue = DayQueue()
        let key = SyncKey.generate()
        let device = SyncDevice(id: UUID().uuidString.lowercased(), userID: alice.id, name: "Phone", createdAt: Date())
        try await harness.repositories.devices.addDevice(device, key: key)
        let intake = SyncBatchIntake(
            configuration: ServerConfiguration(), repositories: harness.repositories, days: queue,
            once: RequestOnce(
                remembered: harness.repositories.idempotency, slots: harness.repositories.inFlight, clock: { Date() }),
            logger: Logger(label: "test"))
        let enrolled = SyncRouteTests.EnrolledDevice(id: device.id, userID: alice.id, key: key)
        let samples = SyncRouteTests.samples(4)
        let items =
            samples.map { SyncItem.add(SampleWire($0)) } + [
                .delete(uuid: samples[0].uuid, type: "HKQuantityTypeIdentifierStepCount")
            ]
        let answer = try await intake.receive(
            try SyncRouteTests.envelope(items, device: enrolled, sequence: 1), user: alice, zone: Self.paris)
        #expect(answer.sequence == 1 && answer.added == 4 && answer.deleted == 1 && answer.daysPending == true)
        #expect(queue.take() == [alice.id])
        // The day, and the next (a night that starts on one ends on the other).
        #expect(try await Self.computeDays(harness, alice.id) == 2)
        #expect(try await harness.repositories.devices.device(id: device.id)?.lastSequence == 1)

        // Another batch with the same sequence: refused, nothing applied.
        let replay = await #expect(throws: Problem.self) {
            try await intake.receive(
                try SyncRouteTests.envelope(
                    SyncRouteTests.samples(2, from: 10).map { .add(SampleWire($0)) }, device: enrolled, sequence: 1),
                user: alice, zone: Self.paris)
        }
        #expect(replay?.status == .unprocessableContent && replay?.pointer == "/sequence")
        let days = try await harness.repositories.dailyMetrics.dailyMetrics(
            userID: alice.id, from: LocalDate("2024-06-01")!, through: LocalDate("2024-06-01")!, version: .v1)
        #expect(days.map(\.stepsNormalized) == [101 + 102 + 103])

        // Another user's device is unknown to bob.
        let bob = try await Self.user(harness, "bob")
        let unknown = await #expect(throws: Problem.self) {
            try await intake.receive(
                try SyncRouteTests.envelope(items, device: enrolled, sequence: 2), user: bob, zone: Self.paris)
        }
        #expect(unknown?.status == .forbidden && unknown?.title == "Unknown device")
    }
}

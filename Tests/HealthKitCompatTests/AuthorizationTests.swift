import Foundation
import HealthCore
import HealthKitCompat
import Testing

/// HealthKit's authorization rules, one test each.
@Suite struct AuthorizationTests {
    static let steps = HKQuantityType(.stepCount)
    static let sleep = HKCategoryType(.sleepAnalysis)
    static let day = DateInterval(start: Date(timeIntervalSince1970: 1_700_000_000), duration: 86400)

    static func store(_ policy: HKAuthorizationPolicy) async throws -> HKHealthStore {
        let memory = InMemoryHealthStore(samples: [
            Sample(
                type: .stepCount, start: day.start, end: day.start.addingTimeInterval(600), value: .quantity(420, unit: "count"),
                source: Source(name: "Watch"))
        ])
        return HKHealthStore(store: memory, authorization: policy)
    }

    static func stepSamples(_ store: HKHealthStore) async throws -> [HKSample] {
        try await HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: steps)], sortDescriptors: [SortDescriptor(\.startDate)]
        ).result(for: store)
    }

    @Test func aReadNotGrantedAnswersEmptyNotAnError() async throws {
        let store = try await Self.store(HKAuthorizationPolicy(read: [Self.sleep.identifier], share: []))
        try await store.requestAuthorization(toShare: [], read: [Self.steps, Self.sleep])
        #expect(try await Self.stepSamples(store).isEmpty)
        let granted = try await Self.store(.grantAll)
        try await granted.requestAuthorization(toShare: [], read: [Self.steps])
        #expect(try await Self.stepSamples(granted).count == 1)
    }

    @Test func readingBeforeAnyRequestIsAnError() async throws {
        let store = try await Self.store(.grantAll)
        await #expect(throws: HKError.self) { try await Self.stepSamples(store) }
    }

    @Test func statusReportsSharingOnly() async throws {
        let store = try await Self.store(HKAuthorizationPolicy(read: nil, share: [Self.sleep.identifier]))
        #expect(store.authorizationStatus(for: Self.steps) == .notDetermined)
        try await store.requestAuthorization(toShare: [Self.sleep, Self.steps], read: [Self.steps])
        // Reading steps is allowed, writing them is not: the status says denied.
        #expect(store.authorizationStatus(for: Self.steps) == .sharingDenied)
        #expect(store.authorizationStatus(for: Self.sleep) == .sharingAuthorized)
        #expect(try await Self.stepSamples(store).count == 1)
    }

    @Test func requestStatusTurnsUnnecessaryOnceAsked() async throws {
        let store = try await Self.store(.denyAll)
        #expect(try await store.statusForAuthorizationRequest(toShare: [], read: [Self.steps]) == .shouldRequest)
        try await store.requestAuthorization(toShare: [], read: [Self.steps])
        #expect(try await store.statusForAuthorizationRequest(toShare: [], read: [Self.steps]) == .unnecessary)
    }

    @Test func savingNeedsSharingPermission() async throws {
        let store = try await Self.store(HKAuthorizationPolicy(read: nil, share: []))
        try await store.requestAuthorization(toShare: [Self.steps], read: [Self.steps])
        let sample = HKQuantitySample(
            type: Self.steps, quantity: HKQuantity(unit: .count(), doubleValue: 10), start: Self.day.start,
            end: Self.day.start.addingTimeInterval(60))
        await #expect(throws: HKError.self) { try await store.save(sample) }
        #expect(try await Self.stepSamples(store).count == 1)
    }

    @Test func policyFileIsReadAndBadOnesNamed() throws {
        let folder = FileManager.default.temporaryDirectory
        let good = folder.appendingPathComponent("policy-\(UUID().uuidString).json")
        try Data(#"{"read": ["HKQuantityTypeIdentifierStepCount"], "share": "*"}"#.utf8).write(to: good)
        #expect(try HKAuthorizationPolicy(contentsOf: good) == HKAuthorizationPolicy(read: [Self.steps.identifier], share: nil))
        let bad = folder.appendingPathComponent("policy-\(UUID().uuidString).json")
        try Data(#"{"read": 3}"#.utf8).write(to: bad)
        #expect { try HKAuthorizationPolicy(contentsOf: bad) } throws: {
            "\($0)".contains(bad.path) && "\($0)".contains("\"read\"")
        }
    }
}

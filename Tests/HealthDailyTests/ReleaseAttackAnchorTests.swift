import Foundation
import HealthCore
import HealthDaily
import Testing

/// Finding H2 of the attack on the release build (2026-11-25): one sample dated 2150 —
/// written by a steps-only token, or in an export by a phone with a wrong clock — made
/// "the last day with data" a day in the future, so every view (dashboard, coach, readiness)
/// opened on an empty today instead of the person's last day.
@Suite struct ReleaseAttackAnchorTests {
    @Test func h2_aSampleDatedInTheFutureDoesNotMoveTheLastDayWithData() async throws {
        let store = InMemoryHealthStore(samples: [
            Build.steps("2024-12-28T12:00:00Z", "2024-12-28T12:10:00Z", 1000, device: Build.watch),
            Build.steps("2024-12-30T12:00:00Z", "2024-12-30T12:10:00Z", 1200, device: Build.watch),
            Build.steps("2150-01-01T12:00:00Z", "2150-01-01T12:01:00Z", 1, device: nil),
        ])
        let normalizer = I33NormalizerAnchorTests.normalizer(store)
        let anchor = try await normalizer.anchor()
        #expect(anchor.today == LocalDate("2025-12-31")!)
        #expect(anchor.day == LocalDate("2024-12-30")!)
        #expect(anchor.moved)
        #expect(anchor.movedNote(days: 7) == "latest data 2024-12-30; showing the 7 days to it")
        // A type whose only data is in the future does not count at all.
        let onlyFuture = InMemoryHealthStore(samples: [
            Build.steps("2024-12-30T12:00:00Z", "2024-12-30T12:10:00Z", 1200, device: Build.watch),
            Build.quantity(.restingHeartRate, "2150-01-01T08:00:00Z", 55, unit: "count/min"),
        ])
        let spans = try await I33NormalizerAnchorTests.normalizer(onlyFuture).spans(asOf: I33NormalizerAnchorTests.now)
        #expect(spans.map(\.type) == [.stepCount])
        #expect(try await I33NormalizerAnchorTests.normalizer(onlyFuture).anchor().day == LocalDate("2024-12-30")!)
        // A sample ending an hour from now is today's: the anchor stays on today.
        let ongoing = InMemoryHealthStore(samples: [
            Build.steps("2025-12-31T19:30:00Z", "2025-12-31T21:00:00Z", 300, device: Build.watch)
        ])
        let today = try await I33NormalizerAnchorTests.normalizer(ongoing).anchor()
        #expect(!today.moved && today.day == LocalDate("2025-12-31")!)
    }
}

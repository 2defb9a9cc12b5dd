import Foundation
import HealthContext
import HealthCore
import Testing

/// Found by the attack probe of 2026-11-25: a reader granted steps but not energy or
/// activity (a coach's `--kinds steps,sleep` token) got no `step_count_today`, with the
/// reason "energy, activity not granted" — the activity provider was withheld whole. Each
/// of its figures is now of its own kind.
@Suite struct ActivityWithholdingTests {
    @Test func probe_stepsAreGivenWhenOnlyEnergyAndActivityAreWithheld() async throws {
        let (store, app) = try await ContextFixture.inMemory()
        let snapshot = await ContextAssembler.standard(
            store: store, appData: app, weather: FixedWeather(), location: nil, configuration: SnapshotTests.configuration(),
            withheld: [.energy, .activity]
        ).assemble(at: ContextFixture.instant)
        #expect(snapshot.stepCountToday == 1400)
        #expect(snapshot.values.activeEnergyBurnedTodayKcal == nil && snapshot.values.exerciseMinutesToday == nil)
        let reasons = Dictionary(uniqueKeysWithValues: snapshot.missing.map { ($0.field, $0.reason) })
        #expect(reasons["active_energy_burned_today_kcal"] == "not permitted: energy not granted to this reader")
        #expect(reasons["exercise_minutes_today"] == "not permitted: activity not granted to this reader")
        #expect(reasons["stand_hours_today"] == "not permitted: activity not granted to this reader")
        #expect(reasons["step_count_today"] == nil)
        // Withheld whole when none of its kinds may be read.
        let none = await ContextAssembler.standard(
            store: store, appData: app, weather: FixedWeather(), location: nil, configuration: SnapshotTests.configuration(),
            withheld: [.steps, .energy, .activity]
        ).assemble(at: ContextFixture.instant)
        #expect(none.stepCountToday == nil)
        #expect(
            none.missing.first { $0.field == "step_count_today" }?.reason
                == "not permitted: steps, energy, activity not granted to this reader")
    }
}

import Foundation
import HealthCore
import HealthDaily
import Testing

@testable import HealthDashboard

/// Issue 33 §4: the workouts panel shows what each workout recorded of itself, and its data
/// and page say where each figure comes from.
@Suite struct WorkoutPanelSourcesTests {
    @Test func i33_workout_thePanelShowsTheWorkoutsOwnNumbersAndTheirSource() async throws {
        let database = try await GeneratedStore.shared.value
        let data = try await DashboardAssembler(store: database.store, settings: GeneratedStore.settings(), now: { Date() })
            .assemble(today: GeneratedStore.today)
        #expect(!data.workouts.isEmpty)
        // The generator writes each run's WorkoutStatistics, heart rate average="142".
        #expect(data.workouts.allSatisfy { $0.averageHeartRate == 142 && $0.heartRateSource == .workout })
        #expect(data.workouts.allSatisfy { $0.energySource == .workout && $0.distanceSource == .workout })
        let html = DashboardPage(data: data).html()
        #expect(
            html.components(separatedBy: "<dd data-source=\"workout\" title=\"recorded by the workout\">").count - 1
                == 3 * data.workouts.count)
        #expect(!html.contains("data-source=\"samples\""))
    }

    @Test func i33_workout_aFigureFromSamplesSaysSo() {
        let workout = WorkoutSummary(
            activity: "Running", start: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 2700),
            energyKcal: 510, distanceKm: nil, averageHeartRate: 142, energySource: .workout, heartRateSource: .samples)
        let data = DashboardData(
            today: "1970-01-01", zone: "UTC", rangeDays: 7, days: [], nights: [], readiness: nil, weights: [],
            workouts: [workout],
            rings: ActivityRings(
                moveKcal: nil, moveGoalKcal: 500, exerciseMinutes: nil, exerciseGoalMinutes: 30, standHours: nil,
                standGoalHours: 12))
        let html = DashboardPage(data: data).html()
        #expect(html.contains("<dt>Energy</dt><dd data-source=\"workout\" title=\"recorded by the workout\">510 kcal</dd>"))
        #expect(html.contains("<dt>Distance</dt><dd>—</dd>"))
        #expect(html.contains("<dt>Heart rate</dt><dd data-source=\"samples\" title=\"from the samples of the workout"))
        #expect(html.contains("142 bpm</dd>"))
    }
}

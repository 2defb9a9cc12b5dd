import Foundation
import GRDB
import HealthContext
import HealthCore
import HealthSQLite
import Testing

/// The daily log, planned workouts and coach interactions: the SQLite repository behaves
/// as the in-memory one, and the 1–5 scale is enforced on both sides.
@Suite struct AppDataTests {
    @Test func ratingsOutsideOneToFiveAreRejected() {
        let day = LocalDate("2026-11-20")!
        for (energy, mood, stress) in [(0, 3, 3), (3, 6, 3), (3, 3, -1)] {
            #expect(throws: DailyLogError.self) { try DailyLogEntry(date: day, energy: energy, mood: mood, stress: stress) }
        }
        #expect((try? DailyLogEntry(date: day, energy: 1, mood: 5, stress: 3)) != nil)
        let error = #expect(throws: DailyLogError.self) { try DailyLogEntry(date: day, mood: 9) }
        #expect(error?.description == "mood must be a whole number from 1 to 5")
    }

    @Test func theTableRefusesOutOfScaleValuesToo() throws {
        let folder = try ContextFixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("s.sqlite").path
        _ = try HealthDatabase(path: path)
        let raw = try DatabaseQueue(path: path)
        #expect(throws: DatabaseError.self) {
            try raw.write { try $0.execute(sql: "INSERT INTO daily_log (local_date, energy) VALUES ('2026-11-20', 7)") }
        }
        try raw.write { try $0.execute(sql: "INSERT INTO daily_log (local_date, energy) VALUES ('2026-11-20', 5)") }
    }

    @Test func sqliteAndInMemoryAgree() async throws {
        let folder = try ContextFixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("s.sqlite").path
        let sqlite = try HealthDatabase(path: path).appData
        let memory = InMemoryAppData()
        for app in [sqlite, memory] as [any AppDataRepository] { try await ContextFixture.fill(app) }
        // Reopened from disk: the records persist.
        let reopened = try HealthDatabase(path: path).appData
        let day = LocalDate("2026-11-20")!
        for app in [reopened, memory] as [any AppDataRepository] {
            // Two logs of one day merge: the second kept the first's energy and mood.
            #expect(
                try await app.dailyLog(on: day) == (try DailyLogEntry(date: day, energy: 4, mood: 3, stress: 2, note: "long day"))
            )
            #expect(try await app.dailyLog(on: day.adding(days: 1)) == nil)
            let all = try await app.plannedWorkouts(scheduledIn: DateInterval(start: .distantPast, end: .distantFuture))
            #expect(all.map(\.name) == ["Mobility", "Tempo run", "Long run"])
            #expect(all.map(\.id) == [1, 2, 3])
            #expect(all[1].durationMinutes == 45)
            #expect(try await app.workoutInProgress(at: ContextFixture.instant)?.name == "Mobility")
            #expect(try await app.workoutInProgress(at: ContextFixture.at("2026-11-20T07:00:00-05:00")) == nil)
            #expect(
                try await app.lastCoachInteraction(atOrBefore: ContextFixture.instant)?.at
                    == ContextFixture.at("2026-11-20T09:15:00-05:00"))
            #expect(try await app.lastCoachInteraction(atOrBefore: ContextFixture.at("2026-11-20T09:00:00-05:00")) == nil)
            var mobility = try #require(try await app.plannedWorkout(id: 1))
            mobility.finishedAt = ContextFixture.at("2026-11-20T07:50:00-05:00")
            try await app.updatePlannedWorkout(mobility)
            #expect(try await app.workoutInProgress(at: ContextFixture.instant) == nil)
            #expect(mobility.status(at: ContextFixture.instant) == .finished)
            let missing = PlannedWorkout(id: 99, name: "Ghost", scheduledAt: ContextFixture.instant)
            await #expect(throws: AppDataError(missingWorkoutID: 99)) { try await app.updatePlannedWorkout(missing) }
        }
    }

    @Test func mealNamesAndRelativeTimes() {
        let zone = TimeZone(identifier: "America/New_York")!
        #expect(LastMealProvider.mealName(at: ContextFixture.at("2026-11-20T07:15:00-05:00"), in: zone) == "Breakfast")
        #expect(LastMealProvider.mealName(at: ContextFixture.at("2026-11-20T10:30:00-05:00"), in: zone) == "Lunch")
        #expect(LastMealProvider.mealName(at: ContextFixture.at("2026-11-20T16:00:00-05:00"), in: zone) == "Snack")
        #expect(LastMealProvider.mealName(at: ContextFixture.at("2026-11-20T21:29:00-05:00"), in: zone) == "Dinner")
        #expect(LastMealProvider.mealName(at: ContextFixture.at("2026-11-20T23:00:00-05:00"), in: zone) == "Snack")
        #expect(LastMealProvider.ago(30) == "just now")
        #expect(LastMealProvider.ago(60) == "1 minute ago")
        #expect(LastMealProvider.ago(59 * 60 + 59) == "59 minutes ago")
        #expect(LastMealProvider.ago(3600) == "1 hour ago")
        #expect(LastMealProvider.ago(47 * 3600) == "47 hours ago")
        #expect(LastMealProvider.ago(3 * 86400) == "3 days ago")
    }

    @Test func localTimestampsAcrossDST() {
        let zone = TimeZone(identifier: "America/New_York")!
        // 2026-03-08 02:00 EST → 03:00 EDT.
        #expect(LocalTimestamp.format(ContextFixture.at("2026-03-08T06:59:59Z"), in: zone) == "2026-03-08T01:59:59-05:00")
        #expect(LocalTimestamp.format(ContextFixture.at("2026-03-08T07:00:00Z"), in: zone) == "2026-03-08T03:00:00-04:00")
        #expect(
            LocalTimestamp.format(ContextFixture.at("1969-12-31T23:00:00Z"), in: TimeZone(identifier: "UTC")!)
                == "1969-12-31T23:00:00+00:00")
        #expect(
            LocalTimestamp.format(Date(timeIntervalSince1970: 0), in: TimeZone(identifier: "Asia/Kolkata")!)
                == "1970-01-01T05:30:00+05:30")
        #expect(LocalTimestamp.parse("2026-03-08T03:00:00-04:00") == ContextFixture.at("2026-03-08T07:00:00Z"))
        #expect(LocalTimestamp.parse("2026-03-08 03:00") == nil)
    }
}

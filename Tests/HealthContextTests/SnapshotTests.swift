import Foundation
import HealthContext
import HealthCore
import HealthDaily
import HealthSQLite
import Testing

/// A snapshot from the fixture store with every field pinned, on the SQLite store and on
/// the in-memory one.
@Suite struct SnapshotTests {
    static func configuration() -> ContextAssembler.Configuration {
        var configuration = ContextAssembler.Configuration()
        configuration.daily.homeZone = TimeZone(identifier: "UTC")!  // the zone must come from HKTimeZone
        // Generous: these tests pin values, not deadlines (deadlines are AssemblerTests' and the
        // timing suite's subject). Inside the whole suite on two cores, CPU-heavy suites have
        // held the cooperative pool for over 20 s (seen twice in a run of 273 tests).
        configuration.providerTimeout = 300
        configuration.timeouts = [:]  // the stub weather included (its 1.0 s is AssemblerTests' subject)
        configuration.dayTimeout = 300
        return configuration
    }

    static let berlin = GeoLocation(latitude: 52.52, longitude: 13.41)!

    @Test func everyFieldFromTheSQLiteStore() async throws {
        let folder = try ContextFixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await ContextFixture.database(in: folder)
        let snapshot = await ContextAssembler.standard(
            store: database.store, appData: database.appData, weather: FixedWeather(), location: Self.berlin,
            configuration: Self.configuration()
        ).assemble(at: ContextFixture.instant)
        Self.expectFixture(snapshot)
    }

    @Test func everyFieldFromTheInMemoryStores() async throws {
        let (store, app) = try await ContextFixture.inMemory()
        let snapshot = await ContextAssembler.standard(
            store: store, appData: app, weather: FixedWeather(), location: Self.berlin, configuration: Self.configuration()
        ).assemble(at: ContextFixture.instant)
        Self.expectFixture(snapshot)
    }

    static func expectFixture(_ snapshot: HealthContextSnapshot) {
        #expect(snapshot.date == LocalDate("2026-11-20"))
        #expect(snapshot.timezone.identifier == "America/New_York")
        #expect(snapshot.timestamp == ContextFixture.instant)
        #expect(snapshot.missing == [])
        let expected = ContextFixture.expected
        for field in ContextField.allCases {
            #expect(snapshot.values.has(field), "\(field.rawValue) is empty")
        }
        #expect(snapshot.values == expected)
        #expect(snapshot.stepCountToday == 1400)
        #expect(snapshot.lastMealLogged == "Breakfast (Oatmeal, berries), 1 hour ago")
    }

    @Test func jsonUsesSnakeCaseLocalOffsetsAndExplicitNulls() async throws {
        let (store, app) = try await ContextFixture.inMemory()
        let snapshot = await ContextAssembler.standard(
            store: store, appData: app, weather: FixedWeather(), location: nil, configuration: Self.configuration()
        ).assemble(at: ContextFixture.instant)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(snapshot)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["timestamp"] as? String == "2026-11-20T10:00:00-05:00")
        #expect(object["date"] as? String == "2026-11-20")
        #expect(object["last_night_bedtime"] as? String == "2026-11-19T22:40:00-05:00")
        #expect(object["last_night_waketime"] as? String == "2026-11-20T06:50:00-05:00")
        #expect(object["step_count_today"] as? Int == 1400)
        #expect(object["current_weather_condition"] is NSNull)
        #expect(Set(object.keys) == Set(ContextField.allCases.map(\.rawValue) + ["timestamp", "date", "timezone", "missing"]))
        // Without a location the weather is missing, with the reason.
        #expect(
            snapshot.missing == [
                .init(
                    field: "current_weather_condition", provider: "weather", reason: "no location given (latitude and longitude)"),
                .init(
                    field: "current_temperature_celsius", provider: "weather",
                    reason: "no location given (latitude and longitude)"),
            ])
        // And it decodes back to the same snapshot.
        #expect(try JSONDecoder().decode(HealthContextSnapshot.self, from: data) == snapshot)
    }

    /// The same store as of 06:00: no step yet counted after 06:00, the night not over (so
    /// "last night" is the one before, which does not exist), the 18th's weight.
    @Test func asOfAnEarlierInstantSeesNothingLater() async throws {
        let (store, app) = try await ContextFixture.inMemory()
        let snapshot = await ContextAssembler.standard(
            store: store, appData: app, weather: FixedWeather(), location: Self.berlin, configuration: Self.configuration()
        ).assemble(at: ContextFixture.at("2026-11-20T06:00:00-05:00"))
        #expect(snapshot.stepCountToday == 100)  // half of the sample across midnight
        #expect(snapshot.lastNightSleepDurationHours == nil)
        #expect(snapshot.missing.contains { $0.field == "last_night_waketime" && $0.reason.contains("no main sleep") })
        #expect(snapshot.restingHeartRateBPM == 57)
        #expect(snapshot.latestBodyWeightKg == 80.06)
        #expect(snapshot.activeWorkoutNameInProgress == nil)
        #expect(snapshot.upcomingPlannedWorkoutName == "Mobility")  // at 06:00 it is still to come
        #expect(snapshot.timeSinceLastCoachInteractionMinutes == nil)
        #expect(snapshot.lastMealLogged == nil)
        #expect(snapshot.standHoursToday == nil)
    }

    @Test func summaryForPeople() async throws {
        let (store, app) = try await ContextFixture.inMemory()
        let snapshot = await ContextAssembler.standard(
            store: store, appData: app, weather: FixedWeather(), location: Self.berlin, configuration: Self.configuration()
        ).assemble(at: ContextFixture.instant)
        #expect(
            snapshot.summary == """
                Snapshot 2026-11-20 10:00 America/New_York
                Feeling     energy 4/5 · mood 3/5 · stress 2/5
                Weather     Overcast · 6.8 °C
                Vitals      resting HR 54 bpm · HRV 41.3 ms
                Today       1400 steps · 50 kcal active · 25 min exercise · 3 stand hours
                Last night  7.25 h asleep · 88.8 % efficient · bed 22:40 · up 06:50
                Body        80.1 kg · 21.5 % body fat
                App         in progress: Mobility · next: Tempo run · coach 45 min ago
                Last meal   Breakfast (Oatmeal, berries), 1 hour ago
                """)
    }
}

import Foundation
import HealthContext
import HealthCore
import HealthSQLite

/// A hand-built day in New York with every snapshot field known: the expected values are
/// computed by hand in the comments, and decoys (later samples, duplicate sources, an
/// iPhone double count) that a wrong snapshot would pick up.
enum ContextFixture {
    static let zone = TimeZone(identifier: "America/New_York")!
    static let watch = Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardware: "Watch6,1")
    static let phone = Device(name: "iPhone", manufacturer: "Apple Inc.", model: "iPhone", hardware: "iPhone14,2")
    /// The snapshot instant: 2026-11-20 10:00 EST.
    static let instant = at("2026-11-20T10:00:00-05:00")

    static func at(_ text: String) -> Date { LocalTimestamp.parse(text)! }

    static func sample(
        _ type: SampleType, _ from: String, _ to: String, _ value: SampleValue, device: Device?, source: String? = nil,
        metadata: [MetadataEntry] = []
    ) -> Sample {
        Sample(
            type: type, start: at(from), end: at(to), value: value, source: Source(name: source ?? device?.name ?? "App"),
            device: device, metadata: metadata)
    }

    static func records() -> [HealthRecord] {
        let ny = [MetadataEntry(key: "HKTimeZone", value: "America/New_York")]
        func sleep(_ from: String, _ to: String, _ stage: String, _ device: Device, _ source: String) -> HealthRecord {
            .sample(
                sample(
                    .sleepAnalysis, from, to, .category("HKCategoryValueSleepAnalysis" + stage), device: device, source: source,
                    metadata: ny))
        }
        var records: [HealthRecord] = [
            // Last night (Watch): in bed 22:40–06:50 = 8 h 10 min; asleep 3 h core + 1 h deep +
            // 3 h 15 min REM = 7.25 h; efficiency 7.25 / 8.1667 = 88.8 %.
            sleep("2026-11-19T22:40:00-05:00", "2026-11-20T06:50:00-05:00", "InBed", watch, "Watch"),
            sleep("2026-11-19T23:00:00-05:00", "2026-11-20T02:00:00-05:00", "AsleepCore", watch, "Watch"),
            sleep("2026-11-20T02:00:00-05:00", "2026-11-20T03:00:00-05:00", "AsleepDeep", watch, "Watch"),
            sleep("2026-11-20T03:00:00-05:00", "2026-11-20T03:15:00-05:00", "Awake", watch, "Watch"),
            sleep("2026-11-20T03:15:00-05:00", "2026-11-20T06:30:00-05:00", "AsleepREM", watch, "Watch"),
            // The iPhone's longer in-bed is another source: never mixed in.
            sleep("2026-11-19T22:30:00-05:00", "2026-11-20T07:00:00-05:00", "InBed", phone, "iPhone"),
            // Vitals: the latest before 10:00 (a later one is a decoy).
            .sample(
                sample(
                    .restingHeartRate, "2026-11-19T00:00:00-05:00", "2026-11-19T23:59:00-05:00", .quantity(57, unit: "count/min"),
                    device: watch)),
            .sample(
                sample(
                    .restingHeartRate, "2026-11-20T00:00:00-05:00", "2026-11-20T09:00:00-05:00", .quantity(54, unit: "count/min"),
                    device: watch)),
            .sample(
                sample(
                    .restingHeartRate, "2026-11-20T00:00:00-05:00", "2026-11-20T11:00:00-05:00", .quantity(70, unit: "count/min"),
                    device: watch)),
            .sample(
                sample(
                    .heartRateVariabilitySDNN, "2026-11-20T03:00:00-05:00", "2026-11-20T03:01:00-05:00",
                    .quantity(41.25, unit: "ms"), device: watch)),
            // Steps: Watch 1000; the iPhone's overlapping 1200 is dropped; its 300 at 08:00 with
            // no Watch coverage counts; 100 of the 200 across midnight; 500 after 10:00 not yet.
            // 1000 + 300 + 100 = 1400.
            .sample(
                sample(
                    .stepCount, "2026-11-20T07:00:00-05:00", "2026-11-20T07:30:00-05:00", .quantity(1000, unit: "count"),
                    device: watch)),
            .sample(
                sample(
                    .stepCount, "2026-11-20T07:00:00-05:00", "2026-11-20T07:40:00-05:00", .quantity(1200, unit: "count"),
                    device: phone)),
            .sample(
                sample(
                    .stepCount, "2026-11-20T08:00:00-05:00", "2026-11-20T08:10:00-05:00", .quantity(300, unit: "count"),
                    device: phone)),
            .sample(
                sample(
                    .stepCount, "2026-11-19T23:50:00-05:00", "2026-11-20T00:10:00-05:00", .quantity(200, unit: "count"),
                    device: watch)),
            .sample(
                sample(
                    .stepCount, "2026-11-20T10:30:00-05:00", "2026-11-20T10:40:00-05:00", .quantity(500, unit: "count"),
                    device: watch)),
            // Active energy: Watch 50 Cal (= kcal); the iPhone's overlapping 60 kcal dropped.
            .sample(
                sample(
                    .activeEnergyBurned, "2026-11-20T07:00:00-05:00", "2026-11-20T07:30:00-05:00", .quantity(50, unit: "Cal"),
                    device: watch)),
            .sample(
                sample(
                    .activeEnergyBurned, "2026-11-20T07:00:00-05:00", "2026-11-20T07:30:00-05:00", .quantity(60, unit: "kcal"),
                    device: phone)),
            // Body: 176.5 lb on the 18th (= 80.0590533 kg → 80.06) is later than 80 kg on the 10th;
            // the 21st's is after the snapshot. Body fat 0.215 → 21.5 %.
            .sample(
                sample(
                    .bodyMass, "2026-11-10T07:00:00-05:00", "2026-11-10T07:00:00-05:00", .quantity(80, unit: "kg"), device: nil,
                    source: "Withings")),
            .sample(
                sample(
                    .bodyMass, "2026-11-18T07:00:00-05:00", "2026-11-18T07:00:00-05:00", .quantity(176.5, unit: "lb"),
                    device: nil, source: "Withings")),
            .sample(
                sample(
                    .bodyMass, "2026-11-21T07:00:00-05:00", "2026-11-21T07:00:00-05:00", .quantity(90, unit: "kg"), device: nil,
                    source: "Withings")),
            .sample(
                sample(
                    .bodyFatPercentage, "2026-11-18T07:00:00-05:00", "2026-11-18T07:00:00-05:00", .quantity(0.215, unit: "%"),
                    device: nil, source: "Withings")),
        ]
        // Exercise: 25 one-minute Watch samples from 07:00.
        for minute in 0..<25 {
            let start = at("2026-11-20T07:00:00-05:00").addingTimeInterval(Double(minute) * 60)
            records.append(
                .sample(
                    Sample(
                        type: .appleExerciseTime, start: start, end: start.addingTimeInterval(60),
                        value: .quantity(1, unit: "min"), source: Source(name: "Watch"), device: watch)))
        }
        // Stand hours: stood 06, 07 (twice, two sources), 08; idle 09; stood 10 (after 10:00:00? it starts at 10:00, not before) → 3.
        for (hour, value, source) in [
            (6, "Stood", "Watch"), (7, "Stood", "Watch"), (7, "Stood", "Other Watch"), (8, "Stood", "Watch"),
            (9, "Idle", "Watch"),
            (10, "Stood", "Watch"),
        ] {
            let start = at(String(format: "2026-11-20T%02d:00:00-05:00", hour))
            records.append(
                .sample(
                    Sample(
                        type: .appleStandHour, start: start, end: start.addingTimeInterval(3600),
                        value: .category("HKCategoryValueAppleStandHour" + value), source: Source(name: source), device: watch)))
        }
        // Breakfast at 08:15 in a food app, as a correlation with its nutrient also at top level;
        // 1 h 45 min before the snapshot → "1 hour ago".
        let meal = [
            MetadataEntry(key: "HKFoodMeal", value: "breakfast"), MetadataEntry(key: "HKFoodType", value: "Oatmeal, berries"),
        ]
        let energy = sample(
            .dietaryEnergyConsumed, "2026-11-20T08:15:00-05:00", "2026-11-20T08:15:00-05:00", .quantity(420, unit: "kcal"),
            device: nil, source: "Lose It!", metadata: meal)
        records.append(.sample(energy))
        records.append(
            .correlation(
                Correlation(
                    type: .food, start: energy.start, end: energy.end, source: energy.source, metadata: meal, objects: [energy])))
        // A snack after the snapshot: not yet eaten.
        records.append(
            .sample(
                sample(
                    .dietaryEnergyConsumed, "2026-11-20T10:30:00-05:00", "2026-11-20T10:30:00-05:00",
                    .quantity(150, unit: "kcal"), device: nil, source: "Lose It!")))
        return records
    }

    /// The app's records: a workout started at 07:05 and not finished, one planned at 18:00
    /// (upcoming), one on the 22nd (beyond tomorrow); the coach at 09:15 (45 min) and 10:30.
    static func fill(_ app: any AppDataRepository) async throws {
        try await app.saveDailyLog(DailyLogEntry(date: LocalDate("2026-11-20")!, energy: 4, mood: 3))
        try await app.saveDailyLog(DailyLogEntry(date: LocalDate("2026-11-20")!, stress: 2, note: "long day"))
        var mobility = try await app.addPlannedWorkout(
            PlannedWorkout(name: "Mobility", scheduledAt: at("2026-11-20T07:00:00-05:00")))
        mobility.startedAt = at("2026-11-20T07:05:00-05:00")
        try await app.updatePlannedWorkout(mobility)
        _ = try await app.addPlannedWorkout(
            PlannedWorkout(name: "Tempo run", scheduledAt: at("2026-11-20T18:00:00-05:00"), durationMinutes: 45))
        _ = try await app.addPlannedWorkout(PlannedWorkout(name: "Long run", scheduledAt: at("2026-11-22T09:00:00-05:00")))
        try await app.recordCoachInteraction(CoachInteraction(at: at("2026-11-20T09:15:00-05:00")))
        try await app.recordCoachInteraction(CoachInteraction(at: at("2026-11-20T10:30:00-05:00")))
    }

    /// The expected values, by hand.
    static var expected: ContextValues {
        var values = ContextValues()
        values.subjectiveEnergyLevel = 4
        values.subjectiveMood = 3
        values.subjectiveStress = 2
        values.currentWeatherCondition = "Overcast"
        values.currentTemperatureCelsius = 6.8
        values.restingHeartRateBPM = 54
        values.heartRateVariabilitySDNNms = 41.3
        values.activeEnergyBurnedTodayKcal = 50
        values.stepCountToday = 1400
        values.exerciseMinutesToday = 25
        values.standHoursToday = 3
        values.lastNightSleepDurationHours = 7.25
        values.lastNightSleepEfficiencyPercentage = 88.8
        values.lastNightBedtime = at("2026-11-19T22:40:00-05:00")
        values.lastNightWaketime = at("2026-11-20T06:50:00-05:00")
        values.latestBodyWeightKg = 80.06
        values.latestBodyFatPercentage = 21.5
        values.activeWorkoutNameInProgress = "Mobility"
        values.timeSinceLastCoachInteractionMinutes = 45
        values.lastMealLogged = "Breakfast (Oatmeal, berries), 1 hour ago"
        values.upcomingPlannedWorkoutName = "Tempo run"
        return values
    }

    /// The SQLite store with the records and app data, in `folder`.
    static func database(in folder: URL) async throws -> HealthDatabase {
        let database = try HealthDatabase(path: folder.appendingPathComponent("context.sqlite").path)
        try database.write { writer in for record in records() { try writer.write(record) } }
        try await fill(database.appData)
        return database
    }

    /// The same data in memory.
    static func inMemory() async throws -> (InMemoryHealthStore, InMemoryAppData) {
        let samples = records().flatMap { record -> [Sample] in
            switch record {
            case .sample(let sample): [sample]
            case .correlation(let correlation): [correlation.header] + correlation.objects
            default: []
            }
        }
        let app = InMemoryAppData()
        try await fill(app)
        return (InMemoryHealthStore(samples: samples), app)
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("healthpipe-context-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static var recordedForecast: Data {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/open-meteo/forecast-current.json")
        return try! Data(contentsOf: url)
    }
}

/// A weather client that answers at once with a fixed reading (the real client is tested
/// against a loopback server in ``OpenMeteoClientTests``).
struct FixedWeather: WeatherProviding {
    var weather = CurrentWeather(condition: "Overcast", temperatureCelsius: 6.8, weatherCode: 3)

    func currentWeather(at location: GeoLocation) async throws -> CurrentWeather { weather }
}

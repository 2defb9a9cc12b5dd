import Foundation
import GRDB
import HealthCore
import HealthImport
import Testing

@testable import HealthSQLite

/// What an attack on the import found (issue 37's speed work, 2026-11-28): values that are
/// no finite number stored as infinity, summaries without a date, a message without a type.
@Suite struct I37ImportAttackFindingsTests {
    static func export(_ records: String) -> Data {
        Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" startDate="2024-06-01 08:00:00 +0000" endDate="2024-06-01 08:10:00 +0000" value="800"/>
             \(records)
            </HealthData>
            """.utf8)
    }

    /// `records` (after one good record) fail to import, as record 2, for a value that is no
    /// finite number; the store is unchanged.
    static func expectRefused(_ records: String, file name: String) async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await BadInputTests.populatedStore(in: folder)
        let xml = folder.appendingPathComponent(name)
        try Self.export(records).write(to: xml)
        try await BadInputTests.expectFailure(
            xml.path, into: database, .invalidRecord, mentioning: [name, "record 2", "finite number"])
    }

    /// `records` (after one good record) imported into a new store, and `body` run on it.
    static func imported(
        _ records: String, _ body: (HealthDatabase, ImportSummary) async throws -> Void
    ) async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        let xml = folder.appendingPathComponent("export.xml")
        try Self.export(records).write(to: xml)
        try await body(database, try await Fixtures.importExport(xml.path, into: database))
    }

    /// With a unit, "inf" and its kind were read as a category's text (the unit dropped) and
    /// stored as infinity; they are a quantity that is no finite number, and refused.
    @Test(arguments: ["inf", "-inf", "NaN", "1e309", "-1e400", "Infinity", " +inf ", "1" + String(repeating: "0", count: 400)])
    func aValueThatIsNoFiniteNumberIsRefused(_ text: String) async throws {
        try await Self.expectRefused(
            """
            <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" startDate="2024-06-01 09:00:00 +0000" endDate="2024-06-01 09:10:00 +0000" value="\(text)"/>
            """, file: "infinite.xml")
    }

    /// A category's text that reads as an infinite number is kept as text, with no number.
    @Test func aCategoryTextThatReadsAsInfinityHasNoNumber() async throws {
        let record = """
            <Record type="HKCategoryTypeIdentifierMindfulSession" sourceName="Watch" startDate="2024-06-01 09:00:00 +0000" endDate="2024-06-01 09:10:00 +0000" value="inf"/>
            """
        try await Self.imported(record) { database, _ in
            let rows = try await database.pool.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT s.value, s.value_text FROM sample s JOIN sample_type t ON t.id = s.type_id
                        WHERE t.identifier = 'HKCategoryTypeIdentifierMindfulSession'
                        """)
            }
            #expect(rows.count == 1)
            #expect(rows.first?["value"] as Double? == nil)
            #expect(rows.first?["value_text"] as String? == "inf")
        }
    }

    /// An activity summary is stored by its date: one without a real date was stored under
    /// `""` (or `2024-02-30`) where no day reads it. It is left out, with a warning.
    @Test func anActivitySummaryWithoutARealDateIsLeftOut() async throws {
        let summaries = """
            <ActivitySummary appleStandHours="3"/><ActivitySummary dateComponents="" appleStandHours="9"/>
            <ActivitySummary dateComponents="garbage" appleStandHours="9"/>
            <ActivitySummary dateComponents="2024-02-30" appleStandHours="9"/>
            <ActivitySummary dateComponents="2024-03-+5" appleStandHours="9"/>
            <ActivitySummary dateComponents="2024-02-29" appleStandHours="11"/>
            """
        try await Self.imported(summaries) { database, summary in
            #expect(summary.warnings["ActivitySummary without a valid dateComponents (left out)"] == 5)
            let rows = try await database.pool.read { db in
                try Row.fetchAll(db, sql: "SELECT date, apple_stand_hours FROM activity_summary")
            }
            #expect(rows.map { $0["date"] as String } == ["2024-02-29"])
            #expect(rows.first?["apple_stand_hours"] as Double? == 11)
        }
    }

    /// A workout's, an event's, a statistic's or a summary's number that is no finite number
    /// (`NaN`, `inf`, text) was dropped without a word: it is still left out (the record is
    /// kept), and the import says so, once per element and attribute.
    @Test func aWorkoutNumberThatIsNoFiniteNumberIsLeftOutWithAWarning() async throws {
        let records = """
            <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="NaN" durationUnit="min" totalDistance="inf" totalDistanceUnit="km" totalEnergyBurned="abc" totalEnergyBurnedUnit="kcal" sourceName="Watch" startDate="2024-06-01 07:00:00 +0000" endDate="2024-06-01 07:30:00 +0000">
             <WorkoutEvent type="HKWorkoutEventTypePause" date="2024-06-01 07:10:00 +0000" duration="-inf" durationUnit="min"/>
             <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="2024-06-01 07:00:00 +0000" endDate="2024-06-01 07:30:00 +0000" average="NaN" minimum="90" maximum="1e999" unit="count/min"/>
            </Workout>
            <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="20" durationUnit="min" totalEnergyBurned="NaN" totalEnergyBurnedUnit="kcal" sourceName="Watch" startDate="2024-06-01 18:00:00 +0000" endDate="2024-06-01 18:20:00 +0000"/>
            <ActivitySummary dateComponents="2024-06-01" appleStandHours="NaN" appleExerciseTime="22"/>
            """
        try await Self.imported(records) { database, summary in
            let expected = [
                "Workout duration": 1, "Workout totalDistance": 1, "Workout totalEnergyBurned": 2,
                "WorkoutEvent duration": 1, "WorkoutStatistics average": 1, "WorkoutStatistics maximum": 1,
                "ActivitySummary appleStandHours": 1,
            ]
            for (place, count) in expected {
                #expect(summary.warnings["\(place) that is not a finite number (left out)"] == count, "\(place)")
            }
            #expect(summary.warnings.count == expected.count, "\(summary.warnings)")
            let workouts = try await database.pool.read { db in
                try Row.fetchAll(db, sql: "SELECT duration, total_distance, total_energy_burned FROM workout ORDER BY anchor")
            }
            #expect(workouts.count == 2)
            #expect(workouts.first?["duration"] as Double? == nil)
            #expect(workouts.last?["duration"] as Double? == 20)
            #expect(workouts.allSatisfy { $0["total_energy_burned"] as Double? == nil })
            let statistic = try await database.pool.read { db in
                try Row.fetchOne(db, sql: "SELECT average, minimum, maximum FROM workout_statistic")
            }
            #expect(statistic?["average"] as Double? == nil)
            #expect(statistic?["minimum"] as Double? == 90)
            #expect(statistic?["maximum"] as Double? == nil)
        }
    }

    /// An audiogram's header is read as a sample's: a value that is no finite number is
    /// refused there too (it was stored as infinity).
    @Test func anAudiogramWhoseValueIsNoFiniteNumberIsRefused() async throws {
        try await Self.expectRefused(
            """
            <Audiogram type="HKDataTypeIdentifierAudiogram" sourceName="Ears" unit="dBHL" value="inf" startDate="2024-06-01 09:00:00 +0000" endDate="2024-06-01 09:00:00 +0000"><SensitivityPoint frequencyValue="500" frequencyUnit="Hz" leftEarValue="10" leftEarUnit="dBHL"/></Audiogram>
            """, file: "audiogram.xml")
    }

    /// A message names at most 40 bytes of a unit, however its characters are made.
    @Test func aMessageBoundsTheUnitInBytes() throws {
        let unit = "u" + String(repeating: "\u{301}", count: 5_000)
        let problem = try #require(PlausibleRange.violation(value: 2e12, unit: unit, type: .stepCount))
        #expect(problem.utf8.count < 200, "\(problem.utf8.count) bytes")
    }

    /// The generic bound's message names the unit and the type (never the value).
    @Test func theGenericBoundNamesTheUnitAndTheType() {
        #expect(
            PlausibleRange.violation(value: 2e12, unit: "steps", type: .stepCount)
                == "value must be between -1000000000000 and 1000000000000 steps for HKQuantityTypeIdentifierStepCount")
        #expect(
            PlausibleRange.violation(value: -3e12, unit: "count", type: SampleType("HKQuantityTypeIdentifierNew"))
                == "value must be between -1000000000000 and 1000000000000 count for HKQuantityTypeIdentifierNew")
    }
}

/// `healthpipe import` of a Health Auto Export file said only "not an Apple Health export"
/// (a probe): it says what the file is and where it goes in.
@Suite struct I37AutoExportFileTests {
    @Test func aHealthAutoExportFileIsNamedAndSentToTheServerRoute() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try await BadInputTests.populatedStore(in: folder)
        let json = folder.appendingPathComponent("HealthAutoExport-2023-01-31.json")
        let fixture = Fixtures.root.deletingLastPathComponent()
            .appendingPathComponent("health-auto-export/irvinlim__unmarshal_aggregated_sleep_analysis_2.json")
        try FileManager.default.copyItem(at: fixture, to: json)
        try await BadInputTests.expectFailure(
            json.path, into: database, .notAnExport,
            mentioning: ["HealthAutoExport-2023-01-31.json", "Health Auto Export", "/v1/health-auto-export"])
        // Its empty body too.
        let empty = folder.appendingPathComponent("empty.json")
        try Data(#"{"data": {}}"#.utf8).write(to: empty)
        try await BadInputTests.expectFailure(empty.path, into: database, .notAnExport, mentioning: ["Health Auto Export"])
        // Any other file is still only not an export.
        let other = folder.appendingPathComponent("notes.json")
        try Data(#"{"data": [1, 2]}"#.utf8).write(to: other)
        try await BadInputTests.expectFailure(
            other.path, into: database, .notAnExport, mentioning: ["not an Apple Health export"])
    }
}

import Foundation
import HealthCore
import HealthImport
import HealthSQLite
import HealthSynth
import Testing

@Suite struct SynthTests {
    static func generate(
        days: Int, start: String = "2024-02-20", seed: UInt64 = 5, persona: SyntheticExport.Persona = .watch, name: String,
        in folder: URL
    ) async throws
        -> (URL, GroundTruth)
    {
        var configuration = SyntheticExport.Configuration(days: days, seed: seed)
        configuration.startDate = start
        configuration.persona = persona
        let url = folder.appendingPathComponent(name)
        return (url, try await SyntheticExport(configuration: configuration).write(to: url))
    }

    @Test func sameSeedSameBytes() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (first, truth) = try await Self.generate(days: 8, name: "a.xml", in: folder)
        let firstBytes = try Data(contentsOf: first)
        let (second, _) = try await Self.generate(days: 8, name: "b.xml", in: folder)
        #expect(try Data(contentsOf: second) == firstBytes)
        let (other, _) = try await Self.generate(days: 8, seed: 6, name: "c.xml", in: folder)
        #expect(try Data(contentsOf: other) != firstBytes)
        #expect(truth.xmlBytes == Int64(firstBytes.count))
    }

    /// A 30-day export across the spring DST change with the trip: the import holds exactly
    /// what the ground truth says was written, and the truth describes the hard parts.
    @Test func importMatchesTheGroundTruth() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (zip, truth) = try await Self.generate(days: 30, name: "export.zip", in: folder)
        let database = try Fixtures.database(in: folder)
        let summary = try await Fixtures.importExport(zip.path, into: database)
        let unique = truth.uniqueRecords
        #expect(summary.added[.activitySummary] == 30)
        #expect(summary.added[.workout] == unique["Workout"])
        #expect(
            summary.added[.correlation]
                == unique["HKCorrelationTypeIdentifierBloodPressure"]! + unique["HKCorrelationTypeIdentifierFood"]!)
        #expect(unique["HKCorrelationTypeIdentifierFood"] == 90)  // three meals a day
        #expect(truth.correlationChildrenAtTopLevel == 4 * 2 + 90 * 4)
        #expect(summary.totalDuplicates == truth.duplicateCopies)
        let storedSamples = try database.counts()["sample"]!
        #expect(storedSamples == unique.values.reduce(0, +) - unique["ActivitySummary"]!)
        #expect(summary.routeFilesLoaded == unique["Workout"])
        #expect(summary.exportInfo.exportVersion == 13)

        // Exported on 2024-03-21 (PDT): every timestamp carries -0700, also February's.
        #expect(truth.exportOffsetSeconds == -25200)
        let xml = try Data(contentsOf: folder.appendingPathComponent("export.zip"))
        #expect(!xml.isEmpty)
        #expect(truth.days.count == 30)
        #expect(Set(truth.days.map(\.timeZone)) == ["America/Los_Angeles", "Europe/Paris"])
        #expect(truth.days.filter { $0.timeZone == "Europe/Paris" }.count == 7)
        #expect(truth.days.contains { $0.bedtime.contains("T00:") })  // a night that starts after midnight
        #expect(truth.days.contains { $0.napMinutes > 0 })
        for day in truth.days {
            #expect(day.watchSteps <= day.steps && day.iPhoneSteps < day.steps + 1)
            #expect(day.watchSteps + day.iPhoneSteps > day.steps)  // both devices see shared steps
            #expect((240...560).contains(day.asleepMinutes), "\(day.date): \(day.asleepMinutes)")
        }
        let byType = try database.sampleCountsByType()
        #expect(byType["HKQuantityTypeIdentifierStepCount"] == unique["HKQuantityTypeIdentifierStepCount"])
        #expect(byType["HKQuantityTypeIdentifierHeartRate"] == unique["HKQuantityTypeIdentifierHeartRate"])
    }

    /// Issue 33 §3: the no-watch persona lives the same days without a Watch — no Watch record
    /// at all, the iPhone's schedule every night, the ring, the Garmin and the mat — and its
    /// import holds what its ground truth says was written.
    @Test func i33_sleep_noWatchPersonaWritesNoWatchRecord() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (xml, truth) = try await Self.generate(days: 14, persona: .noWatch, name: "export.xml", in: folder)
        let text = try String(contentsOf: xml, encoding: .utf8)
        #expect(!text.contains("Apple Watch"))
        #expect(text.contains("name:Oura Ring") && text.contains("name:Forerunner 265") && text.contains("name:Sleep Analyzer"))
        #expect(text.components(separatedBy: "HKCategoryValueSleepAnalysisInBed").count - 1 == 14)  // one a night
        #expect(truth.persona == "no-watch")
        #expect(truth.days.allSatisfy { $0.watchSteps == 0 && ($0.observableSteps ?? 0) <= $0.steps })
        #expect(truth.days.filter { $0.sleepBasis == "in_bed_only" }.count == 2)  // one night in seven
        #expect(truth.days.contains { ($0.trackerSteps ?? 0) > 0 })  // runs with the Garmin
        #expect(unique(truth, "HKQuantityTypeIdentifierBasalEnergyBurned") == 0)  // the Watch's alone
        #expect(unique(truth, "HKQuantityTypeIdentifierAppleExerciseTime") == 0)
        let database = try Fixtures.database(in: folder)
        let summary = try await Fixtures.importExport(xml.path, into: database)
        #expect(summary.totalDuplicates == truth.duplicateCopies)
        let storedSamples = try database.counts()["sample"]!
        #expect(storedSamples == truth.uniqueRecords.values.reduce(0, +) - truth.uniqueRecords["ActivitySummary"]!)
        // The Watch persona of the same seed walks the same walks.
        let (_, watch) = try await Self.generate(days: 14, name: "watch.xml", in: folder)
        #expect(truth.days.map(\.steps) == watch.days.map(\.steps))
        #expect(truth.days.map(\.asleepMinutes) == watch.days.map(\.asleepMinutes))
    }

    private func unique(_ truth: GroundTruth, _ type: String) -> Int { truth.uniqueRecords[type] ?? 0 }

    @Test func xmlTimestampsAllUseTheExportOffset() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (xml, truth) = try await Self.generate(days: 25, name: "export.xml", in: folder)
        let text = try String(contentsOf: xml, encoding: .utf8)
        #expect(truth.exportOffsetSeconds == -25200)
        #expect(text.contains("2024-02-20 ") && text.contains(" -0700\""))
        #expect(!text.contains(" -0800\"") && !text.contains(" +0100\""))
        #expect(text.contains("HKTimeZone\" value=\"Europe/Paris\""))
    }
}

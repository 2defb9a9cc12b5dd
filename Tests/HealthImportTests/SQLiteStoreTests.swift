import Foundation
import HealthCore
import HealthImport
import HealthSQLite
import Testing

/// The SQLite store answers every query exactly as the in-memory reference does.
@Suite struct SQLiteStoreTests {
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    /// Deterministic samples of several types, lengths (0 s to 10 h) and sources.
    static func samples() -> [Sample] {
        var state: UInt64 = 42
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        return (0..<400).map { index in
            let type: SampleType = [.stepCount, .heartRate, .sleepAnalysis][index % 3]
            let start = t0.addingTimeInterval(Double(next(86400)))
            let length = [0, 60, 600, 36000][next(4)]
            let value: SampleValue =
                type == .sleepAnalysis
                ? .category("HKCategoryValueSleepAnalysisAsleepCore") : .quantity(Double(next(200)), unit: "count")
            return Sample(
                type: type, start: start, end: start.addingTimeInterval(Double(length)), value: value,
                source: Source(name: ["Watch", "Phone"][next(2)], version: "1"),
                device: next(2) == 0 ? Device(name: "Apple Watch", hardware: "Watch6,1") : nil,
                metadata: next(3) == 0
                    ? [MetadataEntry(key: "HKTimeZone", value: "Europe/Paris"), MetadataEntry(key: "k", value: "\(index)")] : [],
                utcOffsetSeconds: 3600)
        }
    }

    static func stores() throws -> (URL, HealthDatabase, InMemoryHealthStore) {
        let folder = try Fixtures.temporaryFolder()
        let database = try Fixtures.database(in: folder)
        let samples = samples()
        try database.write { writer in for sample in samples { try writer.write(.sample(sample)) } }
        return (folder, database, InMemoryHealthStore(samples: samples))
    }

    /// The importer writes runs of samples as multi-row statements; what it stores must be
    /// exactly what writing the records one at a time stores: the same rows, the metadata
    /// and beats on the right samples, duplicates skipped wherever they fall in a run.
    @Test func batchedWritesStoreWhatOneByOneWritesStore() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var samples = Self.samples()
        samples[5].beats = [
            HeartbeatInstant(time: Self.t0, beatsPerMinute: 61), HeartbeatInstant(time: Self.t0 + 1, beatsPerMinute: 63),
        ]
        var records: [HealthRecord] = []
        for (index, sample) in samples.enumerated() {
            records.append(.sample(sample))
            if index % 7 == 3 { records.append(.sample(sample)) }  // a duplicate inside a run
            if index == 200 {  // a correlation whose members are stored samples and one new one
                var member = samples[10]
                member.type = .bloodPressureDiastolic
                records.append(
                    .correlation(
                        Correlation(
                            type: .bloodPressure, start: sample.start, end: sample.start, source: sample.source,
                            objects: [samples[9], member])))
            }
        }
        records += samples[100..<140].map { .sample($0) }  // a whole run of known samples

        let oneByOne = try Fixtures.database(in: folder.appendingPathComponent("a"))
        let batched = try Fixtures.database(in: folder.appendingPathComponent("b"))
        let single = try oneByOne.write { writer in
            for record in samples.prefix(20) { try writer.write(.sample(record)) }
            for record in records { try writer.write(record) }
            return (writer.added, writer.duplicates, writer.addedByType)
        }
        let batch = try batched.write { writer in
            for record in samples.prefix(20) { try writer.write(.sample(record)) }
            for start in stride(from: 0, to: records.count, by: 100) {
                try writer.write(RecordWriter.prepare(Array(records[start..<min(start + 100, records.count)])))
            }
            return (writer.added, writer.duplicates, writer.addedByType)
        }
        #expect(batch.0 == single.0 && batch.1 == single.1 && batch.2 == single.2)
        #expect(single.0[.sample] == 400 && single.0[.correlation] == 1)
        #expect(single.1[.sample] == 20 + 57 + 40)
        var counts = try Fixtures.snapshot(batched)
        #expect(counts["metadata"] == (try Fixtures.snapshot(oneByOne))["metadata"])
        #expect(counts["hrv_beat"] == 2)
        counts["lastAnchor"] = nil
        var expected = try Fixtures.snapshot(oneByOne)
        expected["lastAnchor"] = nil
        #expect(counts == expected)
        for type in [SampleType.stepCount, .heartRate, .sleepAnalysis, .bloodPressure, .bloodPressureDiastolic] {
            let got = try await batched.store.changes(of: type, since: .initial, limit: 1000)
            let want = try await oneByOne.store.changes(of: type, since: .initial, limit: 1000)
            #expect(got.samples == want.samples, "\(type)")
            #expect(!got.samples.isEmpty, "\(type)")
        }
        let withBeats = try await batched.store.changes(of: samples[5].type, since: .initial, limit: 1000).samples
        #expect(withBeats.contains { $0.beats?.map(\.beatsPerMinute) == [61, 63] })
    }

    @Test func overlapQueriesMatchTheReference() async throws {
        let (folder, database, reference) = try Self.stores()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.expectOverlapsMatch(database.store, reference)
    }

    @Test func latestAndStatisticsMatchTheReference() async throws {
        let (folder, database, reference) = try Self.stores()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.expectLatestAndStatisticsMatch(database.store, reference)
    }

    /// Issue 34 §1: the read port's inventory (per type: count, first and latest start,
    /// sources most-samples-first), the same from the SQLite store as from the reference.
    @Test func i34_port_inventoryMatchesTheReference() async throws {
        let (folder, database, reference) = try Self.stores()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.expectInventoryMatches(database.store, reference)
    }

    /// The store's inventory equals the reference's, over the three types of ``samples()``
    /// and both sources of each.
    static func expectInventoryMatches(_ store: any HealthQuerying, _ reference: InMemoryHealthStore) async throws {
        let got = try await store.sampleInventory()
        #expect(got == (await reference.sampleInventory()))
        #expect(got.map(\.type) == [.sleepAnalysis, .heartRate, .stepCount])
        #expect(got.map(\.count).reduce(0, +) == (await reference.count))
        for entry in got {
            #expect(Set(entry.sources) == ["Watch", "Phone"])
            let samples = await reference.samples(
                of: entry.type, overlapping: DateInterval(start: .distantPast, end: .distantFuture))
            let bySource = Dictionary(grouping: samples, by: \.source.name).mapValues(\.count)
            #expect(entry.sources == bySource.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map(\.key))
            #expect(entry.first == samples.map(\.start).min())
            #expect(entry.last == samples.map(\.start).max())
        }
    }

    /// Overlap queries of four types, from 12 starts, 4 lengths each, against the reference.
    static func expectOverlapsMatch(_ store: any HealthQuerying, _ reference: InMemoryHealthStore) async throws {
        for type in [SampleType.stepCount, .heartRate, .sleepAnalysis, .bodyMass] {
            for startHour in stride(from: -11, to: 26, by: 3) {
                for hours in [0.5, 1, 6, 24] {
                    let interval = DateInterval(
                        start: Self.t0.addingTimeInterval(Double(startHour) * 3600), duration: hours * 3600)
                    let got = try await store.samples(of: type, overlapping: interval)
                    let expected = await reference.samples(of: type, overlapping: interval)
                    #expect(got == expected, "\(type) \(interval)")
                }
            }
        }
    }

    /// The latest sample as of instants across the day, and a day's statistics, against the reference.
    static func expectLatestAndStatisticsMatch(_ store: any HealthQuerying, _ reference: InMemoryHealthStore) async throws {
        for type in [SampleType.stepCount, .heartRate, .sleepAnalysis, .bodyMass] {
            let got = try await store.latestSample(of: type)
            let expected = try await reference.latestSample(of: type)
            #expect(got == expected)
            // As of instants across the day, including before the first sample.
            for hour in stride(from: -1, through: 36, by: 1) {
                let instant = Self.t0.addingTimeInterval(Double(hour) * 3600 + 17)
                let asOf = try await store.latestSample(of: type, endingBy: instant)
                #expect(asOf == (await reference.latestSample(of: type, endingBy: instant)), "\(type) \(hour)")
                #expect(asOf.map { $0.end <= instant } ?? true)
            }
        }
        let count = try HealthUnit(parsing: "count")
        let day = DateInterval(start: Self.t0.addingTimeInterval(3600), duration: 43200)
        let got = try await store.statistics(of: .stepCount, over: day, unit: count)
        let expected = await reference.statistics(of: .stepCount, over: day, unit: count)
        #expect(got == expected)
        #expect(got.count > 10)
    }

    @Test func anchoredChangesAcrossImportsReturnEachSampleOnce() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        let store = database.store
        try await Fixtures.importExport(Fixtures.path("rinoshiyo-apple-health-mcp-server/sample_export.xml"), into: database)
        var anchor = QueryAnchor.initial
        var heartRates: [Double] = []
        repeat {
            let page = try await store.changes(of: .heartRate, since: anchor, limit: 1)
            heartRates += page.samples.compactMap(\.value.number)
            if page.samples.isEmpty { break }
            anchor = page.nextAnchor
        } while true
        #expect(heartRates == [72, 78])
        try await Fixtures.importExport(Fixtures.path("alxdrcirilo-apple-health-parser/export.xml"), into: database)
        try await Fixtures.importExport(
            Fixtures.path("rinoshiyo-apple-health-mcp-server/sample_export.xml"), into: database, force: true)
        let next = try await store.changes(of: .heartRate, since: anchor, limit: 100)
        #expect(next.samples.count == 2)  // the two of the second file; none of the first again
        #expect(!next.hasMore)
        let after = try await store.changes(of: .heartRate, since: next.nextAnchor, limit: 100)
        #expect(after.samples.isEmpty && after.nextAnchor == next.nextAnchor)
        #expect(try database.lastAnchor() >= next.nextAnchor)
    }
}

@Suite struct LinkedFileTests {
    @Test func ecgCSVAndFHIRResourcesOfAnUnpackedFolder() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let export = folder.appendingPathComponent("apple_health_export")
        let manager = FileManager.default
        try manager.createDirectory(at: export.appendingPathComponent("electrocardiograms"), withIntermediateDirectories: true)
        try manager.createDirectory(at: export.appendingPathComponent("clinical-records"), withIntermediateDirectories: true)
        try manager.copyItem(
            atPath: Fixtures.path("opendroid-hk/sampleexport.xml"), toPath: export.appendingPathComponent("eksport.xml").path)
        try manager.copyItem(
            atPath: Fixtures.path("rinoshiyo-apple-health-mcp-server/sample_ecg.csv"),
            toPath: export.appendingPathComponent("electrocardiograms/ecg_2024-06-15.csv").path)
        try Data(#"{"resourceType":"Procedure","id":"p1"}"#.utf8).write(
            to: export.appendingPathComponent("clinical-records/Procedure-488D59AE-81D4-4597-8FBB-713DE1CEF228.json"))
        let database = try Fixtures.database(in: folder)
        let summary = try await Fixtures.importExport(folder.path, into: database)
        #expect(summary.inputKind == "folder")
        #expect(summary.clinicalResourcesLoaded == 1)
        #expect(summary.added[.electrocardiogram] == 1)
        #expect(summary.warnings["clinical resource referenced but missing"] == 5)
        let ecg = try database.electrocardiograms()
        #expect(ecg.count == 1)
        #expect(ecg[0].voltages == [100, 200, -50, 150, 75, 0, -25, 50, 125, 175])
        #expect(ecg[0].sampleRateHz == 512)
        #expect(ecg[0].classification == "Sinus Rhythm")
        #expect(ecg[0].recordedDate?.timeIntervalSince1970 == 1_718_447_400)
        #expect(!ecg[0].header.contains { $0.key == "Name" || $0.key == "Date of Birth" })
    }
}

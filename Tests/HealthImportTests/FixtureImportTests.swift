import Foundation
import HealthCore
import HealthImport
import HealthSQLite
import Testing

/// Every public fixture imports with exact counts per element family, each cross-checked
/// against the file by hand (grep counts of its elements).
@Suite struct FixtureImportTests {
    static let expected: [(path: String, counts: [String: Int])] = [
        // iOS 16 export with the broken v12 DTD, in a zip with __MACOSX junk: 1 Record +
        // 1 Workout (4 events, 3 statistics, 7 metadata), 10 summaries, a 644-point GPX route.
        (
            "jshrake-healthkit-to-sqlite/export.zip",
            [
                "sample": 2, "metadata": 15, "workout": 1, "workout_event": 4, "workout_statistic": 3, "workout_route": 1,
                "route_point": 644, "activity_summary": 10,
            ]
        ),
        // v11: 5 Records, 1 Workout, 6 ClinicalRecords, 17 summaries, 10 HRV beats; the GPX
        // route and FHIR files are not part of the fixture.
        (
            "opendroid-hk/sampleexport.xml",
            [
                "sample": 6, "metadata": 3, "hrv_beat": 10, "workout": 1, "workout_event": 8, "workout_route": 1,
                "clinical_record": 6, "activity_summary": 17, "characteristic": 5,
            ]
        ),
        // 6 top-level Records (2 of them also inside the Correlation), 1 Correlation, 1 Workout.
        (
            "rinoshiyo-apple-health-mcp-server/sample_export.xml",
            [
                "sample": 8, "correlation_member": 2, "metadata": 5, "workout": 1, "workout_event": 1,
                "workout_statistic": 1, "workout_route": 1, "route_point": 3, "activity_summary": 1, "characteristic": 5,
            ]
        ),
        // Old format: route points inline as <Location>.
        (
            "dogsheep-healthkit-to-sqlite/export.xml",
            [
                "sample": 3, "metadata": 9, "workout": 1, "workout_route": 1, "route_point": 2, "activity_summary": 2,
                "characteristic": 4,
            ]
        ),
        // Unpacked folder with a GPX file.
        (
            "dogsheep-healthkit-to-sqlite/zip_contents",
            [
                "sample": 3, "metadata": 9, "workout": 1, "workout_route": 1, "route_point": 3, "activity_summary": 2,
                "characteristic": 4,
            ]
        ),
        ("AlekSi-applehealth/testdata.xml", ["sample": 2, "metadata": 4, "characteristic": 4]),
        ("tdda-applehealthdata/export6s3sample.xml", ["sample": 16, "workout": 1, "activity_summary": 2, "characteristic": 4]),
        ("alxdrcirilo-apple-health-parser/export.zip", ["sample": 8, "metadata": 3, "characteristic": 5]),
        ("alxdrcirilo-apple-health-parser/export.xml", ["sample": 8, "metadata": 3, "characteristic": 5]),
    ]

    @Test(arguments: expected.indices)
    func importsWithExactCounts(_ index: Int) async throws {
        let (path, counts) = Self.expected[index]
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        let summary = try await Fixtures.importExport(Fixtures.path(path), into: database)
        #expect(try Fixtures.dataCounts(database) == counts, "\(path)")
        #expect(summary.totalDuplicates == 0)
        #expect(summary.alreadyImported == nil)
    }

    @Test func brokenDTDOfIOS16IsSkippedAndVersionRecorded() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        let summary = try await Fixtures.importExport(Fixtures.path("jshrake-healthkit-to-sqlite/export.zip"), into: database)
        #expect(summary.exportInfo.exportVersion == 12)
        #expect(summary.exportInfo.locale == "en_US")
        #expect(summary.recordsRead == 12)
        #expect(summary.routeFilesLoaded == 1 && summary.routePoints == 644)
        #expect(summary.addedByType == ["HKQuantityTypeIdentifierWalkingSpeed": 1, "HKWorkoutTypeIdentifier": 1])
    }

    @Test func datesBecomeTheRightInstantsAndKeepTheirOffset() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        try await Fixtures.importExport(Fixtures.path("jshrake-healthkit-to-sqlite/export.zip"), into: database)
        let sample = try #require(try await database.store.latestSample(of: SampleType("HKQuantityTypeIdentifierWalkingSpeed")))
        // startDate="2022-12-15 17:48:29 -0800" is 2022-12-16T01:48:29Z.
        #expect(sample.start.timeIntervalSince1970 == 1_671_155_309)
        #expect(sample.end.timeIntervalSince1970 == 1_671_155_344)
        #expect(sample.utcOffsetSeconds == -28800)
        #expect(sample.value == .quantity(2.95276, unit: "mi/hr"))
        #expect(sample.source == Source(name: "Phone", version: "16.1.2"))
        #expect(sample.device?.hardware == "iPhone14,3")
        #expect(sample.device?.deviceClass == .iPhone)
    }

    @Test func hrvBeatsAreAnchoredToTheParentDate() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        try await Fixtures.importExport(Fixtures.path("opendroid-hk/sampleexport.xml"), into: database)
        let hrv = try #require(try await database.store.latestSample(of: .heartRateVariabilitySDNN))
        let beats = try #require(hrv.beats)
        #expect(beats.count == 10)
        // Every beat lies within the sample's minute, in order.
        #expect(beats.allSatisfy { $0.time >= hrv.start.addingTimeInterval(-1) && $0.time <= hrv.end.addingTimeInterval(1) })
        #expect(beats.map(\.time) == beats.map(\.time).sorted())
    }

    @Test func everyDeviceShapeInTheFixturesParses() async throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Fixtures.database(in: folder)
        for (path, _) in Self.expected { try await Fixtures.importExport(Fixtures.path(path), into: database) }
        let devices = try database.deviceRows()
        #expect(devices.count >= 4)
        for device in devices {
            #expect(device.name != nil, "every fixture device has a name: \(device)")
            if let hardware = device.hardware {
                #expect(hardware.hasPrefix("iPhone") || hardware.hasPrefix("Watch"), "\(hardware)")
                #expect(device.deviceClass != .other)
            }
        }
    }
}

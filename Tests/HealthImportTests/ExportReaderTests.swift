import Foundation
import HealthCore
import HealthImportReader
import HealthSynth
import Testing
import ZIPFoundation

/// The Apple export reader on its own, without a store: records in order, in batches, the
/// records that link to files delivered where they stand with the files' content in them.
@Suite struct ExportReaderTests {
    struct Collected {
        var records: [HealthRecord] = []
        var batchSizes: [Int] = []
        var bytes: [Int64] = []
    }

    static func read(_ path: String, batchSize: Int = 4096) throws -> (Collected, ExportReading) {
        var collected = Collected()
        let reading = try AppleExportReader(path: path).read(batchSize: batchSize) { batch, bytes in
            collected.records += batch
            collected.batchSizes.append(batch.count)
            collected.bytes.append(bytes)
        }
        return (collected, reading)
    }

    /// An export.xml with one run (a workout) whose routes name `routes`, between the
    /// top-level elements `before` and `after`.
    static func exportXML(routes: [String], before: String = "", after: String = "") -> String {
        let references = routes.map { path in
            """
              <WorkoutRoute sourceName="Watch" startDate="2024-02-29 07:00:00 +0100" endDate="2024-02-29 07:30:00 +0100">
               <FileReference path="\(path)"/>
              </WorkoutRoute>
            """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <ExportDate value="2024-03-01 09:00:00 +0100"/>
            \(before)
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" \
            sourceName="Watch" startDate="2024-02-29 07:00:00 +0100" endDate="2024-02-29 07:30:00 +0100">
            \(references.joined(separator: "\n"))
             </Workout>
            \(after)
            </HealthData>
            """
    }

    /// A step count record of `steps` at `hour` on 2024-02-29.
    static func stepsRecord(_ steps: Int, hour: Int) -> String {
        let time = "2024-02-29 \(hour < 10 ? "0" : "")\(hour):00:00 +0100"
        return """
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" \
            startDate="\(time)" endDate="\(time)" value="\(steps)"/>
            """
    }

    /// jshrake's export.zip: 12 top-level elements, one workout whose route is a GPX file of
    /// 644 points. The workout is the file's last element and comes last, its points read
    /// from the file.
    @Test func theRouteFileIsReadIntoItsWorkout() throws {
        let (collected, reading) = try Self.read(Fixtures.path("jshrake-healthkit-to-sqlite/export.zip"), batchSize: 2)
        #expect(reading.recordsRead == 12)
        #expect(reading.routeFilesLoaded == 1 && reading.routePoints == 644)
        #expect(reading.warnings.isEmpty)
        #expect(collected.batchSizes.allSatisfy { $0 <= 2 })
        #expect(collected.bytes == collected.bytes.sorted())
        guard case .workout(let workout) = collected.records.last else {
            Issue.record("the workout should come last")
            return
        }
        #expect(workout.routes.count == 1)
        #expect(workout.routes.first?.points.count == 644)
        #expect(workout.routes.first?.filePath?.hasSuffix(".gpx") == true)
        let workouts = collected.records.filter { if case .workout = $0 { true } else { false } }
        #expect(workouts.count == 1)
    }

    /// A route file that is missing: the workout still comes, without points, and the read
    /// says so.
    @Test func aMissingRouteFileIsAWarning() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let xml = Self.exportXML(routes: ["/workout-routes/route_2024-02-29_7.00am.gpx"])
        let path = folder.appendingPathComponent("export.xml")
        try Data(xml.utf8).write(to: path)
        let (collected, reading) = try Self.read(path.path)
        #expect(reading.warnings == ["route file referenced but missing": 1])
        #expect(reading.routeFilesLoaded == 0)
        guard case .workout(let workout) = collected.records.first else {
            Issue.record("the workout should be delivered")
            return
        }
        #expect(workout.routes.first?.points.isEmpty == true)
        #expect(workout.routes.first?.filePath == "/workout-routes/route_2024-02-29_7.00am.gpx")
    }

    /// A probe of 2026-11-28: one route file emptied or cut short stopped the whole import
    /// ("no XML element found", nothing imported) where a missing one is a warning. The
    /// workout comes without that route's points, the next route's are read, and the read
    /// says so.
    @Test func aRouteFileThatIsNotWellFormedIsAWarning() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let routes = [
            "/workout-routes/empty.gpx", "/workout-routes/cut.gpx", "/workout-routes/page.gpx", "/workout-routes/good.gpx",
        ]
        try Data(Self.exportXML(routes: routes).utf8).write(to: folder.appendingPathComponent("export.xml"))
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("workout-routes"), withIntermediateDirectories: true)
        let good = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1"><trk><trkseg><trkpt lon="2.35" lat="48.85"><ele>35</ele><time>2024-02-29T07:00:00Z</time></trkpt>\
            </trkseg></trk></gpx>
            """
        try Data().write(to: folder.appendingPathComponent("workout-routes/empty.gpx"))
        try Data(good.utf8.prefix(120)).write(to: folder.appendingPathComponent("workout-routes/cut.gpx"))
        try Data(good.utf8).write(to: folder.appendingPathComponent("workout-routes/good.gpx"))
        // Well-formed, no track point (a probe of the fix): said too.
        try Data("<html><body>hi</body></html>".utf8).write(to: folder.appendingPathComponent("workout-routes/page.gpx"))
        let (collected, reading) = try Self.read(folder.path)
        #expect(
            reading.warnings == [
                "route left without its points: its GPX file is not well-formed": 2,
                "route left without its points: its file holds no GPX track point": 1,
            ], "\(reading.warnings)")
        #expect(reading.routeFilesLoaded == 2 && reading.routePoints == 1)
        guard case .workout(let workout) = collected.records.first else {
            Issue.record("the workout should be delivered")
            return
        }
        #expect(workout.routes.map(\.points.count) == [0, 0, 0, 1])
    }

    /// Issue 37 §1, memory flat to a 4 GB export: a record that links to a file comes where
    /// it stands in the export, its file read then. Held back until the end of the main XML,
    /// a 4 GB export's 4,899 workouts grew the import's memory by about 17 MB (its peak by 8 MiB).
    @Test func i37_aWorkoutComesWhereItStandsWithItsRoute() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let xml = Self.exportXML(
            routes: ["/workout-routes/route.gpx"], before: Self.stepsRecord(800, hour: 6),
            after: Self.stepsRecord(900, hour: 8))
        let gpx = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Apple Health Export"><trk><trkseg>
            <trkpt lon="2.35" lat="48.85"><ele>35.5</ele><time>2024-02-29T06:00:00Z</time></trkpt>
            <trkpt lon="2.351" lat="48.851"><ele>35.7</ele><time>2024-02-29T06:00:05Z</time></trkpt>
            </trkseg></trk></gpx>
            """
        try Data(xml.utf8).write(to: folder.appendingPathComponent("export.xml"))
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("workout-routes"), withIntermediateDirectories: true)
        try Data(gpx.utf8).write(to: folder.appendingPathComponent("workout-routes/route.gpx"))

        let (collected, reading) = try Self.read(folder.path, batchSize: 1)

        let kinds = collected.records.map { record -> String in
            switch record {
            case .sample(let sample): "\(Int(sample.value.number ?? 0)) steps"
            case .workout(let workout): "workout of \(workout.routes.first?.points.count ?? 0) points"
            default: "other"
            }
        }
        #expect(kinds == ["800 steps", "workout of 2 points", "900 steps"])
        #expect(reading.routeFilesLoaded == 1 && reading.routePoints == 2 && reading.warnings.isEmpty)
    }

    /// The same in a zip, whose route files are read while its main XML streams: the
    /// generated export lists its workouts before its activity summaries.
    @Test func i37_aZipsWorkoutsComeBeforeTheSummariesAfterThem() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let export = folder.appendingPathComponent("export.zip")
        var configuration = SyntheticExport.Configuration(days: 30, seed: 37)
        configuration.startDate = "2024-02-01"
        _ = try SyntheticExport(configuration: configuration).write(to: export)

        let (collected, reading) = try Self.read(export.path, batchSize: 64)

        let firstSummary = collected.records.firstIndex { if case .activitySummary = $0 { true } else { false } }
        let workouts = collected.records.indices.filter { if case .workout = collected.records[$0] { true } else { false } }
        #expect(workouts.count > 5 && reading.routeFilesLoaded > 5 && reading.warnings.isEmpty)
        #expect(workouts.allSatisfy { $0 < firstSummary ?? 0 }, "\(workouts) \(String(describing: firstSummary))")
        #expect(collected.records.count == reading.recordsRead)
    }

    /// A route or clinical file that names a folder (or the export's folder itself, an
    /// empty path) is missing, as in a zip: not a raw "Is a directory" error that names no file.
    @Test func i37_aLinkedPathThatIsAFolderIsMissing() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let xml = Self.exportXML(routes: ["/workout-routes", ""])
        try Data(xml.utf8).write(to: folder.appendingPathComponent("export.xml"))
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("workout-routes"), withIntermediateDirectories: true)

        let (collected, reading) = try Self.read(folder.path)

        #expect(reading.warnings == ["route file referenced but missing": 2])
        #expect(collected.records.count == 1 && reading.routeFilesLoaded == 0)
    }

    /// Issue 37 §1, memory flat: a route's GPX streams through the parser in 256 KiB chunks,
    /// its points made plausible as they come, instead of being read whole (twice: the file
    /// and the scanner's copy). A 100-mile race's 21 MB GPX in a 150 MB export took the
    /// import's peak from 78 to 129 MB. Every tag that straddles a chunk is read whole, in a
    /// folder and in a zip, and the implausible points are counted as before.
    @Test func i37_aLongRouteStreamsAndKeepsEveryPoint() throws {
        let count = 5_000
        var gpx = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Apple Health Export"><trk><trkseg>

            """
        for index in 0..<count {
            // Every 1,000th point off the Earth (left out); every other 500th too fast (its speed removed).
            let latitude = index % 1_000 == 999 ? "95.000000" : String(format: "%.6f", 48.85 + Double(index) * 1e-5)
            let speed = index % 1_000 == 499 ? "900.0" : "2.9"
            gpx += """
                <trkpt lon="\(String(format: "%.6f", 2.35 + Double(index) * 1e-5))" lat="\(latitude)"><ele>35.5</ele>\
                <time>\(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: 1_709_190_000 + Double(index))))</time>\
                <extensions><speed>\(speed)</speed><course>1.0</course><hAcc>3.0</hAcc><vAcc>2.0</vAcc></extensions></trkpt>

                """
        }
        gpx += "</trkseg></trk></gpx>\n"
        #expect(gpx.utf8.count > 3 * 262_144)
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let xml = Data(Self.exportXML(routes: ["/workout-routes/route.gpx"]).utf8)
        try xml.write(to: folder.appendingPathComponent("export.xml"))
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("workout-routes"), withIntermediateDirectories: true)
        try Data(gpx.utf8).write(to: folder.appendingPathComponent("workout-routes/route.gpx"))
        let zip = folder.appendingPathComponent("export.zip")
        let archive = try Archive(url: zip, accessMode: .create)
        try BadInputTests.add(xml, as: "apple_health_export/export.xml", to: archive)
        try BadInputTests.add(Data(gpx.utf8), as: "apple_health_export/workout-routes/route.gpx", to: archive)

        for path in [folder.path, zip.path] {
            let (collected, reading) = try Self.read(path)
            guard case .workout(let workout) = collected.records.first, let points = workout.routes.first?.points else {
                Issue.record("\(path): the workout should come with its route")
                continue
            }
            #expect(points.count == count - 5 && reading.routePoints == count - 5, "\(path)")
            #expect(reading.warnings == [RoutePointWarning.text: 10], "\(path)")
            let first = RoutePoint(
                time: Date(timeIntervalSince1970: 1_709_190_000), latitude: 48.85, longitude: 2.35, elevation: 35.5,
                speed: 2.9, course: 1, horizontalAccuracy: 3, verticalAccuracy: 2)
            #expect(points.first == first, "\(path)")
            let cleared: [Double] = points.filter { $0.speed == nil }.compactMap { $0.time?.timeIntervalSince1970 }
            let tooFast: [Double] = (0..<5).map { 1_709_190_000 + Double($0 * 1_000 + 499) }
            #expect(cleared == tooFast, "\(path)")
            let last = try #require(points.last)
            #expect(last.time == Date(timeIntervalSince1970: 1_709_190_000 + Double(count - 2)))
            #expect(abs(last.longitude - (2.35 + Double(count - 2) * 1e-5)) < 1e-9)
        }
    }

    /// A folder export's linked files that are symbolic links out of the folder — a route,
    /// a clinical record's FHIR JSON, an ECG — are refused and counted, never read: an
    /// export handed to a user cannot bring their own files into the store. A link that
    /// stays inside the folder is read. Before, all three were read (the JSON stored whole).
    @Test func linksOutOfAFolderExportAreRefused() throws {
        let base = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: base) }
        let folder = base.appendingPathComponent("export")
        let manager = FileManager.default
        for sub in ["workout-routes", "clinical-records", "electrocardiograms"] {
            try manager.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        let gpx = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1"><trk><trkseg><trkpt lon="2.35" lat="48.85"/></trkseg></trk></gpx>
            """
        try Data(gpx.utf8).write(to: base.appendingPathComponent("outside.gpx"))
        try Data(#"{"secret": "the user's own file"}"#.utf8).write(to: base.appendingPathComponent("secret.json"))
        try Data("Name,x\n".utf8).write(to: base.appendingPathComponent("secret.csv"))
        try Data(gpx.utf8).write(to: folder.appendingPathComponent("workout-routes/inside.gpx"))
        for (link, target) in [
            ("workout-routes/out.gpx", "../../outside.gpx"), ("clinical-records/out.json", "../../secret.json"),
            ("electrocardiograms/ecg_2024-02-29.csv", "../../secret.csv"), ("workout-routes/alias.gpx", "inside.gpx"),
        ] {
            try manager.createSymbolicLink(
                atPath: folder.appendingPathComponent(link).path, withDestinationPath: target)
        }
        let clinical = """
             <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="a1c" sourceName="Lab" \
            fhirVersion="4.0.1" receivedDate="2024-02-29 10:00:00 +0100" resourceFilePath="/clinical-records/out.json"/>
            """
        let xml = Self.exportXML(routes: ["/workout-routes/out.gpx", "/workout-routes/alias.gpx"], after: clinical)
        try Data(xml.utf8).write(to: folder.appendingPathComponent("export.xml"))

        let (collected, reading) = try Self.read(folder.path)

        #expect(reading.warnings == ["linked file refused: outside the export's own folders": 3])
        #expect(reading.routeFilesLoaded == 1 && reading.routePoints == 1 && reading.clinicalResourcesLoaded == 0)
        let json = collected.records.compactMap { if case .clinicalRecord(let record) = $0 { record } else { nil } }
        #expect(json.count == 1 && json.first?.resourceJSON == nil)
        #expect(!collected.records.contains { if case .electrocardiogram = $0 { true } else { false } })
    }

    struct Stop: Error {}

    /// What the receiver throws stops the read and comes back unchanged.
    @Test func theReceiversErrorStopsTheRead() throws {
        var batches = 0
        #expect(throws: Stop.self) {
            _ = try AppleExportReader(path: Fixtures.path("opendroid-hk/sampleexport.xml")).read(batchSize: 10) { _, _ in
                batches += 1
                if batches == 2 { throw Stop() }
            }
        }
        #expect(batches == 2)
    }

    /// Failures carry a code to match on, besides the message for people.
    @Test func failuresHaveCodes() throws {
        #expect {
            _ = try AppleExportReader(path: "/nonexistent/export.zip")
        } throws: { ($0 as? ImportError)?.code == .notFound }
    }

    /// Issue 37 §1: a batch is held until written and several are in flight, so a batch of
    /// routes carries few points (100,000 a batch took a 1 GB import's peak
    /// memory from 90 to 138 MiB): a batch of routes holds at most 4,096 points, or one workout.
    @Test func i37_routesComeInBatchesOfFewPoints() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("routes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let export = folder.appendingPathComponent("export.zip")
        var configuration = SyntheticExport.Configuration(days: 60, seed: 37)
        configuration.startDate = "2024-02-01"
        _ = try SyntheticExport(configuration: configuration).write(to: export)
        var routeBatches: [[Int]] = []
        let reading = try AppleExportReader(path: export.path).read { batch, _ in
            let points = batch.compactMap { record -> Int? in
                guard case .workout(let workout) = record, !workout.routes.isEmpty else { return nil }
                return workout.routes.reduce(0) { $0 + $1.points.count }
            }
            if !points.isEmpty { routeBatches.append(points) }
        }
        #expect(reading.routePoints > 4_096, "the export has enough points for several batches")
        #expect(routeBatches.count > 1)
        for batch in routeBatches {
            // The batch closes once it reaches 4,096 points: all but its last workout are under.
            #expect(batch.dropLast().reduce(0, +) < 4_096, "\(batch)")
        }
        #expect(routeBatches.flatMap { $0 }.reduce(0, +) == reading.routePoints)
    }
}

extension ExportReaderTests {
    /// A probe of 2026-11-28: an active-energy record in a unit healthpipe does not read
    /// (`furlongs`) was imported without a word and left out of the day's energy (50 kcal
    /// for 60). It is still kept, and the read says so, once per type and unit.
    @Test func aUnitThatDoesNotParseIsAWarning() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let energy = { (unit: String, value: String, hour: Int) in
            #" <Record type="HKQuantityTypeIdentifierActiveEnergyBurned" sourceName="Watch" unit="\#(unit)" startDate="2024-02-29 0\#(hour):00:00 +0100" endDate="2024-02-29 0\#(hour):10:00 +0100" value="\#(value)"/>"#
        }
        let records = [energy("furlongs", "41.84", 7), energy("furlongs", "10", 8), energy("kcal", "50", 9)]
        let xml = Self.exportXML(routes: [], before: records.joined(separator: "\n"))
        let path = folder.appendingPathComponent("export.xml")
        try Data(xml.utf8).write(to: path)
        let (collected, reading) = try Self.read(path.path)
        #expect(
            reading.warnings == [
                "HKQuantityTypeIdentifierActiveEnergyBurned in 'furlongs': a unit healthpipe does not read (kept, left out of the figures)":
                    2
            ], "\(reading.warnings)")
        #expect(collected.records.count == 4)  // three records and the workout
    }
}
